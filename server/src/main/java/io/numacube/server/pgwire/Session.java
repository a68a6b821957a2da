package io.numacube.server.pgwire;

import io.numacube.server.auth.Identity;
import io.numacube.server.pgwire.types.PgType;
import io.numacube.server.query.ParameterizedSql;
import java.util.HashMap;
import java.util.Map;

/**
 * One connection's state: who connected, its settings, its transaction status (PostgreSQL's ReadyForQuery byte:
 * {@code I} idle, {@code T} in a transaction block, {@code E} in a failed one), and its prepared statements and
 * portals by name (the empty name is the unnamed one; SQL cursors are portals too, as in PostgreSQL). Portals live
 * until their transaction ends, as in PostgreSQL: at Sync outside a transaction block, at COMMIT or ROLLBACK within
 * one, a ROLLBACK TO a savepoint made before them, or a Close; a cursor declared WITH HOLD outlives the COMMIT of its
 * transaction (not its ROLLBACK) and then lives until it is closed. At most {@link #MAX_PORTALS} are open at once, for
 * each holds its whole answer. The writes of a block live until it ends too: COMMIT applies them (all or none) and
 * ROLLBACK drops them. Not thread-safe: the connection's thread
 * owns it.
 */
final class Session {

    static final char IDLE = 'I';
    static final char IN_BLOCK = 'T';
    static final char FAILED_BLOCK = 'E';

    /** The system property naming the rows a session's cursors may hold together ({@link #checkHeldRows}). */
    static final String MAX_HELD_ROWS_PROPERTY = "numacube.pg.maxCursorRows";

    /** How many portals (cursors included) a session may hold at once: each keeps its whole answer in memory. */
    static final int MAX_PORTALS = 256;

    final String user;
    /** Who the session acts as: the authenticated user and role, or the startup user as a writer without users. */
    final Identity identity;

    final String database;
    final int processId;
    final SessionSettings settings;
    final Map<String, PreparedStatement> statements = new HashMap<>();
    final Map<String, Portal> portals = new HashMap<>();
    /** The writes of the transaction block under way, applied at COMMIT as one atomic write. */
    final java.util.List<io.numacube.server.write.WriteService.Batch> pendingWrites = new java.util.ArrayList<>();

    /**
     * The block's savepoints, oldest first: each one's name and how many of {@link #pendingWrites} it keeps on a
     * ROLLBACK TO it.
     */
    private final java.util.List<Map.Entry<String, Integer>> savepoints = new java.util.ArrayList<>();

    /** The settings at each of {@link #savepoints} (the same positions), for ROLLBACK TO. */
    private final java.util.List<SessionSettings.Mark> settingsAtSavepoints = new java.util.ArrayList<>();

    /**
     * The cube as {@link #pendingWrites} leave it, kept between the block's statements so that each UPDATE or DELETE is
     * tried on top of the ones before it; null until the block's first one, freed at the block's end.
     */
    private io.numacube.server.write.BlockTrial trial;

    private char status = IDLE;
    private boolean implicitBlock;
    /** Whether the transaction under way ran a query ({@link #queried}). */
    private boolean queried;
    /** Whether a simple query of several statements is under way: PostgreSQL's implicit transaction block. */
    private boolean queryOfSeveral;
    /** When the client's last Query, Parse, Bind or Execute message arrived: PostgreSQL's statement timestamp. */
    private java.time.Instant statementStart = TransactionClock.now();
    /** When the transaction under way began, as its clock functions read it; null outside one. */
    private java.time.Instant transactionStart;

    Session(Identity identity, String database, int processId, SessionSettings settings) {
        this.user = identity.user();
        this.identity = identity;
        this.database = database;
        this.processId = processId;
        this.settings = settings;
    }

    char status() {
        return status;
    }

    void begin() {
        transactionStarts();
        status = IN_BLOCK;
        settings.blockBegins();
    }

