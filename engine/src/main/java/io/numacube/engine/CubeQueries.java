package io.numacube.engine;

import io.numacube.engine.exec.QueryExecutor;
import io.numacube.engine.ingest.StagedTableLoader;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.result.Cancellation;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.SqlBinder;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.PlacementTarget;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.NumacubeException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A cube's read path: a SQL query bound over one snapshot of the cube's tables and run by the cube's workers ({@link
 * Cube#query}, {@link Cube#queryAfter}), a statement bound only for the types of its parameters ({@link
 * Cube#parameterTypes}), and the statements the write path binds (a DELETE's or UPDATE's WHERE, {@link
 * CubeWrites.Host}). A statement with subqueries, a LEFT JOIN or information_schema views is bound in steps: its
 * subqueries run first ({@link Subqueries}) and their rows, and the views' ({@link InformationSchema}), are placed as
 * temporary tables that only that statement sees; others are bound in one step, a query's kept by {@link
 * BoundStatements} for the snapshot it was bound over.
 *
 * <p>Invariants: each statement reads the one snapshot it was given, from binding to its last subquery and its answer,
 * and every temporary table it placed is freed when it is done, answered or failed; a query's answer carries the
 * versions of the cube's tables it read ({@link #withVersions}), never a temporary table's. Nothing here changes the
 * cube's tables.
 *
 * <p>Thread-safety: any number of threads may query at once. {@link #query} and {@link #parameterTypes} hold the
 * cube's read lock while they run (so {@link Cube#close()}, which takes it exclusively, waits for them) and check
 * the cube is open under it; the other methods are called under it, or under the load lock as well, by their caller.
 * Owned by its {@link Cube}, which frees the tables and the workers.
 */
final class CubeQueries {

    /**
     * What the queries need of their cube now: where a statement's temporary tables are placed, whether morsels are
     * stolen, and whether the cube is still open.
     */
    interface Host {

        /** Where temporary tables go now: the cube's placement, layout of new data, morsel rows, memory, workers. */
        PlacementTarget placementTarget();

        /** Whether queries steal morsels across nodes now ({@link Cube#setWorkStealing}). */
        boolean workStealing();

        /** Throws when the cube is closed. */
        void checkOpen();
    }

    private final CubeTables tables;
    private final ReentrantReadWriteLock lock;
    private final BoundStatements boundStatements;
    private final WorkerPool pool;
    private final Host host;

    /**
     * @param tables          the cube's tables, read one snapshot per statement
     * @param lock            the cube's lock: queries hold it shared, closing exclusively
     * @param boundStatements the statements bound in one step, kept per snapshot
     * @param pool            the cube's workers, which run every query
     * @param host            the cube, as its queries need it
     */
    CubeQueries(
            CubeTables tables,
            ReentrantReadWriteLock lock,
            BoundStatements boundStatements,
            WorkerPool pool,
            Host host) {
        this.tables = tables;
        this.lock = lock;
        this.boundStatements = boundStatements;
        this.pool = pool;
        this.host = host;
    }

    /** As {@link Cube#query(String, LocalDateTime, Cancellation)}. */
    QueryResult query(String sql, LocalDateTime wallClock, Cancellation cancel) {
        long start = System.nanoTime();
        lock.readLock().lock();
        try {
            host.checkOpen();
            try (CubeTables.Snapshot snapshot = tables.acquire()) {
                return boundOrKept(
                        snapshot,
                        sql,
                        wallClock,
                        (lq, temps) -> withVersions(execute(snapshot, lq, temps, start, cancel), snapshot, lq),
                        cancel);
            }
        } catch (StackOverflowError e) {
            // a last guard: the binder bounds nesting, but no Error may escape as a stack trace
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "the query is nested too deeply to run" + " — simplify its expressions (nesting limit "
                            + SqlBinder.MAX_DEPTH + ")");
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Runs query {@code sql} over {@code view}, a snapshot its caller holds open (and the read lock), its time counted
     * from {@code start}: {@link Cube#queryAfter}'s query over the pending writes' private versions.
     */
    QueryResult queryOver(
            CubeTables.Snapshot view, String sql, LocalDateTime wallClock, long start, Cancellation cancel) {
        return bound(
                view,
                sql,
                wallClock,
                (lq, temps) -> withVersions(execute(view, lq, temps, start, cancel), view, lq),
                cancel);
    }

    /** As {@link Cube#parameterTypes(String, Cancellation)}. */
    Map<Integer, ParameterType> parameterTypes(String sql, Cancellation cancellation) {
        lock.readLock().lock();
        try {
            host.checkOpen();
            try (CubeTables.Snapshot snapshot = tables.acquire()) {
                Map<Integer, ParameterType> out = new java.util.TreeMap<>();
                io.numacube.engine.sql.ParameterMarkers.collect(() -> bindOnly(snapshot, sql, cancellation))
                        .forEach((n, t) -> out.put(n, new ParameterType(t.type(), t.scale())));
                return out;
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    /** {@code sql} bound and not run, for its parameters' types: a DELETE's WHERE as a query, an UPDATE's SET too. */
    private Object bindOnly(CubeTables.Snapshot snapshot, String sql, Cancellation cancellation) {
        if (StatementText.isDelete(sql)) {
            return bound(snapshot, StatementText.selectOfDelete(sql), (lq, temps) -> lq, cancellation);
        }
        if (StatementText.isUpdate(sql)) {
            io.numacube.engine.sql.UpdateStatement st = io.numacube.engine.sql.UpdateStatement.parse(sql);
            CubeTables.Version v = snapshot.version(st.table());
            if (v == null) {
                throw Cube.noSuchTable(st.table(), snapshot);
            }
            return boundTree(snapshot, () -> st.values(v.table().schema()), false, (lq, temps) -> lq, cancellation);
        }
        return bound(snapshot, sql, (lq, temps) -> lq, cancellation);
    }

    /**
     * Whether the text may hold a subquery or WITH (a second SELECT), a LEFT JOIN that {@link EagerAggregation}
     * may rewrite into one, or no FROM clause of its own (a SELECT without FROM reads a one-row table, {@link
     * Subqueries}): such statements are run in steps.
     */
    private static boolean hasSubqueries(String sql) {
        java.util.regex.Matcher m = SELECT_WORD.matcher(sql);
        return (m.find() && m.find()) || LEFT_JOIN.matcher(sql).find() || !StatementText.hasTopLevelFrom(sql);
    }

    private static final java.util.regex.Pattern SELECT_WORD = java.util.regex.Pattern.compile("(?i)\\bselect\\b");

    private static final java.util.regex.Pattern LEFT_JOIN =
            java.util.regex.Pattern.compile("(?i)\\bleft\\s+(outer\\s+)?join\\b");

    /**
     * Binds {@code sql} over {@code snapshot} and hands it to {@code then} with the temporary tables it reads: a
     * statement with subqueries has them run first, as temporary tables or values ({@link Subqueries}), freed after,
     * each checking {@code cancel}; one that names information_schema reads its views ({@link InformationSchema}) of
     * the snapshot's tables, staged as temporary tables too.
     */
    private <T> T bound(
            CubeTables.Snapshot snapshot,
            String sql,
            java.util.function.BiFunction<LogicalQuery, Map<String, FactTable>, T> then,
            Cancellation cancel) {
        return bound(snapshot, sql, TableWrite.clockNow(), then, cancel);
    }

    /** As {@link #bound(CubeTables.Snapshot, String, java.util.function.BiFunction, Cancellation)}, the statement's
     * clock functions, its subqueries' included, reading {@code wallClock}. */
    <T> T bound(
            CubeTables.Snapshot snapshot,
            String sql,
            LocalDateTime wallClock,
            java.util.function.BiFunction<LogicalQuery, Map<String, FactTable>, T> then,
            Cancellation cancel) {
        return bound(
                snapshot,
                sql,
                wallClock,
                then,
                cancel,
                () -> SqlBinder.bind(sql, new SnapshotCatalog(snapshot, Map.of()), wallClock));
    }

    /**
     * As {@link #bound}, a statement bound in one step (no subquery, no information_schema view) by {@code oneStep},
     * any other from its tree.
     */
    private <T> T bound(
            CubeTables.Snapshot snapshot,
            String sql,
            LocalDateTime wallClock,
            java.util.function.BiFunction<LogicalQuery, Map<String, FactTable>, T> then,
            Cancellation cancel,
            java.util.function.Supplier<LogicalQuery> oneStep) {
        boolean views = InformationSchema.named(sql);
        if (!hasSubqueries(sql) && !views) {
            return then.apply(oneStep.get(), Map.of());
        }
        return boundTree(snapshot, () -> SqlBinder.parse(sql, wallClock), views, then, cancel);
    }

    /**
     * As {@link #bound}, a statement bound in one step taken from {@link #boundStatements} where it was bound over
     * this very snapshot before (and kept there). Only for {@link #query}: binding records nothing aside there.
     */
    private QueryResult boundOrKept(
            CubeTables.Snapshot snapshot,
            String sql,
            LocalDateTime wallClock,
            java.util.function.BiFunction<LogicalQuery, Map<String, FactTable>, QueryResult> then,
            Cancellation cancel) {
        return bound(
                snapshot,
                sql,
                wallClock,
                then,
                cancel,
                () -> boundStatements.bound(
                        sql,
                        snapshot.generation(),
                        () -> SqlBinder.bind(sql, new SnapshotCatalog(snapshot, Map.of()), wallClock)));
    }

    /**
     * As {@link #bound}, for a statement parsed already ({@code parsed} is called once): its subqueries run first as
     * temporary tables or values, and with {@code views} it reads information_schema's views.
     */
    <T> T boundTree(
            CubeTables.Snapshot snapshot,
            java.util.function.Supplier<org.apache.calcite.sql.SqlNode> parsed,
            boolean views,
            java.util.function.BiFunction<LogicalQuery, Map<String, FactTable>, T> then,
            Cancellation cancel) {
        Map<String, FactTable> temps = new java.util.LinkedHashMap<>();
        try {
            if (views) {
                List<TableSchema> schemas = snapshot.versions().stream()
                        .map(v -> v.table().schema())
                        .toList();
                InformationSchema.views(schemas)
                        .forEach(staging ->
                                temps.put(CubeTables.key(staging.schema().name()), loadTemporary(staging)));
            }
            java.util.function.Function<org.apache.calcite.sql.SqlNode, QueryResult> run = node -> execute(
                    snapshot,
                    SqlBinder.bind(node, new SnapshotCatalog(snapshot, temps)),
                    temps,
                    System.nanoTime(),
                    cancel);
            Subqueries subqueries = new Subqueries(
                    run,
                    staging -> temps.put(CubeTables.key(staging.schema().name()), loadTemporary(staging)),
                    new SnapshotCatalog(snapshot, temps));
            org.apache.calcite.sql.SqlNode root = subqueries.rewrite(parsed.get());
            return then.apply(SqlBinder.bind(root, new SnapshotCatalog(snapshot, temps)), temps);
        } finally {
            temps.values().forEach(FactTable::close);
        }
    }

    /** {@code r} with the versions of the cube's tables {@code lq} read in {@code snapshot} (not temporary ones). */
    private static QueryResult withVersions(QueryResult r, CubeTables.Snapshot snapshot, LogicalQuery lq) {
        Map<String, Long> versions = new java.util.LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        names.add(lq.fact());
        lq.joins().forEach(j -> names.add(j.table()));
        for (String name : names) {
            CubeTables.Version v = snapshot.version(name);
            if (v != null) {
                versions.putIfAbsent(v.table().schema().name(), v.number());
            }
        }
        return r.withStats(r.stats().withVersions(versions));
    }

    private QueryResult execute(
            CubeTables.Snapshot snapshot,
            LogicalQuery lq,
            Map<String, FactTable> temps,
            long start,
            Cancellation cancel) {
        FactTable fact = SnapshotCatalog.table(snapshot, lq.fact(), temps);
        List<FactTable> dimensions = lq.joins().stream()
                .map(j -> SnapshotCatalog.table(snapshot, j.table(), temps))
                .toList();
        if (lq.rows()) {
            return io.numacube.engine.exec.ProjectionExecutor.run(lq, fact, dimensions, pool, start, cancel);
        }
        return QueryExecutor.run(lq, fact, dimensions, pool, host.workStealing(), start, cancel);
    }

    /** Places a subquery's rows as a table that no other statement sees. */
    private FactTable loadTemporary(TableStaging staging) {
        PlacementTarget target = host.placementTarget();
        FactTable t = StagedTableLoader.load(
                staging,
                io.numacube.engine.storage.Partitioning.AUTO,
                1,
                target.placement(),
                target.layout(),
                target.morselRows(),
                target.memory(),
                target.pool());
        t.coded().markTemporary();
        return t;
    }
}
