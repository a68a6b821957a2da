package io.numacube.engine;

import io.numacube.engine.exec.QueryExecutor;
import io.numacube.engine.gen.TradesGenerator;
import io.numacube.engine.ingest.StagedTableLoader;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.TradesLoader;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.SqlBinder;
import io.numacube.engine.storage.ArenaColumnMemory;
import io.numacube.engine.storage.ColumnMemory;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.NumaColumnMemory;
import io.numacube.engine.storage.Partition;
import io.numacube.engine.storage.Partitioning;
import io.numacube.engine.storage.Placement;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.engine.storage.TableBuilder;
import io.numacube.engine.workers.NumaWorkerPool;
import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.NumaRuntime;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * An in-memory cube: named tables stored columnar and off-heap in partitions placed on NUMA nodes, queried with SQL
 * aggregation queries executed morsel by morsel by pinned per-node workers.
 *
 * <p>Life cycle: {@link #open} starts the workers and opens placed memory; {@link #loadTable} and
 * {@link #generateTrades} add or replace tables; {@link #query} runs SQL; {@link #close()} waits for running queries,
 * frees every byte of native memory and stops the workers. After close every method but close throws.
 *
 * <p>Loads are atomic: a new table is built in new partitions and swapped in only when complete, so a failed load
 * (bad data, out of memory) leaves the previous table queryable. Table swaps wait for running queries (a read-write
 * lock: queries read, swaps and close write), so a replaced table is freed when no query reads it.
 *
 * <p>Thread-safe: several threads may query at once (each gets the answer it would get alone) and load while others
 * query. Do not call it from one of its own workers.
 */
public final class Cube implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Cube.class.getName());

    private final CubeOptions options;
    private final WorkerPool pool;
    private final ColumnMemory memory;
    private final TableBuilder.NodeLayout layout;
    private final String status;
    private final Map<String, FactTable> tables = new HashMap<>();
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock(true);
    /** Serialises loads and relocations (not queries), so a relocation never undoes a concurrent load. */
    private final java.util.concurrent.locks.ReentrantLock loadLock = new java.util.concurrent.locks.ReentrantLock();

    private volatile boolean workStealing;
    private volatile Placement currentPlacement;
    private volatile boolean closed;

    private Cube(
            CubeOptions options, WorkerPool pool, ColumnMemory memory, TableBuilder.NodeLayout layout, String status) {
        this.options = options;
        this.pool = pool;
        this.memory = memory;
        this.layout = layout;
        this.status = status;
        this.workStealing = options.workStealing();
        this.currentPlacement = options.placement();
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
            List<Integer> nodes = new ArrayList<>();
            Map<Integer, Integer> filler = new HashMap<>();
            for (int n = 0; n < k; n++) {
                nodes.add(n);
                filler.put(n, n);
            }
            return new Cube(
                    options,
                    new ThreadWorkerPool(k, perNode),
                    new ArenaColumnMemory(),
                    new TableBuilder.NodeLayout(nodes, filler),
                    "numa=simulated nodes=" + k);
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
            return new Cube(options, pool, mem, new TableBuilder.NodeLayout(dataNodes, filler), rt.statusLine());
        } catch (RuntimeException | Error e) {
            pool.close();
            mem.close();
            throw e;
        }
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
        lock.readLock().lock();
        try {
            for (FactTable t : tables.values()) {
                fresh.add(TableBuilder.relocate(t, placement, layout, memory, pool));
            }
        } catch (RuntimeException e) {
            fresh.forEach(FactTable::close);
            throw e;
        } finally {
            lock.readLock().unlock();
        }
        currentPlacement = placement;
        swapIn(fresh.toArray(FactTable[]::new));
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
        java.util.Objects.requireNonNull(staging, "staging must not be null");
        checkOpen();
        loadLock.lock();
        try {
            FactTable t = StagedTableLoader.load(
                    staging,
                    options.partitioning(),
                    autoPartitions(),
                    currentPlacement,
                    layout,
                    options.morselRows(),
                    memory,
                    pool);
            swapIn(t);
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
        swapIn(t, fx, books);
    }

    /** A lookup table of a few rows, in one partition. */
    private FactTable smallTable(TableStaging staging) {
        return StagedTableLoader.load(
                staging, Partitioning.rowRanges(1), 1, currentPlacement, layout, options.morselRows(), memory, pool);
    }

    private int autoPartitions() {
        return Math.max(1, 2 * pool.workerCount());
    }

    private void swapIn(FactTable... fresh) {
        List<FactTable> old = new ArrayList<>();
        lock.writeLock().lock();
        try {
            if (closed) {
                for (FactTable t : fresh) {
                    t.close();
                }
                checkOpen();
            }
            for (FactTable t : fresh) {
                FactTable prev = tables.put(key(t.schema().name()), t);
                if (prev != null) {
                    old.add(prev);
                }
            }
            for (FactTable t : old) {
                t.close();
                for (FactTable kept : tables.values()) {
                    kept.coded().forget(t.coded().memoToken());
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private static String key(String table) {
        return table.toLowerCase(Locale.ROOT);
    }

    /** Runs one SQL query; bad SQL throws {@link NumacubeException} and changes nothing. */
    public QueryResult query(String sql) {
        java.util.Objects.requireNonNull(sql, "sql must not be null");
        long start = System.nanoTime();
        lock.readLock().lock();
        try {
            checkOpen();
            if (!hasSubqueries(sql)) {
                LogicalQuery lq = SqlBinder.bind(sql, catalog(Map.of()));
                return execute(lq, Map.of(), start);
            }
            return queryWithSubqueries(sql, start);
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

    /** The tables a query may name: the cube's and {@code temps}, with their schemas and row counts. */
    private SqlBinder.Catalog catalog(Map<String, FactTable> temps) {
        return new SqlBinder.Catalog() {
            @Override
            public Optional<io.numacube.engine.schema.TableSchema> schema(String name) {
                return Optional.ofNullable(table(name, temps)).map(FactTable::schema);
            }

            @Override
            public long rows(String name) {
                FactTable t = table(name, temps);
                return t == null ? -1 : t.rowCount();
            }

            @Override
            public boolean repeats(String name, String column) {
                FactTable t = table(name, temps);
                int c = t == null ? -1 : t.schema().indexOf(column);
                if (c < 0 || !t.schema().column(c).isDimension()) {
                    return false;
                }
                // a dictionary without NULL of fewer values than rows: some value is in two rows
                io.numacube.engine.storage.Dictionary d = t.dictionary(c);
                return d.nullCode() < 0 && d.size() < t.rowCount();
            }

            @Override
            public boolean unique(String name, String column) {
                FactTable t = table(name, temps);
                int c = t == null ? -1 : t.schema().indexOf(column);
                if (c < 0 || t.schema().column(c).type() == io.numacube.engine.schema.ColumnType.DOUBLE) {
                    return false;
                }
                // a plain column is coded here once (kept, as a GROUP BY of it would): its dictionary counts it
                io.numacube.engine.storage.Dictionary d =
                        t.dictionary(t.schema().column(c).isDimension() ? c : t.codedIndex(c));
                return d.nullCode() < 0 && d.size() == t.rowCount();
            }
        };
    }

    /**
     * Whether the text may hold a subquery or WITH (a second SELECT), or a LEFT JOIN that {@link EagerAggregation}
     * may rewrite into one: such statements are run in steps.
     */
    private static boolean hasSubqueries(String sql) {
        java.util.regex.Matcher m = SELECT_WORD.matcher(sql);
        return (m.find() && m.find()) || LEFT_JOIN.matcher(sql).find();
    }

    private static final java.util.regex.Pattern SELECT_WORD = java.util.regex.Pattern.compile("(?i)\\bselect\\b");

    private static final java.util.regex.Pattern LEFT_JOIN =
            java.util.regex.Pattern.compile("(?i)\\bleft\\s+(outer\\s+)?join\\b");

    /** Runs the subqueries as temporary tables or values ({@link Subqueries}), then the statement; frees the tables. */
    private QueryResult queryWithSubqueries(String sql, long start) {
        Map<String, FactTable> temps = new java.util.LinkedHashMap<>();
        try {
            java.util.function.Function<org.apache.calcite.sql.SqlNode, QueryResult> run =
                    node -> execute(SqlBinder.bind(node, catalog(temps)), temps, System.nanoTime());
            Subqueries subqueries = new Subqueries(
                    run, staging -> temps.put(key(staging.schema().name()), loadTemporary(staging)), catalog(temps));
            org.apache.calcite.sql.SqlNode root = subqueries.rewrite(SqlBinder.parse(sql));
            LogicalQuery lq = SqlBinder.bind(root, catalog(temps));
            return execute(lq, temps, start);
        } finally {
            temps.values().forEach(FactTable::close);
        }
    }

    private FactTable table(String name, Map<String, FactTable> temps) {
        FactTable t = temps.get(key(name));
        return t != null ? t : tables.get(key(name));
    }

    private QueryResult execute(LogicalQuery lq, Map<String, FactTable> temps, long start) {
        FactTable fact = table(lq.fact(), temps);
        List<FactTable> dimensions =
                lq.joins().stream().map(j -> table(j.table(), temps)).toList();
        if (lq.rows()) {
            return io.numacube.engine.exec.ProjectionExecutor.run(lq, fact, dimensions, start);
        }
        return QueryExecutor.run(lq, fact, dimensions, pool, workStealing, start);
    }

    /** Places a subquery's rows as a table that no other statement sees. */
    private FactTable loadTemporary(TableStaging staging) {
        FactTable t = StagedTableLoader.load(
                staging,
                io.numacube.engine.storage.Partitioning.AUTO,
                1,
                currentPlacement,
                layout,
                options.morselRows(),
                memory,
                pool);
        t.coded().markTemporary();
        return t;
    }

    /** Every partition of every table, with its node and a page census of where its memory really is. */
    public List<PartitionInfo> placement() {
        lock.readLock().lock();
        try {
            checkOpen();
            List<PartitionInfo> out = new ArrayList<>();
            for (String name : new TreeMap<>(tables).keySet()) {
                FactTable t = tables.get(name);
                for (Partition p : t.partitions()) {
                    int node = p.memoryNode() >= 0 ? p.memoryNode() : p.homeNode();
                    OptionalDouble f = options.simulatedNodes() > 0 || p.rows() == 0
                            ? OptionalDouble.empty()
                            : memory.fractionOnNode(p.block(), node);
                    out.add(new PartitionInfo(
                            t.schema().name(),
                            p.id(),
                            p.label(),
                            p.homeNode(),
                            p.memoryNode(),
                            p.rows(),
                            p.byteSize(),
                            p.block().placementApplied(),
                            f.isPresent() ? 100.0 * f.getAsDouble() : Double.NaN));
                }
            }
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** How evenly {@code table} is spread over partitions and nodes. */
    public TableSkew skew(String table) {
        lock.readLock().lock();
        try {
            FactTable t = table(table);
            Map<Integer, Long> bytes = new TreeMap<>();
            for (int n : pool.nodes()) {
                bytes.put(n, 0L);
            }
            long total = 0;
            for (Partition p : t.partitions()) {
                bytes.merge(p.homeNode(), p.byteSize(), Long::sum);
                total += p.byteSize();
            }
            long max = bytes.values().stream().mapToLong(Long::longValue).max().orElse(0);
            double nodeSkew = total == 0 ? 0 : max / ((double) total / bytes.size());
            return new TableSkew(t.schema().name(), t.partitions().size(), t.skew(), bytes, nodeSkew);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The table names, sorted. */
    public List<String> tables() {
        lock.readLock().lock();
        try {
            checkOpen();
            return tables.values().stream().map(t -> t.schema().name()).sorted().toList();
        } finally {
            lock.readLock().unlock();
        }
    }

    public TableSchema schema(String table) {
        lock.readLock().lock();
        try {
            return table(table).schema();
        } finally {
            lock.readLock().unlock();
        }
    }

    public long rowCount(String table) {
        lock.readLock().lock();
        try {
            return table(table).rowCount();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** How {@code table} was partitioned ({@code row ranges}, {@code by desk}). */
    public String partitioning(String table) {
        lock.readLock().lock();
        try {
            return table(table).partitioning();
        } finally {
            lock.readLock().unlock();
        }
    }

    private FactTable table(String name) {
        java.util.Objects.requireNonNull(name, "table name must not be null");
        checkOpen();
        FactTable t = tables.get(key(name));
        if (t == null) {
            throw new NumacubeException(
                    NumacubeException.Kind.BIND, "no such table: table=" + name + " tables=" + tables.keySet());
        }
        return t;
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
        lock.readLock().lock();
        try {
            long n = 0;
            for (FactTable t : tables.values()) {
                n += t.byteSize();
            }
            return n;
        } finally {
            lock.readLock().unlock();
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
        lock.readLock().lock();
        try {
            List<long[]> out = new ArrayList<>();
            for (FactTable t : tables.values()) {
                for (Partition p : t.partitions()) {
                    out.add(new long[] {p.block().address(), p.block().byteSize()});
                }
                for (var b : t.coded().blocks()) {
                    out.add(new long[] {b.address(), b.byteSize()});
                }
            }
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT, "the cube is closed — open a new one");
        }
    }

    /** Waits for running loads and queries, frees every table and the placed memory, stops the workers. Idempotent. */
    @Override
    public void close() {
        loadLock.lock();
        lock.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            RuntimeException first = null;
            for (FactTable t : tables.values()) {
                try {
                    t.close();
                } catch (RuntimeException e) {
                    first = first == null ? e : first;
                }
            }
            tables.clear();
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
}