    /**
     * A Query, Parse, Bind or Execute message arrived: PostgreSQL sets its statement timestamp then, and a transaction
     * that begins with the message (the first of a simple query's or an extended-protocol batch's, or a lone
     * statement's) starts at that instant.
     */
    void messageArrived() {
        statementStart = TransactionClock.now();
        transactionStarts();
    }

    private void transactionStarts() {
        if (transactionStart == null) {
            transactionStart = statementStart;
        }
    }

    /**
     * What the clock functions ({@code now()}, {@code current_timestamp}, {@code current_date}, their synonyms) of the
     * session's statement read: the start of its transaction, explicit or implicit, the same for each of its
     * statements, as PostgreSQL's transaction timestamp; a transaction that a COMMIT inside a simple query ended is
     * followed by one that starts when the query arrived, as PostgreSQL's does. It is the wall clock of the session's
     * {@code TimeZone}.
     *
     * @throws PgProtocolException 0A000 when the session's TimeZone is not a zone numacube knows
     */
    java.time.LocalDateTime clock() {
        return zonedClock().toLocalDateTime();
    }

    /**
     * {@link #clock} as PostgreSQL's {@code now()} is sent: the transaction's start with the offset of the session's
     * TimeZone then.
     *
     * @throws PgProtocolException 0A000 when the session's TimeZone is not a zone numacube knows
     */
    java.time.OffsetDateTime zonedClock() {
        transactionStarts();
        return TransactionClock.zoned(transactionStart, settings.get("TimeZone"));
    }

    /**
     * PostgreSQL's {@code statement_timestamp()}: when the client's latest Query, Parse, Bind or Execute message
     * arrived (for a statement of the extended protocol, its Execute; for each statement of a simple query, the
     * Query), with the offset of the session's TimeZone then.
     *
     * @throws PgProtocolException 0A000 when the session's TimeZone is not one numacube reads
     */
    java.time.OffsetDateTime statementClock() {
        return TransactionClock.zoned(statementStart, settings.get("TimeZone"));
    }

    /**
     * Sets the transaction under way read-only or read-write ({@code BEGIN READ ONLY}, {@code SET TRANSACTION READ
     * WRITE}, {@code SET transaction_read_only}), until it ends.
     *
     * @throws PgProtocolException 25001 for read-write in a read-only transaction that already ran a query, as
     *     PostgreSQL refuses it
     */
    void transactionReadOnly(boolean readOnly) {
        if (!readOnly && settings.transactionReadOnly() && queried) {
            throw new PgProtocolException("25001", "transaction read-write mode must be set before any query");
        }
        settings.setLocal(SessionSettings.TRANSACTION_READ_ONLY, readOnly ? "on" : "off");
    }

    /** The transaction under way ran a query or set a savepoint: its read-only mode may no longer be lifted. */
    void queried() {
        queried = true;
    }

    /**
     * Refuses a write in a read-only transaction, as PostgreSQL does.
     *
     * @param command what the write is ({@code INSERT}, {@code UPDATE}, {@code DELETE}, {@code COPY FROM})
     * @throws PgProtocolException 25006 when the transaction is read-only
     */
    void checkWritable(String command) {
        if (settings.transactionReadOnly()) {
            throw new PgProtocolException("25006", "cannot execute " + command + " in a read-only transaction");
        }
    }

    /** ROLLBACK (a failed COMMIT too): portals close, the transaction's SETs are undone. */
    void endTransaction() {
        endTransaction(false);
    }

    /** The end of the transaction, {@code committed} or not ({@link SessionSettings#transactionEnds}); portals close. */
    void endTransaction(boolean committed) {
        settings.transactionEnds(committed);
        queried = false;
        settingsAtSavepoints.clear();
        transactionStart = null;
        status = IDLE;
        portals.values().removeIf(p -> !p.holdable || !(committed || p.heldOver));
        portals.values().forEach(p -> p.heldOver = true);
        pendingWrites.clear();
        savepoints.clear();
        closeTrial();
    }

