package io.numacube.server.pgwire;

import io.numacube.server.pgwire.catalog.PgCatalog;
import io.numacube.server.pgwire.types.EngineRows;
import io.numacube.server.pgwire.types.PgColumn;
import io.numacube.server.pgwire.types.RowSet;
import io.numacube.server.query.ClientError;
import io.numacube.server.query.QueryService;
import io.numacube.server.query.RunningQuery;
import io.numacube.server.query.StatementRefusals;
import io.numacube.server.write.InsertStatement;
import io.numacube.server.write.WriteService;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs one statement of a connection, whichever way it must go: in a failed transaction block only COMMIT or ROLLBACK
 * (else 25P02, as PostgreSQL); INSERT, DELETE and UPDATE through the {@link WriteService} (at once, or at COMMIT inside a
 * transaction block, whose writes COMMIT applies as one), refused with 42501 for a reader; session statements
 * ({@link SessionStatements}); SQL cursors ({@link Cursors}); other writes and unsupported utilities refused ({@link StatementRefusals}); FROM-less SELECTs of constants ({@link ConstantSelect}); system-catalog
 * queries ({@link PgCatalog}); and everything else to the engine through the {@link QueryService}, whose running
 * query the connection keeps for a cancel request. Thread-safe: it holds no connection state.
 */
final class StatementRunner {

    private final QueryService service;
    private final WriteService writes;
    private final PgCatalog catalog;
    private final String version;
    private final Consumer<String> statementLog;
    private final ParameterTypeInference parameterTypes;

    /**
     * @param version      what {@code SELECT version()} answers
     * @param statementLog told of every statement run, with its connection's process id; null for none
     */
    StatementRunner(
            QueryService service,
            WriteService writes,
            PgCatalog catalog,
            String version,
            Consumer<String> statementLog) {
        this.service = service;
        this.writes = writes;
        this.catalog = catalog;
        this.version = version;
        this.statementLog = statementLog;
        this.parameterTypes = new ParameterTypeInference(service.cube(), service.defaultTimeout());
    }

    /**
     * Runs {@code sql} (one statement, parameters already in place).
     *
     * @param running told of the engine query while it runs, and of null when it is over
     * @throws PgProtocolException or {@link io.numacube.numa.base.NumacubeException} with the client's error
     */
    Outcome run(String sql, Session session, Consumer<RunningQuery> running) {
        if (statementLog != null) {
            statementLog.accept("pid=" + session.processId + " statement: " + sql);
        }
        if (session.status() == Session.FAILED_BLOCK && !SessionStatements.endsTransaction(sql)) {
            throw new PgProtocolException(
                    "25P02", "current transaction is aborted, commands ignored until end of transaction block");
        }
        Optional<Outcome> cursor = Cursors.run(sql, session, query -> run(query, session, running));
        if (cursor.isPresent()) {
            return cursor.get();
        }
        if (InsertStatement.isInsert(sql)) {
            session.checkWritable("INSERT");
            return insert(sql, session);
        }
        if (isDelete(sql)) {
            session.checkWritable("DELETE");
            return delete(sql, session);
        }
        if (isUpdate(sql)) {
            session.checkWritable("UPDATE");
            return update(sql, session);
        }
        if (session.stagesWrites() && SessionStatements.commits(sql)) {
            SessionStatements.checkChain(sql, session);
            commitWrites(session);
        }
        Optional<Outcome> own = SessionStatements.run(sql, session);
        if (own.isPresent()) {
            return own.get();
        }
        session.queried();
        Optional<RowSet> answered = answerWithoutEngine(sql, session);
        if (answered.isPresent()) {
            return Outcome.rows(answered.get());
        }
        java.util.Map<Integer, String> zonedColumns = io.numacube.engine.Cube.readsClock(sql)
                ? io.numacube.engine.Cube.zonedClockColumns(sql)
                : java.util.Map.of();
        java.time.OffsetDateTime zoned = zonedColumns.isEmpty() ? null : session.zonedClock();
        RunningQuery q = service.start(
                sql,
                session.settings.statementTimeout(),
                session.pendingWrites.isEmpty() ? List.of() : writes.staged(session.pendingWrites),
                clock(session, sql));
        running.accept(q);
        try {
            EngineRows rows = new EngineRows(q.await());
            return Outcome.rows(zoned == null ? rows : rows.withZonedClock(zonedColumns, zoned));
        } finally {
            running.accept(null);
        }
    }

    /**
     * An INSERT: applied at once outside a transaction block ({@code INSERT 0 n}), kept for the end of an explicit or
     * implicit one ({@link Session#beginImplicit}) inside it. The rows
     * are read (and a bad one refused) at once either way.
     */
    private Outcome insert(String sql, Session session) {
        InsertStatement insert = InsertStatement.parse(sql, session::clock);
        session.identity.checkMayWrite(insert.table());
        WriteService.Batch batch = writes.batch(insert);
        int rows = insert.rows().size();
        if (session.stagesWrites()) {
            writes.check(batch);
            session.pendingWrites.add(batch);
        } else {
            writes.append(batch);
        }
        return Outcome.command("INSERT 0 " + rows);
    }

