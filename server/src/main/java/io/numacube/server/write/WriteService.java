package io.numacube.server.write;

import io.numacube.engine.Cube;
import io.numacube.engine.TableBatch;
import io.numacube.engine.TableDelete;
import io.numacube.engine.TableUpdate;
import io.numacube.engine.TableWrite;
import io.numacube.engine.WriteResult;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvStagingLoader;
import io.numacube.engine.schema.TableNames;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.query.ClientError;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes to the cube's tables for both front ends: reads each batch of rows into a staging with its table's columns (a
 * bad row rejects the whole write, naming its line and field), hands the write to the {@link BatchLog} (the write-ahead
 * log of a durable server: it returns once the write is on disk), then applies it to the cube as one atomic write
 * ({@link Cube#write}: appends, upserts on a keyed table, deletes), and only then answers. So an acknowledged write is
 * durable and visible to every query that starts after the answer; a rejected one changes nothing and is not logged.
 * A write holding a DELETE or UPDATE is tried on the cube first ({@link Cube#trial}, nothing published), so one that
 * fails (a WHERE naming an unknown column) is not logged either; only one that a write applied between its trial and
 * its turn makes fail is logged, and fails again, identically, when replayed, changing nothing either time. A DELETE
 * or UPDATE carries the clock it read when it was made ({@link Batch#clock}), which the log keeps with its text: its
 * trial, its apply and its replay at recovery read the same {@code now()}.
 *
 * <p>Thread-safe: any number of writers at once. Reading rows runs in parallel. Writes are queued to the log one at a
 * time, each getting its turn ({@link WriteTurns}) there; each then waits for its own fsync outside any lock, so writes
 * queued meanwhile share one (group commit), and is applied in its turn, so the cube applies the writes in the order
 * the log holds them (deletes and upserts do not commute). A write is applied only once it is durable: nothing is
 * visible that a crash could take back. A write also holds a gate from its log to its apply, which {@link #quiesced}
 * closes, so a checkpoint sees the cube holding exactly the writes the log holds up to some point. A write that was logged but then failed to be applied for a
 * reason that need not recur (out of memory, an I/O error, a bug) leaves the log ahead of the cube: every later write
 * and checkpoint is refused until a restart replays the log. (A DELETE failing on its WHERE fails again when replayed
 * and changes nothing either time: that leaves log and cube in step.)
 */
public final class WriteService {

    /** Where writes are made durable before they are applied. */
    @FunctionalInterface
    public interface BatchLog {
        /** Does nothing: the server keeps its data in memory only. */
        BatchLog NONE = batches -> {};

        /** Makes {@code batches} (one write) durable; returns only when they are. */
        void write(List<Batch> batches);

        /**
         * Queues {@code batches} (one write) to be made durable and returns at once; the log holds writes in the order
         * of these calls. The default writes them at once, so that they are durable already.
         */
        default Durable submit(List<Batch> batches) {
            write(batches);
            return Durable.ALREADY;
        }
    }

    /** A submitted write on its way to the disk. */
    @FunctionalInterface
    public interface Durable {
        /** Nothing to wait for. */
        Durable ALREADY = () -> {};

        /** Returns once the write is durable; throws when it may not be. */
        void await();
    }

    /**
     * Rows for one table, as the client sent them, or a DELETE or UPDATE statement with the clock it reads.
     *
     * @param table  the table's name (any case)
     * @param format how {@code body} is written
     * @param body   the rows
     * @param source what errors call it ({@code POST /v1/tables/trades/rows})
     * @param clock  a statement's: the wall clock its {@code now()}, {@code current_date} and their synonyms read,
     *     read once when the statement was made ({@link #delete}, {@link #update}), so that its trial in a block, its
     *     apply and its replay at recovery all see the same instant; null for rows, and for a statement logged without
     *     one (by a build before the log kept it), which reads the clock when it is applied
     */
    public record Batch(String table, BatchFormat format, byte[] body, String source, java.time.LocalDateTime clock) {

        /** A batch without a clock: rows, or a statement that reads the clock whenever it is applied. */
        public Batch(String table, BatchFormat format, byte[] body, String source) {
            this(table, format, body, source, null);
        }
    }

    /**
     * What one batch did.
     *
     * @param table   the table's name as the cube has it
     * @param rows    rows appended
     * @param version the table's version that holds them
     */
    public record Appended(String table, long rows, long version) {}

    private static final com.fasterxml.jackson.core.JsonFactory JSON = new com.fasterxml.jackson.core.JsonFactory();

    private final Cube cube;
    private final BatchLog log;
    private final io.numacube.server.query.ServerMetrics metrics;
    private final Object order = new Object();
    private final WriteTurns turns = new WriteTurns();
    private final WriteGate gate = new WriteGate();
    /** The writes applied to blocks' trials, over all blocks ({@link #trialApplications}). */
    private final java.util.concurrent.atomic.LongAdder trialApplications = new java.util.concurrent.atomic.LongAdder();
    /** The blocks whose trial was published at COMMIT ({@link #publishedTrials}). */
    private final java.util.concurrent.atomic.LongAdder publishedTrials = new java.util.concurrent.atomic.LongAdder();
    /** The blocks with a trial applied again at COMMIT ({@link #reappliedBlocks}). */
    private final java.util.concurrent.atomic.LongAdder reappliedBlocks = new java.util.concurrent.atomic.LongAdder();
    /** The turn the next write to be logged gets; guarded by {@link #order}. */
    private long nextTurn;

    public WriteService(Cube cube, BatchLog log) {
        this(cube, log, new io.numacube.server.query.ServerMetrics());
    }

    /** As {@link #WriteService(Cube, BatchLog)}, telling {@code metrics} of each write applied. */
    public WriteService(Cube cube, BatchLog log, io.numacube.server.query.ServerMetrics metrics) {
        this.metrics = java.util.Objects.requireNonNull(metrics, "metrics must not be null");
        this.cube = java.util.Objects.requireNonNull(cube, "cube must not be null");
        this.log = java.util.Objects.requireNonNull(log, "log must not be null");
    }

    public Cube cube() {
        return cube;
    }

    /** Appends one batch; see {@link #commit}. */
    public Appended append(Batch batch) {
        return commit(List.of(batch)).get(0);
    }

    /**
     * Appends {@code batches} as one atomic write (a transaction's), logged first; per batch, what it did. No batch is
     * no write: nothing is logged or applied.
     *
     * @throws io.numacube.numa.base.NumacubeException for an unknown table (42P01) or a bad row (naming the batch's
     *     source, line and field); nothing is logged or appended then
     */
    public List<Appended> commit(List<Batch> batches) {
        if (batches.isEmpty()) {
            // a transaction block without writes: nothing to log (a WAL record holds at least one batch) or apply
            return List.of();
        }
        List<TableWrite> staged = stage(batches);
        tryStatements(staged);
        return logged(batches, () -> apply(staged));
    }

    /**
     * As {@link #commit(List)} for a transaction block's writes, {@code trial} holding the block's trial: when the trial
     * is built on the cube as it is now, the writes it lacks (the INSERTs after the block's last UPDATE or DELETE) are
     * applied to it, the block is logged as by {@link #commit(List)}, and in its turn the trial's versions are published
     * as they are ({@link Cube#publishTrial}) instead of the writes being applied again, when no write was published
     * since the trial was built; else the writes are applied as by {@link #commit(List)}, after the writes published
     * meanwhile. Either way the cube ends as {@link #commit(List)} leaves it and the log holds the same record. With a
     * log, a block holding a DELETE or UPDATE whose trial is stale has it built again (the try before logging that
     * {@link #commit(List)} makes anyway), so that it may be published too. The trial is empty afterwards.
     *
     * @throws io.numacube.numa.base.NumacubeException as {@link #commit(List)}
     */
    public List<Appended> commit(BlockTrial trial, List<Batch> batches) {
        if (batches.isEmpty()) {
            return List.of();
        }
        boolean tried = trial.heldOf(batches) > 0;
        boolean current = tried && cube.isCurrent(trial.trial());
        List<TableWrite> staged = new ArrayList<>();
        for (Batch b : batches) {
            staged.add(trial.staged(b, this::stage));
        }
        if (!current && (log == BatchLog.NONE || staged.stream().allMatch(w -> w instanceof TableBatch))) {
            trial.reset();
            if (tried) {
                reappliedBlocks.increment();
            }
            return logged(batches, () -> apply(staged));
        }
        applyToTrial(trial, batches, staged);
        return logged(batches, () -> publishOrApply(trial, staged));
    }

    /**
     * Publishes {@code trial}, which holds {@code staged} applied, or applies {@code staged} when the cube moved on.
     * Either way the block's trial is reset: {@link Cube#publishTrial} empties the engine's trial only when it publishes
     * it, and never the batches the block's trial records as applied.
     */
    private List<Appended> publishOrApply(BlockTrial trial, List<TableWrite> staged) {
        java.util.Optional<List<WriteResult>> published = cube.publishTrial(trial.trial(), staged.size());
        trial.reset();
        if (published.isEmpty()) {
            reappliedBlocks.increment();
            return apply(staged);
        }
        publishedTrials.increment();
        return appended(staged, published.get());
    }

    /** How many blocks' COMMITs published their trial as it was ({@link #commit(BlockTrial, List)}), over all sessions. */
    public long publishedTrials() {
        return publishedTrials.sum();
    }

    /**
     * How many blocks' COMMITs with a trial applied their writes again instead ({@link #commit(BlockTrial, List)}):
     * another write was published after their trial was built, before their COMMIT or before their turn.
     */
    public long reappliedBlocks() {
        return reappliedBlocks.sum();
    }

    /** Logs {@code batches} (one write), then in its turn runs {@code apply}, the write's apply to the cube. */
    private List<Appended> logged(List<Batch> batches, java.util.function.Supplier<List<Appended>> apply) {
        return gate.write(() -> {
            Durable durable;
            long turn;
            synchronized (order) {
                durable = log.submit(batches);
                turn = nextTurn++;
            }
            try {
                durable.await();
            } catch (RuntimeException | Error e) {
                turns.pass(turn, () -> null);
                throw e;
            }
            return turns.pass(turn, () -> applyLogged(batches, apply));
        });
    }

    /**
     * Tries a write that holds a DELETE or UPDATE on the cube, publishing nothing, so that one that fails is refused
     * before it is logged (a write of rows only was checked when staged). Nothing to do without a log.
     */
    private void tryStatements(List<TableWrite> staged) {
        if (log != BatchLog.NONE && staged.stream().anyMatch(w -> !(w instanceof TableBatch))) {
            cube.trial(staged);
        }
    }

    /** Applies a write its log holds; a failure that need not recur when replayed puts the gate in doubt. */
    private List<Appended> applyLogged(List<Batch> batches, java.util.function.Supplier<List<Appended>> apply) {
        try {
            return apply.get();
        } catch (RuntimeException | Error e) {
            if (log != BatchLog.NONE && !failsAlikeWhenReplayed(e)) {
                gate.markInDoubt(batches.isEmpty() ? "" : batches.getFirst().table(), e);
            }
            throw e;
        }
    }

    /**
     * Whether {@code failure} of a logged write's apply recurs when the log is replayed and changes nothing either time:
     * the cube refusing the write for what it says (a DELETE's WHERE naming an unknown column), not for a lack of
     * memory, an I/O error or a bug.
     */
    public static boolean failsAlikeWhenReplayed(Throwable failure) {
        return failure instanceof io.numacube.numa.base.NumacubeException e
                && (e.kind() == io.numacube.numa.base.NumacubeException.Kind.SYNTAX
                        || e.kind() == io.numacube.numa.base.NumacubeException.Kind.BIND
                        || e.kind() == io.numacube.numa.base.NumacubeException.Kind.INVALID_INPUT);
    }

    /**
     * Runs {@code action} while no write is between its log and its apply: every write the log holds is in the cube,
     * and no write the cube holds is missing from the log. A checkpoint captures its snapshot and the log's position
     * here. Writers wait while the action runs, so it must be quick (take a snapshot, read an LSN; no I/O).
     *
     * @throws io.numacube.numa.base.NumacubeException 58000 once a logged write failed to be applied for a reason that
     *     need not recur (the log then holds a write the cube lacks; a restart replays it)
     */
    public <T> T quiesced(java.util.function.Supplier<T> action) {
        return gate.quiesced(action);
    }

    /**
     * Refuses later writes (57P01, the server is shutting down) and waits up to {@code wait} for those in flight to be
     * logged and applied; true when none is left. Idempotent.
     */
    public boolean stop(java.time.Duration wait) {
        return gate.stop(wait);
    }

    /**
     * Reads {@code batch} as {@link #commit} would, without applying it: a transaction block's INSERT is refused when
     * it is made, not at COMMIT. Returns its rows (0 for a DELETE or UPDATE, which is checked when applied).
     */
    public int check(Batch batch) {
        return stage(List.of(batch)).getFirst() instanceof TableBatch b
                ? b.rows().rows()
                : 0;
    }

    /**
     * The rows the last of {@code batches} would write were they committed as one write now, found by applying them
     * to the cube without publishing anything ({@link io.numacube.engine.Cube#trial}): a transaction block's DELETE or
     * UPDATE answers its true count, and its error, when it is issued, as PostgreSQL's does. Nothing is logged or
     * changed.
     *
     * @throws io.numacube.numa.base.NumacubeException as {@link #commit}
     */
    public long trialRows(List<Batch> batches) {
        try (BlockTrial trial = openTrial()) {
            return trialRows(trial, batches);
        }
    }

    /** An empty trial for a transaction block's writes ({@link #trialRows(BlockTrial, List)}); close it at its end. */
    public BlockTrial openTrial() {
        return new BlockTrial(cube.openTrial());
    }

    /**
     * As {@link #trialRows(List)}, applying onto {@code trial} only the batches of {@code batches} it does not hold yet
     * (those after the leading ones it applied before; a block's next statement is its only new one), so that a block
     * of n statements costs n applications, not n²/2. The trial is built again from the first batch when another
     * session's write was published since it was built, so the count is the one a COMMIT now would give, as before.
     *
     * @throws io.numacube.numa.base.NumacubeException as {@link #commit}; the trial then holds nothing
     */
    public long trialRows(BlockTrial trial, List<Batch> batches) {
        trial.heldOf(batches);
        List<TableWrite> block = new java.util.AbstractList<>() {
            @Override
            public TableWrite get(int i) {
                return trial.staged(batches.get(i), WriteService.this::stage);
            }

            @Override
            public int size() {
                return batches.size();
            }
        };
        return applyToTrial(trial, batches, block).getLast().rows();
    }

    /** Applies to {@code trial} the writes of {@code block} (the staged {@code batches}) it does not hold yet. */
    private List<WriteResult> applyToTrial(BlockTrial trial, List<Batch> batches, List<TableWrite> block) {
        long before = trial.applications();
        try {
            return cube.trial(trial.trial(), block);
        } finally {
            trialApplications.add(trial.applications() - before);
            trial.holds(batches);
        }
    }

    /**
     * How many writes the transaction blocks' trials ({@link #trialRows(BlockTrial, List)}) applied so far, over all
     * sessions: what their statements cost before COMMIT, countable without timing them (a block of n UPDATEs that no
     * other write interrupts: n).
     */
    public long trialApplications() {
        return trialApplications.sum();
    }

    /** Applies a write read back from the log (recovery): as {@link #commit}, without logging it again. */
    public List<Appended> replay(List<Batch> batches) {
        List<TableWrite> staged = new ArrayList<>();
        for (TableWrite w : stage(batches)) {
            staged.add(w instanceof TableUpdate u ? new TableUpdate(u.sql(), u.clock(), true) : w);
        }
        synchronized (order) {
            return apply(staged);
        }
    }

    /**
     * {@code batches} read as the engine's writes, applying nothing: what a transaction block's query reads the cube
     * after ({@link io.numacube.engine.Cube#queryAfter}).
     *
     * @throws io.numacube.numa.base.NumacubeException as {@link #commit} for a batch that does not read
     */
    public List<TableWrite> staged(List<Batch> batches) {
        return stage(batches);
    }

    private List<TableWrite> stage(List<Batch> batches) {
        List<TableWrite> staged = new ArrayList<>();
        for (Batch b : batches) {
            staged.add(stage(b));
        }
        return staged;
    }

    private TableWrite stage(Batch b) {
        return switch (b.format()) {
            case DELETE -> b.clock() == null ? new TableDelete(text(b)) : new TableDelete(text(b), b.clock());
            case UPDATE -> b.clock() == null ? new TableUpdate(text(b)) : new TableUpdate(text(b), b.clock());
            case CSV -> owned(new TableBatch(b.table(), readCsv(b)));
            case JSON_LINES -> owned(new TableBatch(b.table(), read(b, cube.schema(b.table()), cube.workers())));
        };
    }

    private static String text(Batch statement) {
        return new String(statement.body(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The batch, when this cube holds every row or its rows are all this shard's ({@link io.numacube.engine.Shard}). */
    private TableBatch owned(TableBatch batch) {
        cube.shard().ifPresent(s -> s.checkOwns(batch.rows()));
        return batch;
    }

    private List<Appended> apply(List<TableWrite> staged) {
        if (staged.isEmpty()) {
            return List.of();
        }
        return appended(staged, cube.write(staged));
    }

    /** What each of {@code staged} did, by the cube's {@code results} of applying them; told to the metrics. */
    private List<Appended> appended(List<TableWrite> staged, List<WriteResult> results) {
        List<Appended> out = new ArrayList<>();
        long[] rows = new long[3];
        for (int i = 0; i < results.size(); i++) {
            WriteResult r = results.get(i);
            out.add(new Appended(r.table(), r.rows(), r.version()));
            int kind = switch (staged.get(i)) {
                case TableBatch b -> 0;
                case TableDelete d -> 1;
                case TableUpdate u -> 2;
            };
            rows[kind] += r.rows();
        }
        metrics.write(rows[0], rows[1], rows[2]);
        return out;
    }

    /**
     * A DELETE statement as a write, reading the clock as it is now ({@link TableWrite#clockNow}): logged as its text
     * and that clock, applied by the cube.
     */
    public static Batch delete(String sql) {
        return delete(sql, TableWrite.clockNow());
    }

    /** A DELETE statement as a write whose clock functions read {@code clock}. */
    public static Batch delete(String sql, java.time.LocalDateTime clock) {
        return statement(BatchFormat.DELETE, DELETE_TABLE, sql, clock);
    }

    /**
     * An UPDATE statement as a write, reading the clock as it is now ({@link TableWrite#clockNow}): logged as its
     * text and that clock, applied by the cube.
     */
    public static Batch update(String sql) {
        return update(sql, TableWrite.clockNow());
    }

    /** An UPDATE statement as a write whose clock functions read {@code clock}. */
    public static Batch update(String sql, java.time.LocalDateTime clock) {
        return statement(BatchFormat.UPDATE, UPDATE_TABLE, sql, clock);
    }

    private static Batch statement(
            BatchFormat format, java.util.regex.Pattern table, String sql, java.time.LocalDateTime clock) {
        java.util.Objects.requireNonNull(clock, "clock must not be null");
        java.util.regex.Matcher m = table.matcher(io.numacube.server.query.SqlLexer.normalize(sql));
        String name = m.find()
                ? TableNames.resolve(List.of(m.group(1).replace("\"", "").split("\\s*\\.\\s*")))
                : "";
        return new Batch(
                name,
                format,
                sql.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                format.name(),
                clock.truncatedTo(java.time.temporal.ChronoUnit.MICROS));
    }

    private static final String TABLE_NAME = "((?:\"[^\"]+\"|[\\w$]+)(?:\\s*\\.\\s*(?:\"[^\"]+\"|[\\w$]+)){0,2})";
    private static final java.util.regex.Pattern DELETE_TABLE =
            java.util.regex.Pattern.compile("(?i)^DELETE\\s+FROM\\s+" + TABLE_NAME);
    private static final java.util.regex.Pattern UPDATE_TABLE =
            java.util.regex.Pattern.compile("(?i)^UPDATE\\s+" + TABLE_NAME);

    /**
     * The rows of an INSERT as a batch of its table, checked against the table's columns.
     *
     * @throws io.numacube.numa.base.NumacubeException 42P01 for an unknown table, 42703 for an unknown column, 42601
     *     for a row with another number of values than columns
     */
    public Batch batch(InsertStatement insert) {
        TableSchema schema = cube.schema(insert.table());
        List<String> names = insert.columns().isEmpty() ? leadingColumns(insert) : insert.columns();
        java.util.Set<Integer> named = new java.util.HashSet<>();
        for (String c : names) {
            if (schema.indexOf(c) < 0) {
                throw ClientError.of(
                                "42703",
                                "column \"" + c + "\" of relation \"" + schema.name()
                                        + "\" does not exist — its columns are "
                                        + String.join(", ", columnNames(insert.table())))
                        .toException();
            }
            if (!named.add(schema.indexOf(c))) {
                throw ClientError.of("42701", "column \"" + c + "\" specified more than once")
                        .toException();
            }
        }
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        int line = 0;
        for (List<String> row : insert.rows()) {
            line++;
            if (row.size() != names.size()) {
                throw ClientError.of(
                                "42601",
                                "INSERT has " + (row.size() > names.size() ? "more" : "fewer")
                                        + " expressions than target columns: row " + line + " has " + row.size()
                                        + " values for " + names.size() + " columns")
                        .toException();
            }
            List<String> sources = insert.sources().get(line - 1);
            List<String> values = new ArrayList<>(row);
            for (int i = 0; i < names.size(); i++) {
                io.numacube.engine.schema.ColumnSpec column = schema.columns().get(schema.indexOf(names.get(i)));
                values.set(i, AssignmentCast.assigned(sources.get(i), row.get(i), column));
                LiteralSource.check(sources.get(i), values.get(i), column);
            }
            jsonLine(names, values, body);
        }
        return new Batch(insert.table(), BatchFormat.JSON_LINES, body.toByteArray(), "INSERT INTO " + insert.table());
    }

    /**
     * The columns an INSERT without a column list fills, as PostgreSQL takes them: the table's first n, n the length of
     * its VALUES rows (the others are NULL, their default).
     *
     * @throws io.numacube.numa.base.NumacubeException 42601 for VALUES rows of different lengths
     */
    private List<String> leadingColumns(InsertStatement insert) {
        List<String> all = columnNames(insert.table());
        int width = insert.rows().getFirst().size();
        for (List<String> row : insert.rows()) {
            if (row.size() != width) {
                throw ClientError.of(
                                "42601",
                                "VALUES lists must all be the same length: " + row.size() + " and " + width + " values")
                        .toException();
            }
        }
        return width < all.size() ? all.subList(0, width) : all;
    }

    private static void jsonLine(List<String> names, List<String> values, java.io.ByteArrayOutputStream out) {
        try (com.fasterxml.jackson.core.JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            for (int i = 0; i < names.size(); i++) {
                g.writeStringField(names.get(i), values.get(i));
            }
            g.writeEndObject();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        out.write('\n');
    }

    /** The names of {@code table}'s columns, in order. */
    public List<String> columnNames(String table) {
        return cube.schema(table).columns().stream()
                .map(io.numacube.engine.schema.ColumnSpec::name)
                .toList();
    }

    /**
     * The rows of CSV batch {@code b}, its text values coded against the table's dictionaries where they hold them
     * (so that the write maps them to themselves, and only new values are coded anew); read in part on the cube's
     * workers when large. A value the table gains meanwhile, or a table replaced meanwhile, costs only that mapping.
     */
    private TableStaging readCsv(Batch b) {
        return new CsvStagingLoader(CsvOptions.DEFAULT.withPostgresBooleans(), cube.workers())
                .stage(b.body(), b.source(), cube.appendStaging(b.table()))
                .staging();
    }

    /** The rows of {@code b} as a staging of {@code schema}'s columns; a large CSV batch read in part on {@code workers}. */
    static TableStaging read(Batch b, TableSchema schema, io.numacube.engine.workers.WorkerPool workers) {
        return switch (b.format()) {
            case DELETE, UPDATE -> throw new IllegalArgumentException("a " + b.format() + " has no rows");
            case CSV ->
                new CsvStagingLoader(CsvOptions.DEFAULT.withPostgresBooleans(), workers)
                        .stage(b.body(), b.source(), schema)
                        .staging();
            case JSON_LINES -> new JsonLinesReader(schema, b.source()).read(b.body());
        };
    }
}