    /** The block's trial of its writes, opened by {@code open} at its first use. */
    io.numacube.server.write.BlockTrial trial(java.util.function.Supplier<io.numacube.server.write.BlockTrial> open) {
        if (trial == null) {
            trial = open.get();
        }
        return trial;
    }

    /** Frees the block's trial (at its end, or the connection's). */
    void closeTrial() {
        if (trial != null) {
            trial.close();
            trial = null;
        }
    }

    /**
     * Opens {@code portal} under its name (a Bind to the unnamed portal replaces it), marking it with the block's
     * savepoints so far.
     *
     * @throws PgProtocolException 54000 when {@link #MAX_PORTALS} are open
     */
    void open(Portal portal) {
        if (!portals.containsKey(portal.name) && portals.size() >= MAX_PORTALS) {
            throw new PgProtocolException(
                    "54000",
                    "too many open portals and cursors: open=" + portals.size() + " limit=" + MAX_PORTALS
                            + " (each holds its whole answer) — CLOSE the cursors, or Close the portals, no longer read");
        }
        portal.savepointDepth = savepoints.size();
        portals.put(portal.name, portal);
    }

    /**
     * Refuses a new cursor of {@code rows} rows where the session's open cursors and portals would hold more rows
     * together than {@link #MAX_HELD_ROWS_PROPERTY} says (20 million unless set) (each keeps its whole answer in memory, a WITH HOLD one past its commit).
     *
     * @throws PgProtocolException 54000 naming the rows held and the limit
     */
    void checkHeldRows(long rows) {
        long limit = Long.getLong(MAX_HELD_ROWS_PROPERTY, 20_000_000L);
        long held = 0;
        for (Portal p : portals.values()) {
            if (p.outcome != null && p.outcome.rows() != null) {
                held += p.outcome.rows().rowCount();
            }
        }
        if (held + rows > limit) {
            throw new PgProtocolException(
                    "54000",
                    "the session's cursors would hold too many rows: held=" + held + " new=" + rows + " limit=" + limit
                            + " (each cursor keeps its whole answer) — CLOSE the cursors no longer"
                            + " read, or narrow the query");
        }
    }

    /** {@code SAVEPOINT name} in a block: marks the block's writes so far (a name used again is the newer mark). */
    void savepoint(String name) {
        queried = true;
        savepoints.add(Map.entry(name, pendingWrites.size()));
        settingsAtSavepoints.add(settings.mark());
    }

    /**
     * {@code RELEASE name}: forgets the newest savepoint of that name and those after it, keeping their writes.
     *
     * @return false when no savepoint has the name
     */
    boolean release(String name) {
        int at = newest(name);
        if (at < 0) {
            return false;
        }
        savepoints.subList(at, savepoints.size()).clear();
        settingsAtSavepoints.subList(at, settingsAtSavepoints.size()).clear();
        // a cursor opened under a released savepoint now belongs to the savepoint (or block) around it
        portals.values().forEach(p -> p.savepointDepth = Math.min(p.savepointDepth, at));
        return true;
    }

    /**
     * {@code ROLLBACK TO name}: drops the block's writes since the newest savepoint of that name and the savepoints
     * after it (it stays), and a failed block is usable again, as in PostgreSQL.
     *
     * @return false when no savepoint has the name
     */
    boolean rollbackTo(String name) {
        int at = newest(name);
        if (at < 0) {
            return false;
        }
        int kept = savepoints.get(at).getValue();
        portals.values().removeIf(p -> !p.heldOver && p.savepointDepth > at);
        pendingWrites.subList(kept, pendingWrites.size()).clear();
        savepoints.subList(at + 1, savepoints.size()).clear();
        settings.restore(settingsAtSavepoints.get(at));
        settingsAtSavepoints.subList(at + 1, settingsAtSavepoints.size()).clear();
        status = IN_BLOCK;
        return true;
    }