    /** The types of statements' untyped parameters, kept for the server's life. */
    ParameterTypeInference parameterTypes() {
        return parameterTypes;
    }

    /** Whether {@code sql} is an INSERT, UPDATE, DELETE or COPY: a statement that returns no rows. */
    static boolean isWrite(String sql) {
        return InsertStatement.isInsert(sql)
                || isDelete(sql)
                || isUpdate(sql)
                || io.numacube.server.write.CopyStatement.isCopy(sql);
    }

    private static boolean isDelete(String sql) {
        return io.numacube.server.query.SqlLexer.normalize(sql).regionMatches(true, 0, "DELETE ", 0, 7);
    }

    /**
     * A DELETE: applied at once outside a transaction block ({@code DELETE n}), kept for the end of an explicit or
     * implicit one inside it.
     */
    private Outcome delete(String sql, Session session) {
        WriteService.Batch batch = WriteService.delete(sql, clock(session, sql));
        session.identity.checkMayWrite(batch.table());
        if (session.stagesWrites()) {
            return Outcome.command("DELETE " + pending(session, batch));
        }
        return Outcome.command("DELETE " + writes.append(batch).rows());
    }

    private static boolean isUpdate(String sql) {
        return io.numacube.server.query.SqlLexer.normalize(sql).regionMatches(true, 0, "UPDATE ", 0, 7);
    }

    /**
     * An UPDATE: applied at once outside a transaction block ({@code UPDATE n}), kept for the end of an explicit or
     * implicit one inside it.
     */
    private Outcome update(String sql, Session session) {
        WriteService.Batch batch = WriteService.update(sql, clock(session, sql));
        session.identity.checkMayWrite(batch.table());
        if (session.stagesWrites()) {
            return Outcome.command("UPDATE " + pending(session, batch));
        }
        return Outcome.command("UPDATE " + writes.append(batch).rows());
    }

    /**
     * Keeps a DELETE or UPDATE of a block for its end; the rows it changes after the block's writes before it (its
     * tag's count, as PostgreSQL's), or its error at once, from the block's trial, onto which only the writes kept
     * since its last statement are applied.
     */
    private long pending(Session session, WriteService.Batch batch) {
        List<WriteService.Batch> block = new java.util.ArrayList<>(session.pendingWrites);
        block.add(batch);
        long rows = writes.trialRows(session.trial(writes::openTrial), block);
        session.pendingWrites.add(batch);
        return rows;
    }

    /**
     * The clock statement {@code sql} of {@code session} reads: its transaction's start in the session's TimeZone
     * ({@link Session#clock}); a statement that names no clock function is not refused for a TimeZone numacube
     * does not read, and gets the JVM's clock, which it does not read.
     */
    private static java.time.LocalDateTime clock(Session session, String sql) {
        return io.numacube.engine.Cube.readsClock(sql) ? session.clock() : io.numacube.engine.TableWrite.clockNow();
    }

    /** Applies the block's writes as one; on failure the block is rolled back and COMMIT fails. */
    void commitWrites(Session session) {
        List<WriteService.Batch> pending = List.copyOf(session.pendingWrites);
        session.pendingWrites.clear();
        try {
            writes.commit(session.trial(writes::openTrial), pending);
        } catch (RuntimeException e) {
            session.endTransaction();
            throw e;
        }
    }

    /**
     * The columns {@code sql} returns, or an empty list for a statement that returns no rows, without side effects:
     * writes (INSERT, UPDATE, DELETE, COPY) return none and are not run, session statements and cursor statements are recognised, not run;
     * a query for the engine runs (with placeholder parameters, when describing a statement before it is bound), since
     * the engine can only tell its result's columns by answering.
     */
    List<PgColumn> describe(String sql, Session session, Consumer<RunningQuery> running) {
        Optional<List<PgColumn>> cursor = Cursors.describe(sql, session);
        if (cursor.isPresent()) {
            return cursor.get();
        }
        if (isWrite(sql)) {
            return List.of();
        }
        if (SessionStatements.isSessionStatement(sql)) {
            return SessionStatements.isShow(sql)
                    ? SessionStatements.run(sql, session).orElseThrow().rows().columns()
                    : List.of();
        }
        return run(sql, session, running).rows().columns();
    }

    private Optional<RowSet> answerWithoutEngine(String sql, Session session) {
        Optional<ClientError> refused = StatementRefusals.refusal(sql);
        if (refused.isPresent()) {
            throw refused.get().toException();
        }
        Optional<RowSet> constant = ConstantSelect.answer(sql, session, version);
        if (constant.isPresent() || !PgCatalog.readsCatalog(sql)) {
            return constant;
        }
        return Optional.of(catalog.answer(sql, session.database)
                .orElseThrow(() -> new PgProtocolException(
                        ClientError.NOT_SUPPORTED,
                        "this system catalog query is not supported by numacube — it answers psql's \\dt and \\d, "
                                + "JDBC's DatabaseMetaData tables, columns, keys and types, and SQLAlchemy's "
                                + "reflection of tables, and refuses a catalog query with a condition or order it "
                                + "cannot apply exactly")));
    }
}
