package io.numacube.engine;

import io.numacube.engine.gen.TradesGenerator;
import io.numacube.engine.ingest.StagedTableLoader;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.TradesLoader;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.result.Cancellation;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.SqlBinder;
import io.numacube.engine.storage.ArenaColumnMemory;
import io.numacube.engine.storage.ColumnMemory;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.NumaColumnMemory;
import io.numacube.engine.storage.Partitioning;
import io.numacube.engine.storage.Placement;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.engine.storage.TableBuilder;
import io.numacube.engine.workers.NumaWorkerPool;
import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.MachineReading;
import io.numacube.numa.NumaRuntime;
import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.topology.SystemRoot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * An in-memory cube: named tables stored columnar and off-heap in partitions placed on NUMA nodes, queried with SQL
 * aggregation queries executed morsel by morsel by pinned per-node workers.
 *
 * <p>Life cycle: {@link #open} starts the workers and opens placed memory; {@link #loadTable} and
 * {@link #generateTrades} add or replace tables; {@link #query} runs SQL; {@link #close()} waits for running queries,
 * frees every byte of native memory and stops the workers. After close every method but close throws.
 *
 * <p>Loads and appends are atomic: a new table, or a table's next version with the appended rows ({@link #append}),
 * is built in new partitions and published only when complete, so a failed write (bad data, out of memory) leaves the
 * previous version queryable. Each query reads one version of every table from start to end (a snapshot, {@link
 * CubeTables}); writers publish new versions without waiting for queries, and a superseded version is freed when the
 * last query reading it is done. {@link #close()} waits for running queries.
 *
 * <p>Thread-safe: several threads may query at once (each gets the answer it would get alone) and load while others
 * query. Do not call it from one of its own workers.
 */
public final class Cube implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Cube.class.getName());

    /** The joins and chains prepared so far, built again in the background after a write to one of their tables. */
    private final PreparedJoins prepared = new PreparedJoins(this::query);
    /** Prepares joins and chains ahead of their first queries ({@link #prepareJoin}, {@link #prepareJoinChains}). */
    private final JoinPreparation joinPreparation =
            new JoinPreparation(prepared, this::query, this::schema, this::tableBytes);

    private final CubeOptions options;
    private final WorkerPool pool;
    private final ColumnMemory memory;
    /** The data nodes and their fillers; replaced when the cube follows a change of the machine. */
    private volatile TableBuilder.NodeLayout layout;

    private final String status;
    /** The NUMA runtime the cube was opened with; null for a simulated cube. */
    private final NumaRuntime runtime;
    /** Moves partitions between nodes by copy and swap (following the machine, the bench's migration). */
    private final PartitionMoves moves;
    /** Follows changes of the machine once {@link #followMachine} was called. */
    private final MachineFollower follower;

    private final CubeTables tables = new CubeTables();
    /** Queries hold it shared, {@link #close()} exclusively: close waits for running queries. */
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock(true);
    /**
     * Serialises writers (loads, appends, relocations; not queries), so a relocation never undoes a concurrent load and
     * each table's versions follow one another.
     */
    private final java.util.concurrent.locks.ReentrantLock loadLock = new java.util.concurrent.locks.ReentrantLock();
    /** Queries, and the binding of every statement over a snapshot of the tables. */
    private final CubeQueries queries;
    /** Appends, upserts, deletes, updates and their trials, and the publishing of whole tables. */
    private final CubeWrites writePath = new CubeWrites(tables, loadLock, prepared, new WriteHost());

    /** The shard whose rows this cube holds ({@link #keepShard}, {@link #loadShard}). */
    private final CubeShard shard = new CubeShard();

    private volatile boolean workStealing;
    private volatile Placement currentPlacement;
    private volatile boolean closed;

    private Cube(
            CubeOptions options,
            WorkerPool pool,
            ColumnMemory memory,
            TableBuilder.NodeLayout layout,
            String status,
            NumaRuntime runtime) {
        this.runtime = runtime;
        this.options = options;
        this.pool = pool;
        this.memory = memory;
        this.layout = layout;
        this.status = status;
        this.workStealing = options.workStealing();
        this.currentPlacement = options.placement();
        this.queries = new CubeQueries(tables, lock, new BoundStatements(), pool, new QueryHost());
        this.moves = new PartitionMoves(tables, loadLock, memory, options.simulatedNodes() <= 0, this::checkOpen);
        this.follower = new MachineFollower(
                runtime, pool, options.simulatedNodes(), moves, () -> this.layout, this::layOut, this::checkOpen);
        Thread.ofVirtual().name("numacube-sql-warmup").start(SqlBinder::warmUp);
    }

    /** Opens an empty cube: detects the machine (or simulates nodes), starts the workers, opens placed memory. */
    public static Cube open(CubeOptions options) {
        java.util.Objects.requireNonNull(options, "options must not be null");
        if (options.simulatedNodes() > 0) {
            int k = options.simulatedNodes();
            int perNode = options.threadsPerNode() > 0
                    ? options.threadsPerNode()
                    : Math.max(1, Runtime.getRuntime().availableProcessors() / k);
            return openSimulated(options, new ThreadWorkerPool(k, perNode));
        }
        NumaRuntime rt = NumaRuntime.detect();
        NumaColumnMemory mem = new NumaColumnMemory(rt.openMemory(), rt.statusLine());
        WorkerPool pool;
        try {
            pool = new NumaWorkerPool(rt.startWorkers(options.threadsPerNode(), "numacube"), rt.topology());
        } catch (RuntimeException e) {
            mem.close();
            throw e;
        }
        try {
            List<Integer> dataNodes = rt.plan().dataNodes().stream().boxed().toList();
            Map<Integer, Integer> filler = new HashMap<>();
            for (int d : dataNodes) {
                Integer f = rt.plan().fillerNode().get(d);
                filler.put(
                        d,
                        f != null && pool.nodes().contains(f) ? f : pool.nodes().get(0));
            }
            return new Cube(options, pool, mem, new TableBuilder.NodeLayout(dataNodes, filler), rt.statusLine(), rt);
        } catch (RuntimeException | Error e) {
            pool.close();
            mem.close();
            throw e;
        }
    }

    /**
     * A cube on {@code options.simulatedNodes()} logical nodes (data node n filled by workers of node n) run by {@code
     * pool}, which the cube owns from now on; for tests that need another pool than plain threads.
     */
    static Cube openSimulated(CubeOptions options, WorkerPool pool) {
        int k = options.simulatedNodes();
        List<Integer> nodes = new ArrayList<>();
        Map<Integer, Integer> filler = new HashMap<>();
        for (int n = 0; n < k; n++) {
            nodes.add(n);
            filler.put(n, n);
        }
        return new Cube(
                options,
                pool,
                new ArenaColumnMemory(),
                new TableBuilder.NodeLayout(nodes, filler),
                "numa=simulated nodes=" + k,
                null);
    }

    public CubeOptions options() {
        return options;
    }

    /** The placement new and relocated tables get: the option's, or the last {@link #relocate} argument. */
    public Placement currentPlacement() {
        return currentPlacement;
    }

    /**
     * Moves every table into new partitions placed as {@code placement} asks (same partitions and data), then frees
     * the old ones; later loads use it too. Atomic like a load: on failure the tables stay where they were. Lets a
     * benchmark compare placement modes in one process without regenerating the data.
     */
    public void relocate(Placement placement) {
        java.util.Objects.requireNonNull(placement, "placement must not be null");
        checkOpen();
        loadLock.lock();
        try {
            relocateLocked(placement);
        } finally {
            loadLock.unlock();
        }
    }

    private void relocateLocked(Placement placement) {
        List<FactTable> fresh = new ArrayList<>();
        try (CubeTables.Snapshot s = tables.acquire()) {
            for (CubeTables.Version v : s.versions()) {
                fresh.add(TableBuilder.relocate(v.table(), placement, layout, memory, pool));
            }
        } catch (RuntimeException e) {
            fresh.forEach(FactTable::close);
            throw e;
        }
        currentPlacement = placement;
        writePath.publishWhole(Map.of(), fresh.toArray(FactTable[]::new));
    }

    /**
     * The cube's workers (pinned per node where the runtime pins), for a loader that decodes in parallel before
     * {@link #loadTable}, as {@code new ParquetStagingLoader(cube.workers())} does. Owned by the cube, which closes it:
     * never close it, and submit to it only from threads that are not its workers.
     */
    public WorkerPool workers() {
        checkOpen();
        return pool;
    }

    /** Turns work stealing on or off for later queries (the benchmark compares both). */
    public void setWorkStealing(boolean on) {
        workStealing = on;
    }

    /**
     * Places the staged rows as table {@code staging.schema().name()}, replacing a table of that name atomically.
     * Dimension dictionaries are sorted, so codes follow value order.
     */
    public void loadTable(TableStaging staging) {
        loadTable(staging, 0);
    }

    /**
     * As {@link #loadTable(TableStaging)}, the table getting version {@code version} (>= 1; 0 for the next of its
     * name): a table restored from a checkpoint keeps the version it had.
     */
    public void loadTable(TableStaging staging, long version) {
        java.util.Objects.requireNonNull(staging, "staging must not be null");
        if (version < 0) {
            throw new IllegalArgumentException("a version is >= 1, or 0 for the next: version=" + version);
        }
        checkOpen();
        loadLock.lock();
        try {
            FactTable t = StagedTableLoader.load(
                    shard.retain(staging),
                    options.partitioning(),
                    autoPartitions(),
                    currentPlacement,
                    layout,
                    options.morselRows(),
                    memory,
                    pool);
            writePath.publishWhole(
                    version == 0 ? Map.of() : Map.of(key(t.schema().name()), version), t);
        } finally {
            loadLock.unlock();
        }
    }

    /**
     * Generates {@code rows} trades ({@link TradesGenerator}) straight into placed partitions, each filled in
     * parallel by its node's workers, as table {@code trades}; also (re)loads tables {@code fx} and {@code books}.
     */
    public void generateTrades(long rows, long seed, ProgressListener progress) {
        if (rows < 0) {
            throw new IllegalArgumentException("rows must be >= 0: rows=" + rows);
        }
        generateTrades(new TradesGenerator(seed, rows), progress);
    }

    /**
     * Generates the trades of {@code generator} (its rows, seed and share of NULL pnl) as {@link #generateTrades(long,
     * long, ProgressListener)} does.
     */
    public void generateTrades(TradesGenerator generator, ProgressListener progress) {
        java.util.Objects.requireNonNull(generator, "generator must not be null");
        checkOpen();
        loadLock.lock();
        try {
            generateTradesLocked(generator, progress);
        } finally {
            loadLock.unlock();
        }
    }

    private void generateTradesLocked(TradesGenerator generator, ProgressListener progress) {
        FactTable t = TradesLoader.load(
                generator,
                options.partitioning(),
                autoPartitions(),
                currentPlacement,
                layout,
                options.morselRows(),
                memory,
                pool,
                progress == null ? ProgressListener.NONE : progress);
        FactTable fx = null;
        FactTable books;
        try {
            fx = smallTable(TradesLoader.fx());
            books = smallTable(TradesLoader.books());
        } catch (RuntimeException e) {
            t.close();
            if (fx != null) {
                fx.close();
            }
            throw e;
        }
        writePath.publishWhole(Map.of(), t, fx, books);
    }

    /** A lookup table of a few rows, in one partition. */
    private FactTable smallTable(TableStaging staging) {
        return StagedTableLoader.load(
                staging, Partitioning.rowRanges(1), 1, currentPlacement, layout, options.morselRows(), memory, pool);
    }

    private int autoPartitions() {
        return Math.max(1, 2 * pool.workerCount());
    }

    /**
     * Appends the staged rows to table {@code table} as one atomic batch: a query sees all of them or none, and every
     * query that starts after this returns sees them. The batch's columns must be the table's as stored ({@link
     * #schema}: names and types in order; a BIGINT column with few distinct values is stored as INT and may be given
     * as BIGINT). Returns the table's new version (its current one for a batch without rows). The rows already placed
     * stay where they are; the new rows go to new partitions on the nodes with the fewest rows of the table, and small
     * appended partitions are merged as they accumulate. A failed append changes nothing.
     *
     * @throws NumacubeException BIND for an unknown table, INVALID_INPUT for other columns
     */
    public long append(String table, TableStaging batch) {
        return append(List.of(new TableBatch(table, batch))).get(key(table));
    }

    /**
     * Appends several batches, to one or more tables, as one atomic write (a transaction's): queries see every batch or
     * none. Returns each table's new version by its name in lower case.
     *
     * @throws NumacubeException as {@link #append(String, TableStaging)}; nothing is appended then
     */
    public Map<String, Long> append(List<TableBatch> batches) {
        return writePath.append(batches);
    }

    /**
     * Applies {@code writes} in order (appends, upserts, deletes, to one or more tables) as one atomic write: each table
     * changed gets one new version, and all are published together, so a query sees every change or none. A delete sees
     * the rows the writes before it appended; a subquery in its WHERE reads the tables as the writes before it left them,
     * not as it changes them.
     *
     * @throws NumacubeException as {@link #append(String, TableStaging)} and {@link #delete}; nothing changes then
     */
    public List<WriteResult> write(List<TableWrite> writes) {
        return writePath.write(writes, true);
    }

    /**
     * What {@link #write} would do with {@code writes}, without doing it: each write is applied in order as there (a
     * DELETE or UPDATE sees the rows the writes before it appended or changed) and its rows counted, then every change
     * is discarded: nothing is published and no version changes. A transaction block answers each of its statements
     * with it (its row count, or its error, at once), before COMMIT applies them all with {@link #write}.
     *
     * @return per write, its table, its rows and the table's current version
     * @throws NumacubeException as {@link #write}
     */
    public List<WriteResult> trial(List<TableWrite> writes) {
        return writePath.write(writes, false);
    }

    /** Opens an empty {@link WriteTrial}: a transaction block's writes tried one statement at a time. */
    public WriteTrial openTrial() {
        return writePath.openTrial();
    }

    /**
     * What {@link #write} would do with {@code block}, as {@link #trial(List)} tells it, applying onto {@code trial}
     * only the writes of {@code block} it does not hold yet: the trial holds the first {@link WriteTrial#writes()} of
     * them (its caller keeps that promise: the same writes, in the same order) and afterwards holds them all. It is
     * built again from the first write when a write was published since it was built (the block then reads the cube as
     * it is now, as {@link #write} at COMMIT will), when a key was set, or when {@code block} is shorter than what it
     * holds. Nothing is published and no version changes.
     *
     * @return per write this call applied (every one of {@code block} when the trial was built again), its table, its
     *     rows and the table's current version
     * @throws NumacubeException as {@link #write}; the trial is then reset, and holds no write
     */
    public List<WriteResult> trial(WriteTrial trial, List<? extends TableWrite> block) {
        return writePath.trial(trial, block);
    }

    /**
     * Whether {@code trial} holds writes built on the cube as it is now: nothing was published since its base was taken
     * (by any writer, to any table: a WHERE's subquery may have read any of them), under the same keys and layout of new
     * data. An answer that may be stale at once: {@link #publishTrial} asks it again under the load lock.
     */
    public boolean isCurrent(WriteTrial trial) {
        return writePath.isCurrent(trial);
    }

    /**
     * Publishes {@code trial} as {@link #write} of the writes it holds would publish, without applying any of them again,
     * when it holds exactly {@code writes} writes and is still built on the cube as it is now ({@link #isCurrent}): the
     * check and the publish are one step under the load lock, which every writer holds to publish, so no write lands
     * between them; the tables it changed get one new version each, all in one snapshot, so a query sees every change
     * or none. The trial is then empty. Otherwise nothing changes, the trial included, and the caller applies its writes
     * with {@link #write} (whose result this one equals).
     *
     * @return per write held, as {@link #write} returns it; empty when the trial could not be published
     * @throws NumacubeException when the cube is closed; the trial is then reset
     */
    public java.util.Optional<List<WriteResult>> publishTrial(WriteTrial trial, int writes) {
        return writePath.publishTrial(trial, writes);
    }

    /**
     * Runs one SQL query over the cube as {@code pending} writes would leave it, publishing nothing: a transaction
     * block's SELECT sees the block's own writes, as PostgreSQL's does. The writes are applied to private versions
     * under the load lock, held until the query is done (other writes wait for it; queries do not); with no pending
     * write this is {@link #query(String, Cancellation)}.
     *
     * @throws NumacubeException as {@link #write} for a pending write that fails, as {@link #query} for the query
     */
    public QueryResult queryAfter(List<TableWrite> pending, String sql, Cancellation cancel) {
        return queryAfter(pending, sql, TableWrite.clockNow(), cancel);
    }

    /**
     * As {@link #queryAfter(List, String, Cancellation)}, the query's clock functions ({@code now()}, {@code
     * current_date} and their synonyms, its subqueries' included) reading {@code wallClock}: a transaction block's
     * statements all read the block's start, as PostgreSQL's do.
     */
    public QueryResult queryAfter(
            List<TableWrite> pending, String sql, java.time.LocalDateTime wallClock, Cancellation cancel) {
        java.util.Objects.requireNonNull(pending, "pending must not be null");
        java.util.Objects.requireNonNull(wallClock, "wallClock must not be null");
        if (pending.isEmpty()) {
            return query(sql, wallClock, cancel);
        }
        long start = System.nanoTime();
        // the load lock before the read lock, as close takes them
        loadLock.lock();
        lock.readLock().lock();
        try {
            return writePath.readAfter(pending, view -> queries.queryOver(view, sql, wallClock, start, cancel));
        } finally {
            lock.readLock().unlock();
            loadLock.unlock();
        }
    }

    /**
     * Makes {@code table} take upserts: from now on an appended row whose values in {@code columns} equal those of a row
     * of the table replaces that row (in the same atomic write), and of several rows of one batch with one key the last
     * wins. A key holding NULL replaces nothing. Rows already in the table are not checked for duplicates.
     *
     * @throws NumacubeException for an unknown table or column, or a DOUBLE column
     */
    public void setKey(String table, List<String> columns) {
        writePath.setKey(table, columns);
    }

    /** The key {@link #setKey} gave {@code table}: its columns, or empty when appends to it are not upserts. */
    public List<String> keyColumns(String table) {
        return writePath.keyColumns(table);
    }

    /**
     * Makes this cube one shard of a table split across processes: deletes the rows of other shards from every table
     * with the shard key column ({@link ShardRows}), and from now on appends refuse rows of other shards (callers
     * check a batch with {@link Shard#checkOwns} before they write it). Call once, after loading.
     *
     * @return the rows deleted, per table that has the key column (in {@link #tables()} order)
     */
    public Map<String, Long> keepShard(Shard keep) {
        return shard.keep(this, keep);
    }

    /**
     * Makes this cube one shard before anything is loaded: each table staged from now on ({@link #loadTable}) is
     * placed with only this shard's rows (a table without the key column whole), so the other shards' rows never take
     * placed memory and any key works; generated trades, placed without staging, are cut by {@link #keepShard} after
     * they are generated. Appends refuse rows of other shards, as after {@link #keepShard}.
     */
    public void loadShard(Shard keep) {
        shard.load(keep);
    }

    /** The shard this cube holds, empty when it holds every row it is given. */
    public java.util.Optional<Shard> shard() {
        return shard.current();
    }

    /** The current version of {@code table}: 1 when loaded, one more at each load or append that changed it. */
    public long version(String table) {
        try (CubeTables.Snapshot s = snapshot()) {
            CubeTables.Version v = s.version(table);
            if (v == null) {
                throw noSuchTable(table, s);
            }
            return v.number();
        }
    }

    private static String key(String table) {
        return CubeTables.key(table);
    }

    /**
     * Runs {@code DELETE FROM table [WHERE condition]} (the WHERE as in a query; joins are not allowed, subqueries are)
     * as one atomic write: the table's next version without the rows the condition keeps, which stay in memory,
     * skipped by every scan, until merging drops them. Errors carry positions in {@code sql}.
     *
     * @throws NumacubeException as a query's errors for a bad statement; nothing is deleted then
     */
    public WriteResult delete(String sql) {
        return write(List.of(new TableDelete(sql))).get(0);
    }

    /**
     * Runs {@code UPDATE table SET column = expression [, ...] [WHERE condition]} as one atomic write
     * ({@link TableUpdate}); {@link WriteResult#rows} counts the rows changed. Errors carry positions in {@code sql}.
     *
     * @throws NumacubeException as a query's errors for a bad statement; nothing changes then
     */
    public WriteResult update(String sql) {
        return write(List.of(new TableUpdate(sql))).get(0);
    }

    /**
     * What {@link #prepareJoin} did.
     *
     * @param join       the join
     * @param seconds    the time it took
     * @param codedBytes bytes of query-time codes it built for the fact table's columns (0 when a query had already)
     */
    public record JoinPrepared(JoinSpec join, double seconds, long codedBytes) {}

    /**
     * Builds ahead what the first query taking {@code join} would: the fact columns' query-time codes, the join's
     * index from their codes to the joined table's rows, and the joined table's plain columns' query-time codes
     * (which a GROUP BY of joined columns reads; {@code -Dnumacube.prepareDimCodes=false} leaves them out), kept with the tables' current versions as a query keeps them
     * (a write publishing a later version of either table builds them again in the background, {@link
     * PreparedJoins}; a query that comes first builds them itself). Runs the join once over all rows. An unknown table or
     * column, or a joined key that is not unique, is the error that query would give, naming the join.
     */
    public JoinPrepared prepareJoin(JoinSpec join) {
        return joinPreparation.prepare(join);
    }

    /**
     * What {@link #prepareJoinChains} did for one chain.
     *
     * @param chain   the chain
     * @param seconds the time it took
     */
    public record ChainPrepared(JoinChain chain, double seconds) {}

    /**
     * Builds ahead, for every {@link JoinChain} of the {@code declared} joins (prepared one by one with {@link
     * #prepareJoin} beforehand), what the first query joining a table through the chain would: the index from the first fact
     * column's codes to the last table's rows, through the tables between (TPC-H's Q3 joins customer to lineitem's
     * order key codes through orders). Kept as {@link #prepareJoin} keeps it: with the tables' current versions, built
     * again in the background after a write to any of the chain's tables. Runs each chain's join once over all rows; a failure is the chain's query's
     * error, naming the chain.
     */
    public List<ChainPrepared> prepareJoinChains(List<JoinSpec> declared) {
        return joinPreparation.prepareChains(declared);
    }

    /** The joins prepared so far and their background refreshes (for tests). */
    PreparedJoins preparedJoins() {
        return prepared;
    }

    private long tableBytes(String name) {
        try (CubeTables.Snapshot s = snapshot()) {
            FactTable t = s.table(name);
            return t == null ? 0 : t.byteSize();
        }
    }

    /** Runs one SQL query; bad SQL throws {@link NumacubeException} and changes nothing. */
    public QueryResult query(String sql) {
        return query(sql, Cancellation.NONE);
    }

    /**
     * Runs one SQL query that another thread may {@link Cancellation#cancel}: it then stops within about a block of
     * morsels with SQLSTATE 57014 (its subqueries too).
     */
    public QueryResult query(String sql, Cancellation cancel) {
        return query(sql, TableWrite.clockNow(), cancel);
    }

    /**
     * As {@link #query(String, Cancellation)}, its clock functions ({@code now()}, {@code current_date} and their
     * synonyms, its subqueries' included) reading {@code wallClock} rather than the clock as the query starts.
     */
    public QueryResult query(String sql, java.time.LocalDateTime wallClock, Cancellation cancel) {
        java.util.Objects.requireNonNull(sql, "sql must not be null");
        java.util.Objects.requireNonNull(wallClock, "wallClock must not be null");
        java.util.Objects.requireNonNull(cancel, "cancel must not be null");
        return queries.query(sql, wallClock, cancel);
    }

    /**
     * Whether a word of {@code sql} names a function that reads the statement's clock ({@code now}, {@code
     * current_date}, ...): a statement that names none reads no clock (one that does may still not read it, where the
     * word is a name or in a string).
     */
    public static boolean readsClock(String sql) {
        return BoundStatements.readsClock(sql);
    }

    /**
     * Refuses (0A000) query {@code sql} when a TIMESTAMP WITH TIME ZONE clock ({@code now()}, {@code
     * current_timestamp}) reaches a column of its result ({@link io.numacube.engine.sql.ZonedClockResults}): for a
     * PostgreSQL client, which would read it as a {@code timestamptz}.
     */
    public static void refuseZonedClockResults(String sql) {
        io.numacube.engine.sql.ZonedClockResults.refuse(sql);
    }

    /**
     * The columns of query {@code sql}'s result that are a TIMESTAMP WITH TIME ZONE clock alone, by position, with
     * PostgreSQL's name for each (empty where an alias names it), and refuses (0A000) a statement where such a clock
     * reaches the result otherwise ({@link io.numacube.engine.sql.ZonedClockResults#bareColumns}).
     */
    public static Map<Integer, String> zonedClockColumns(String sql) {
        return io.numacube.engine.sql.ZonedClockResults.bareColumns(sql);
    }

    /**
     * The SQL text that stands for parameter {@code number} (1-based) of a statement given to {@link #parameterTypes}:
     * a string literal no statement writes.
     */
    public static String parameterMarker(int number) {
        return io.numacube.engine.sql.ParameterMarkers.marker(number);
    }

    /**
     * The types of the untyped parameters of {@code sql} (a query, UPDATE or DELETE with each such parameter written
     * as its {@link #parameterMarker}), by number, as binding infers them the way PostgreSQL infers a {@code $1} of
     * type unknown: the type of the operand it meets first ({@code k = $1}, {@code pnl * $1}, {@code x IN ($1)},
     * {@code COALESCE(desk, $1)}) or the one it is cast to ({@code CAST($1 AS DATE)}, UPDATE's {@code SET col = $1}).
     * A parameter that meets no typed operand is absent. The statement's subqueries run (binding needs them), the
     * statement does not; nothing changes.
     *
     * @throws NumacubeException as the statement's binding fails
     */
    public Map<Integer, ParameterType> parameterTypes(String sql) {
        return parameterTypes(sql, Cancellation.NONE);
    }

    /**
     * As {@link #parameterTypes(String)}, stopped with 57014 when {@code cancellation} is cancelled: binding runs the
     * statement's uncorrelated subqueries (key sets, scalar values), which may take as long as a query.
     */
    public Map<Integer, ParameterType> parameterTypes(String sql, Cancellation cancellation) {
        java.util.Objects.requireNonNull(sql, "sql must not be null");
        java.util.Objects.requireNonNull(cancellation, "cancellation must not be null");
        return queries.parameterTypes(sql, cancellation);
    }

    /** Every partition of every table, with its node and a page census of where its memory really is. */
    public List<PartitionInfo> placement() {
        try (CubeTables.Snapshot s = snapshot()) {
            return PlacementReport.partitions(s, memory, options.simulatedNodes() <= 0);
        }
    }

    /** How evenly {@code table} is spread over partitions and nodes. */
    public TableSkew skew(String table) {
        try (CubeTables.Snapshot s = snapshot()) {
            return PlacementReport.skew(table(s, table), pool.nodes());
        }
    }

    /** The table names, sorted. */
    public List<String> tables() {
        try (CubeTables.Snapshot s = snapshot()) {
            return s.versions().stream()
                    .map(v -> v.table().schema().name())
                    .sorted()
                    .toList();
        }
    }

    public TableSchema schema(String table) {
        try (CubeTables.Snapshot s = snapshot()) {
            return table(s, table).schema();
        }
    }

    /**
     * The dictionaries of {@code table}'s published version, by column (null for a measure): what a batch of rows to
     * append may be coded against ({@link TableStaging#TableStaging(TableSchema, io.numacube.engine.storage.Dictionary[])}),
     * its values then keeping these codes when it is written, where the table still holds them so.
     */
    public io.numacube.engine.storage.Dictionary[] dictionaries(String table) {
        try (CubeTables.Snapshot s = snapshot()) {
            return table(s, table).dictionaries().clone();
        }
    }

    /**
     * An empty staging of {@code table}'s columns whose text values are coded against the dictionaries of its
     * published version ({@link TableStaging#TableStaging(TableSchema, io.numacube.engine.storage.Dictionary[])}): a
     * batch of rows to append, that keeps the table's codes for the values it holds when it is written.
     */
    public TableStaging appendStaging(String table) {
        try (CubeTables.Snapshot s = snapshot()) {
            FactTable t = table(s, table);
            return new TableStaging(t.schema(), t.dictionaries());
        }
    }

    public long rowCount(String table) {
        try (CubeTables.Snapshot s = snapshot()) {
            return table(s, table).rowCount();
        }
    }

    /** How {@code table} was partitioned ({@code row ranges}, {@code by desk}). */
    public String partitioning(String table) {
        try (CubeTables.Snapshot s = snapshot()) {
            return table(s, table).partitioning();
        }
    }

    static FactTable table(CubeTables.Snapshot s, String name) {
        java.util.Objects.requireNonNull(name, "table name must not be null");
        FactTable t = s.table(name);
        if (t == null) {
            throw noSuchTable(name, s);
        }
        return t;
    }

    static NumacubeException noSuchTable(String name, CubeTables.Snapshot s) {
        return new NumacubeException(
                NumacubeException.Kind.BIND,
                "42P01",
                "no such table: table=" + name + " tables="
                        + s.versions().stream()
                                .map(v -> key(v.table().schema().name()))
                                .sorted()
                                .toList(),
                null,
                null);
    }

    /**
     * Every table's current version, all at one moment, for a reader that is not a query (a checkpoint writing the
     * tables out); later loads and appends do not change it. Close it when done: it holds those versions' memory.
     */
    public CubeSnapshot openSnapshot() {
        return new CubeSnapshot(snapshot(), lock.readLock(), this::checkOpen);
    }

    /** The current snapshot of the tables, for a reader that is not a query; the cube must be open. */
    private CubeTables.Snapshot snapshot() {
        checkOpen();
        return tables.acquire();
    }

    /**
     * Makes the cube follow the machine it runs on: every {@code options.period()} the process's bindings are read
     * again (allowed CPUs, the cgroup v2 or v1 cpuset, allowed memory nodes, free memory per node), and on a change the
     * plan is made again by the rules {@code doctor} prints; the workers are re-pinned (a node whose CPUs were taken
     * away keeps its workers, pinned to the nearest node that has CPUs); new data goes to the new data nodes; and every
     * partition whose memory node is no longer allowed is copied to the nearest one (and, when a data node comes
     * back, each table spreads onto it again: {@link MovePlan}), at most {@code
     * options.bytesPerSecond()}, and published in its table's next version at once (the same version number: the rows
     * are the same). Queries under way finish on the old copies, which are freed after the last of them; no query
     * fails or answers differently because of a move. Each change is logged in one line ({@link
     * PlacementChange#logLine()}), kept in {@link #placementHistory()} and given to {@code listener} (on the watcher's
     * thread; it must not block). The work is {@link MachineFollower}'s.
     *
     * <p>Call it from a thread that is not pinned (the watcher's thread inherits its affinity, and reads the allowed
     * CPUs as its own). Once only.
     *
     * @throws NumacubeException of kind INVALID_INPUT for a simulated cube (no machine to follow) or a second call
     */
    public void followMachine(FollowOptions options, java.util.function.Consumer<PlacementChange> listener) {
        follower.follow(options, listener);
    }

    /** Whether {@link #followMachine} was called. */
    public boolean followsMachine() {
        return follower.follows();
    }

    /** The changes of the machine followed so far, oldest first (the last {@value #HISTORY} kept). */
    public List<PlacementChange> placementHistory() {
        return follower.history();
    }

    /** How many {@link PlacementChange}s {@link #placementHistory()} keeps. */
    public static final int HISTORY = 100;

    /**
     * Moves every placed partition of every table by the copy path a change of the machine uses ({@link
     * #followMachine}: a copy written by a thread pinned to the target node, at most {@code bytesPerSecond}, published
     * under the same version), each to the next data node in order, so that on one data node each goes to the node it
     * is on (which still measures the copy). Queries under way finish on the old copies; answers do not change. For the
     * bench's migration throughput: not kept in {@link #placementHistory()}.
     *
     * @param bytesPerSecond at most this many bytes copied per second; 0 for no limit
     * @return what moved, how long it took and the share of the copies' pages on their node
     */
    public PlacementChange moveEveryPartition(long bytesPerSecond) {
        checkOpen();
        return moves.moveEvery(layout, bytesPerSecond);
    }

    /** How this cube follows the machine; tests drive it on a simulated cube. */
    MachineFollower follower() {
        return follower;
    }

    /** Makes {@code next} the layout of new data, under the load lock (a load under way keeps the one it began with). */
    private void layOut(TableBuilder.NodeLayout next) {
        loadLock.lock();
        try {
            layout = next;
        } finally {
            loadLock.unlock();
        }
    }

    /**
     * Every NUMA node of the machine, read now ({@link MachineReading}: free memory and bindings as they are), with
     * the cube's data and workers on each. For a cube with simulated nodes, the machine it runs on, with no data or
     * workers on any node ({@link #simulatesNodes()}). Call it from a thread that is not pinned: the CPUs allowed are
     * the calling thread's.
     */
    public List<MachineNode> machine() {
        checkOpen();
        if (runtime == null) {
            return PlacementReport.machine(
                    MachineReading.read(SystemRoot.live(), java.util.Optional.empty()), List.of(), null);
        }
        return PlacementReport.machine(runtime.readMachine(), dataNodes(), pool);
    }

    /** Whether the cube's nodes are simulated (logical nodes, not the machine's: {@code withSimulatedNodes}). */
    public boolean simulatesNodes() {
        return runtime == null;
    }

    /** The nodes partitions are placed on (logical nodes when simulated), ascending. */
    public List<Integer> dataNodes() {
        return layout.dataNodes();
    }

    /** One line: the NUMA path, workers, memory, placement, partitioning. */
    public String describe() {
        return status + " " + pool.describe() + " " + memory.describe() + " placement=" + currentPlacement
                + " partitioning=" + options.partitioning() + " stealing=" + (workStealing ? "on" : "off")
                + " morselRows=" + options.morselRows();
    }

    /** Bytes of off-heap column memory the cube's tables hold now (0 after close). */
    public long nativeBytes() {
        if (closed) {
            return 0;
        }
        try (CubeTables.Snapshot s = tables.acquire()) {
            long n = 0;
            for (CubeTables.Version v : s.versions()) {
                n += v.table().byteSize();
            }
            return n;
        }
    }

    /** Bytes of native memory still allocated by the cube's column memory (0 after close). Works after close. */
    public long liveNativeBytes() {
        return memory.liveBytes();
    }

    /**
     * Addresses and sizes of every partition block and every block of query-time codes now held, for checks against
     * /proc/self/numa_maps.
     */
    public List<long[]> blockRanges() {
        try (CubeTables.Snapshot s = snapshot()) {
            return PlacementReport.blockRanges(s);
        }
    }

    /** Where new partitions go now: the current placement, layout of new data, morsel rows, memory and workers. */
    private io.numacube.engine.storage.PlacementTarget placementTarget() {
        return new io.numacube.engine.storage.PlacementTarget(
                currentPlacement, layout, options.morselRows(), memory, pool);
    }

    private void checkOpen() {
        if (closed) {
            throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT, "the cube is closed — open a new one");
        }
    }

    /** Waits for running loads and queries, frees every table and the placed memory, stops the workers. Idempotent. */
    @Override
    public void close() {
        prepared.close();
        follower.stop();
        loadLock.lock();
        lock.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            RuntimeException first = null;
            try {
                tables.clear();
            } catch (RuntimeException e) {
                first = e;
            }
            writePath.forgetGrowing();
            try {
                memory.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
            pool.close();
            if (first != null) {
                LOG.log(System.Logger.Level.WARNING, "closing the cube: {0}", first.getMessage());
                throw first;
            }
        } finally {
            lock.writeLock().unlock();
            loadLock.unlock();
        }
    }

    /** The cube as its writes need it ({@link CubeWrites.Host}). */
    private final class WriteHost implements CubeWrites.Host {

        @Override
        public <T> T bound(
                CubeTables.Snapshot snapshot,
                String sql,
                java.time.LocalDateTime wallClock,
                java.util.function.BiFunction<LogicalQuery, Map<String, FactTable>, T> then,
                Cancellation cancel) {
            return queries.binding().bound(snapshot, sql, wallClock, then, cancel);
        }

        @Override
        public <T> T boundTree(
                CubeTables.Snapshot snapshot,
                java.util.function.Supplier<org.apache.calcite.sql.SqlNode> parsed,
                boolean views,
                java.util.function.BiFunction<LogicalQuery, Map<String, FactTable>, T> then,
                Cancellation cancel) {
            return queries.binding().boundTree(snapshot, parsed, views, then, cancel);
        }

        @Override
        public io.numacube.engine.storage.PlacementTarget appendTarget() {
            return placementTarget();
        }

        @Override
        public TableBuilder.NodeLayout layout() {
            return layout;
        }

        @Override
        public boolean closed() {
            return closed;
        }

        @Override
        public void checkOpen() {
            Cube.this.checkOpen();
        }
    }

    /** The cube as its queries need it ({@link CubeQueries.Host}). */
    private final class QueryHost implements CubeQueries.Host {

        @Override
        public io.numacube.engine.storage.PlacementTarget placementTarget() {
            return Cube.this.placementTarget();
        }

        @Override
        public boolean workStealing() {
            return workStealing;
        }

        @Override
        public void checkOpen() {
            Cube.this.checkOpen();
        }
    }
}