    private int newest(String name) {
        for (int i = savepoints.size() - 1; i >= 0; i--) {
            if (savepoints.get(i).getKey().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * An error inside a transaction block fails the block until it ends (its writes are kept for a ROLLBACK TO, also
     * when the error is a refusal in the failed block); one outside an explicit block rolls the implicit transaction
     * back at once, as PostgreSQL does: the writes of an implicit block are dropped and its SETs undone (a simple
     * query's {@code SET TimeZone = 'X'; SELECT 1/0}, or a batch's before Sync).
     */
    void fail() {
        if (status == IN_BLOCK) {
            status = FAILED_BLOCK;
            return;
        }
        if (status == IDLE) {
            settings.transactionEnds(false);
            portals.values().removeIf(p -> !p.heldOver);
        }
        if (inImplicitBlock()) {
            pendingWrites.clear();
            closeTrial();
        }
    }

    /**
     * Starts (or stays in) an implicit transaction block, PostgreSQL's for a simple query of several statements and
     * for the extended-protocol messages up to a Sync: outside an explicit block its writes are kept, read by its
     * later statements, and applied as one write when it ends without an error ({@link #pendingWrites}), so an error
     * in a later statement leaves none of them applied. A BEGIN inside it makes its writes so far the explicit
     * block's, a COMMIT applies them and a ROLLBACK drops them, as in PostgreSQL. Its INSERTs, COPYs, UPDATEs and
     * DELETEs are all kept, as an explicit block's: each UPDATE or DELETE is tried on the block's {@link #trial} of the
     * writes before it, so a batch of n of them costs n applications before the write that applies them.
     */
    void beginImplicit() {
        implicitBlock = true;
    }

    /** The implicit block is over (its writes, if any, applied or dropped by the caller). */
    void endImplicit() {
        implicitBlock = false;
    }

    /**
     * A simple query of several statements begins ({@code true}) or ends: PostgreSQL runs them in an implicit
     * transaction block, where {@code SET LOCAL} lasts until the query ends without a warning.
     */
    void queryOfSeveral(boolean several) {
        queryOfSeveral = several;
    }

    /**
     * Whether {@code SET LOCAL} is in a transaction block as PostgreSQL sees it: an explicit one, or a simple query of
     * several statements; elsewhere (alone, or in a batch before Sync) it warns, and lasts until its transaction ends.
     */
    boolean inTransactionBlock() {
        return status != IDLE || queryOfSeveral;
    }

    /** Whether an implicit block is under way outside an explicit one. */
    boolean inImplicitBlock() {
        return implicitBlock && status == IDLE;
    }

    /** Whether a write (INSERT, COPY, UPDATE, DELETE) is kept for the end of its block rather than applied at once. */
    boolean stagesWrites() {
        return status == IN_BLOCK || inImplicitBlock();
    }

    /**
     * A statement parsed by a Parse message: its text, the parameter types the client declared (0: unknown), the
     * query string it came from with its offset there, for error positions, and the result types last described to
     * the client for it.
     */
    record PreparedStatement(
            String name,
            ParameterizedSql sql,
            int[] parameterOids,
            String query,
            int offset,
            DescribedResult described) {

        /**
         * Fixes the types of the parameters the client left unspecified to {@code resolved}'s (those still {@link
         * PgType#UNSPECIFIED} there stay so): a Describe of the statement tells the client these types, and later
         * Binds decode the values by them, as PostgreSQL fixes an unknown parameter's type once, at Parse.
         */
        void resolve(int[] resolved) {
            for (int i = 0; i < parameterOids.length; i++) {
                if (parameterOids[i] == PgType.UNSPECIFIED) {
                    parameterOids[i] = resolved[i];
                }
            }
        }

        /** The declared OID of each parameter, {@code text} where the client left it to the server. */
        int[] describedOids() {
            int[] out = new int[parameterOids.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = parameterOids[i] == PgType.UNSPECIFIED ? PgType.TEXT.oid() : parameterOids[i];
            }
            return out;
        }

        SqlOrigin origin(ParameterizedSql.Substituted bound) {
            return new SqlOrigin(query, offset, bound);
        }
    }

    /**
     * The result column types (OID and type modifier) a statement's last RowDescription told the client, by a Describe of the
     * statement or of one of its portals; null before any. A client may keep them and decode the rows of later
     * Executes of the statement with them, without describing again (pgjdbc does, once it prepared a statement on the
     * server, and rounds a numeric to the scale of the modifier it kept), so an Execute whose rows have other types
     * must fail rather than send them. Not thread-safe.
     */
    static final class DescribedResult {
        private java.util.List<String> types;

        /** The types last described, {@code oid(typmod)} per column; null before any Describe. */
        java.util.List<String> types() {
            return types;
        }

        void describedAs(java.util.List<io.numacube.server.pgwire.types.PgColumn> columns) {
            types = typesOf(columns);
        }

        /**
         * Whether rows of types {@code now} ({@link #typesOf}) may go to a client told {@link #types}: the same
         * types, where a numeric told without a modifier takes a numeric of any.
         */
        boolean admits(java.util.List<String> now) {
            if (types.size() != now.size()) {
                return false;
            }
            for (int i = 0; i < now.size(); i++) {
                String told = types.get(i);
                boolean anyNumeric = told.equals(UNCONSTRAINED_NUMERIC)
                        && now.get(i).startsWith(io.numacube.server.pgwire.types.PgType.NUMERIC.oid() + "(");
                if (!anyNumeric && !told.equals(now.get(i))) {
                    return false;
                }
            }
            return true;
        }

        private static final String UNCONSTRAINED_NUMERIC =
                io.numacube.server.pgwire.types.PgType.NUMERIC.oid() + "(-1)";

        static java.util.List<String> typesOf(java.util.List<io.numacube.server.pgwire.types.PgColumn> columns) {
            return columns.stream()
                    .map(c -> c.type().oid() + "(" + c.typmod() + ")")
                    .toList();
        }
    }

    /**
     * A bound statement: its text with the parameters in place, the statement it binds, the result formats the client
     * asked for, whether a Describe of it told the client its result's types, and once run its outcome and how many
     * rows were sent (Execute with a row limit sends the rest later; FETCH and MOVE go on from there too), or, for a
     * statement without rows, whether its completion was sent (it runs once: a second Execute is refused, as
     * PostgreSQL refuses it). A cursor (DECLARE) is a portal whose outcome is its query's, run at its declaration.
     */
    static final class Portal {
        final String name;
        final ParameterizedSql.Substituted sql;
        final SqlOrigin origin;
        final short[] resultFormats;
        final DescribedResult statementResult;
        boolean described;
        Outcome outcome;
        int rowsSent;
        boolean commandSent;
        /** Declared WITH HOLD: it outlives the COMMIT of its transaction. */
        boolean holdable;
        /** Declared NO SCROLL: a backward FETCH or MOVE is PostgreSQL's 55000 rather than numacube's 0A000. */
        boolean noScroll;
        /** Open when a transaction committed: it belongs to none, and a later ROLLBACK leaves it. */
        boolean heldOver;
        /** How many savepoints its block had when it was opened: a ROLLBACK TO an earlier one closes it. */
        int savepointDepth;

        Portal(
                String name,
                ParameterizedSql.Substituted sql,
                SqlOrigin origin,
                short[] resultFormats,
                DescribedResult statementResult) {
            this.name = name;
            this.sql = sql;
            this.origin = origin;
            this.resultFormats = resultFormats;
            this.statementResult = statementResult;
        }

        /** One format code per column: none given is text, one applies to all, else one each. */
        short[] formats(int columns) {
            short[] out = new short[columns];
            if (resultFormats.length == 1) {
                java.util.Arrays.fill(out, resultFormats[0]);
            } else if (resultFormats.length == columns) {
                System.arraycopy(resultFormats, 0, out, 0, columns);
            } else if (resultFormats.length != 0) {
                throw new PgProtocolException(
                        io.numacube.server.query.ClientError.PROTOCOL_VIOLATION,
                        "bind message has " + resultFormats.length + " result formats but query has " + columns
                                + " columns");
            }
            return out;
        }
    }
}
