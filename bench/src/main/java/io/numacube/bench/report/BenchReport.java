package io.numacube.bench.report;

import io.numacube.bench.stats.Summary;
import java.util.List;

/**
 * Every figure of one {@code numacube bench} run, as plain immutable records; a section that was not run is
 * {@code null}. Serialised as is by {@link JsonReport}; printed by {@link ReportPrinter}.
 *
 * <p>Units: seconds, rows/s, queries/s, GB/s (10^9 bytes/s), bytes; fractions are 0..1 (0.8 = 80%); speedups are
 * "times faster" (DuckDB's median seconds / numacube's median seconds: above 1 means numacube is faster).
 *
 * @param tool      "numacube bench" and its version
 * @param startedAt ISO-8601 UTC time the run started
 * @param machine   the machine and JVM
 * @param settings  what was asked
 * @param notes     caveats of this run, one readable line each (one-node machine, small data, ...)
 * @param errors    sections that failed, "section: exception" each (the section is then null); empty when all ran
 * @param contention how busy other processes kept the CPUs during each section that ran
 * @param probe     the bandwidth limit, or null
 * @param peers     the peer comparison, or null
 * @param policies  placement policies against concurrent streams, or null
 * @param scaling   Amdahl and Gustafson scaling, or null
 * @param stability run-to-run variation, or null
 * @param fileLoads loading the trades from Parquet and CSV files, numacube against DuckDB, or null
 * @param tpch      TPC-H, numacube against DuckDB, or null
 * @param serve     numacube serve: front ends against the embedded engine, readers beside a durable writer, or null
 * @param migration moving partitions between nodes: the copy's throughput, query latency during a move, or null
 */
public record BenchReport(
        String tool,
        String startedAt,
        Machine machine,
        Settings settings,
        List<String> notes,
        List<String> errors,
        List<SectionContention> contention,
        Probe probe,
        Peers peers,
        Policies policies,
        Scaling scaling,
        Stability stability,
        FileLoads fileLoads,
        TpchReport tpch,
        ServeReport serve,
        Migration migration) {

    public BenchReport {
        notes = List.copyOf(notes);
        errors = List.copyOf(errors);
        contention = List.copyOf(contention);
    }

    /**
     * How contended the machine was while one section ran.
     *
     * @param section              the section
     * @param seconds              its wall time
     * @param othersCpuFraction    share (0..1) of all CPUs used by other processes meanwhile ({@link CpuMeter});
     *                             NaN (null in the JSON) when it cannot be measured
     */
    public record SectionContention(String section, double seconds, double othersCpuFraction) {}

    /**
     * @param rows        trades rows generated
     * @param seed        generator seed
     * @param threads     query threads in numacube and in DuckDB
     * @param quick       whether this was a --quick run
     * @param sections    sections run
     * @param warmups     untimed runs before the timed ones, per query
     * @param repetitions timed runs per query (fewer for slow queries, see timeBudgetSeconds)
     * @param timeBudgetSeconds about how long one engine's timed runs of one query may take; a slow query gets as
     *                    many runs as fit, at least 3 (each figure's summary has its count)
     * @param sectionRows rows of the policy, scaling and stability sections
     * @param engine      what was measured as "numacube" (the engine and its NUMA path, or the bare loop)
     * @param warmupSeconds least seconds of warm-up per query and engine
     */
    public record Settings(
            long rows,
            long seed,
            int threads,
            boolean quick,
            List<String> sections,
            int warmups,
            int repetitions,
            double timeBudgetSeconds,
            long sectionRows,
            String engine,
            double warmupSeconds) {
        public Settings {
            sections = List.copyOf(sections);
        }
    }

    /** One probe configuration: threads, bytes read per pass, GB/s over the passes and the best pass. */
    public record ProbeFigure(int threads, long bytes, Summary gbPerSecond, double bestGbPerSecond) {}

    /**
     * @param kernel     what the probe loop is
     * @param threading  how its threads were placed
     * @param oneThread  1 thread
     * @param allThreads the bench's thread count
     */
    public record Probe(String kernel, String threading, ProbeFigure oneThread, ProbeFigure allThreads) {}

    /** A load: seconds and rows/s. */
    public record Load(double seconds, double rowsPerSecond) {}

    /**
     * Timings of one engine on one query.
     *
     * @param seconds         summary of the timed runs
     * @param medianSeconds   seconds.median, repeated for readers of the JSON
     * @param rowsPerSecond   fact rows / median seconds
     * @param gbPerSecond     bytes of the columns read / median seconds, GB/s
     * @param fractionOfProbe gbPerSecond / the probe's best all-threads GB/s (0 when there was no probe)
     */
    public record Timing(
            Summary seconds, double medianSeconds, double rowsPerSecond, double gbPerSecond, double fractionOfProbe) {

        /** The timing of an engine that failed the query: every figure NaN (null in the JSON), no samples. */
        public static Timing failed() {
            double nan = Double.NaN;
            return new Timing(new Summary(0, nan, nan, nan, nan, nan, nan), nan, nan, nan, nan);
        }

        /** The timing of runs that took {@code seconds}, over {@code rows} rows and {@code bytes} bytes. */
        public static Timing of(Summary seconds, long rows, long bytes, double probeGbPerSecond) {
            double gbs = bytes / seconds.median() / 1e9;
            return new Timing(
                    seconds,
                    seconds.median(),
                    rows / seconds.median(),
                    gbs,
                    probeGbPerSecond > 0 ? gbs / probeGbPerSecond : 0);
        }
    }

    /**
     * numacube's own counters for one query run (from its result statistics).
     *
     * @param rowsScanned    rows of the morsels read (skipped morsels not included)
     * @param bytesRead      bytes of columns the scan read
     * @param morsels        morsels run
     * @param morselsHome    morsels run on their partition's home node
     * @param morselsStolen  morsels run by another node's worker
     * @param morselsSkipped morsels skipped by zone maps
     * @param plan           the physical plan in words
     */
    public record EngineStats(
            long rowsScanned,
            long bytesRead,
            long morsels,
            long morselsHome,
            long morselsStolen,
            long morselsSkipped,
            String plan) {}

    /**
     * One reference query in both engines.
     *
     * @param id                      Q1..Q6
     * @param title                   short description
     * @param sql                     the SQL both engines ran
     * @param bytesRead               bytes of the fact columns it reads, at numacube's stored widths
     * @param numacube                numacube's timings
     * @param duckdb                  DuckDB's timings, default settings
     * @param duckdbTuned             DuckDB's timings with {@code duckdbTuning}, or null when not run for this query
     * @param duckdbTuning            the setting used for duckdbTuned, or null
     * @param speedupVsDuckdb         DuckDB median / numacube median
     * @param speedupVsDuckdbTuned    DuckDB tuned median / numacube median, or null
     * @param numacubeFractionOfProbe numacube's GB/s / the probe's best GB/s at the same thread count
     * @param check                   "OK", or "FAILED: " and the first difference between the answers
     * @param numacubeStats           numacube's counters of its last run, or null
     * @param bareLoop                the bench's plain-loop baseline on the same rows (no planner, no morsels, no
     *                                placement), or null when not run: what the engine's overhead costs
     * @param bareLoopCheck           "OK", or "FAILED: " and the first difference from DuckDB's answer; null when
     *                                the baseline was not run
     * @param otherPeers              the same query in each peer of {@link Peers#otherPeers()} that ran (ClickHouse,
     *                                Polars, ...), timed right after DuckDB; empty when none ran
     */
    public record QueryFigures(
            String id,
            String title,
            String sql,
            long bytesRead,
            Timing numacube,
            Timing duckdb,
            Timing duckdbTuned,
            String duckdbTuning,
            double speedupVsDuckdb,
            Double speedupVsDuckdbTuned,
            double numacubeFractionOfProbe,
            String check,
            EngineStats numacubeStats,
            Timing bareLoop,
            String bareLoopCheck,
            List<OtherPeerFigures> otherPeers) {

        public QueryFigures {
            otherPeers = List.copyOf(otherPeers);
        }

        /** The figures without other peers. */
        public QueryFigures(
                String id,
                String title,
                String sql,
                long bytesRead,
                Timing numacube,
                Timing duckdb,
                Timing duckdbTuned,
                String duckdbTuning,
                double speedupVsDuckdb,
                Double speedupVsDuckdbTuned,
                double numacubeFractionOfProbe,
                String check,
                EngineStats numacubeStats,
                Timing bareLoop,
                String bareLoopCheck) {
            this(
                    id,
                    title,
                    sql,
                    bytesRead,
                    numacube,
                    duckdb,
                    duckdbTuned,
                    duckdbTuning,
                    speedupVsDuckdb,
                    speedupVsDuckdbTuned,
                    numacubeFractionOfProbe,
                    check,
                    numacubeStats,
                    bareLoop,
                    bareLoopCheck,
                    List.of());
        }

        /** Whether numacube's answer, the baseline's (when run) or another peer's differed from DuckDB's. */
        public boolean failed() {
            return !"OK".equals(check)
                    || bareLoopCheck != null && !"OK".equals(bareLoopCheck)
                    || otherPeers.stream().anyMatch(o -> !"OK".equals(o.check()));
        }

        /** This query's figures in {@code engine}, or null when that peer did not run. */
        public OtherPeerFigures otherPeer(String engine) {
            return otherPeers.stream()
                    .filter(o -> o.engine().equals(engine))
                    .findFirst()
                    .orElse(null);
        }

        /**
         * The targets of the bench issue for this query: Q1–Q3 at least 10x DuckDB and 80% of the probe; Q6 (issue
         * 10) at least 10x DuckDB; Q4, Q5 at least 3x DuckDB (default settings). One line each, "met" or "NOT met"
         * with the figures.
         */
        public List<String> targets() {
            List<String> out = new java.util.ArrayList<>();
            boolean scan = id.equals("Q1") || id.equals("Q2") || id.equals("Q3");
            double needSpeedup = scan || id.equals("Q6") ? 10 : 3;
            out.add(String.format(
                    java.util.Locale.ROOT,
                    "%s >= %.0fx DuckDB: %s (%.1fx)",
                    id,
                    needSpeedup,
                    speedupVsDuckdb >= needSpeedup ? "met" : "NOT met",
                    speedupVsDuckdb));
            if (scan) {
                double f = fractionOfProbeOnBytesRead();
                out.add(String.format(
                        java.util.Locale.ROOT,
                        "%s >= 80%% of the probe (on the bytes it read): %s" + " (%.0f%%)",
                        id,
                        f >= 0.8 ? "met" : "NOT met",
                        100 * f));
            }
            return out;
        }

        /**
         * numacube's bandwidth as a fraction of the probe, counting only the column bytes its scan really read
         * (morsels skipped by zone maps read nothing, so counting whole columns would flatter a pruned query).
         */
        public double fractionOfProbeOnBytesRead() {
            if (numacubeStats == null || bytesRead <= 0) {
                return numacubeFractionOfProbe;
            }
            return numacubeFractionOfProbe * Math.min(1.0, (double) numacubeStats.bytesRead() / bytesRead);
        }

        /** numacube's median time over the bare loop's (1.0 = no overhead), or null without the baseline. */
        public Double overheadVsBareLoop() {
            return bareLoop == null ? null : numacube.medianSeconds() / bareLoop.medianSeconds();
        }
    }

    /**
     * Q1 over trades whose pnl is NULL in a share of the rows (the same rows otherwise), in both engines, against
     * numacube's Q1 on the null-free trades timed right after it, so that both figures come from the same minutes.
     *
     * @param id                       "Q1-NULL"
     * @param sql                      the SQL both engines ran (Q1's text, over the NULL trades)
     * @param pnlNullFraction          the share of rows asked to have a NULL pnl (0.1: 10%)
     * @param numacube                 numacube's timings on the NULL trades
     * @param numacubeNullFree         numacube's Q1 timings on the null-free trades, taken right after
     * @param duckdb                   DuckDB's timings on the NULL trades
     * @param slowdownVsNullFree       numacube NULL median / numacube null-free median (target: at most 1.3)
     * @param duckdbSlowdownVsNullFree DuckDB NULL median / DuckDB's Q1 median in the peer table, for comparison
     * @param speedupVsDuckdb          DuckDB median / numacube median, both on the NULL trades
     * @param check                    "OK", or "FAILED: " and the first difference between the answers
     */
    public record NullVariant(
            String id,
            String sql,
            double pnlNullFraction,
            Timing numacube,
            Timing numacubeNullFree,
            Timing duckdb,
            double slowdownVsNullFree,
            double duckdbSlowdownVsNullFree,
            double speedupVsDuckdb,
            String check) {

        /** The target: numacube's Q1 on the NULL trades at most 1.3x its null-free time. */
        public String target() {
            return String.format(
                    java.util.Locale.ROOT,
                    "%s (%.0f%% NULL pnl) <= 1.3x Q1's null-free time: %s (%.2fx)",
                    id,
                    100 * pnlNullFraction,
                    slowdownVsNullFree <= 1.3 ? "met" : "NOT met",
                    slowdownVsNullFree);
        }
    }

    /**
     * A peer beside DuckDB, run from Python on the same rows (written once as Parquet files) with the same threads:
     * ClickHouse (chDB), Polars, and DuckDB's Python package as a check of what the Python route costs.
     *
     * @param engine  its name ("clickhouse", "polars", "duckdb-python")
     * @param version its version in words; null when skipped
     * @param layout  how its tables are laid out and queried; null when skipped
     * @param load    seconds and rows/s to load the Parquet files into that layout; null when skipped
     * @param skipped null when it ran, else why it did not (no Python, no venv, registry out of reach, a failed load)
     */
    public record OtherPeer(String engine, String version, String layout, Load load, String skipped) {}

    /**
     * One query in one {@link OtherPeer}.
     *
     * @param engine        the peer's name
     * @param timing        its timings ({@link Timing#failed()} when it failed the query)
     * @param speedupVsPeer the peer's median / numacube's median (how many times faster numacube is); NaN when failed
     * @param check         "OK" when its answer equals DuckDB's (and so numacube's, when that is OK), else "FAILED: "
     *                      with the query, the peer and the first differing row, or why it failed
     */
    public record OtherPeerFigures(String engine, Timing timing, double speedupVsPeer, String check) {}

    /**
     * @param rows          fact rows
     * @param numacubeLoad  generate + place in numacube
     * @param duckdbLoad    the same rows appended into DuckDB's own tables
     * @param duckdbVersion DuckDB's version()
     * @param duckdbLoadPath how the rows went into DuckDB
     * @param measuredOn    the CPU (model, vector extensions, caches) and the probe's bandwidth at the bench's threads,
     *                      beside the figures so that they are never read without them
     * @param otherPeers    the peers beside DuckDB (ClickHouse, Polars, ...), each ran or skipped with the reason
     * @param queries       Q1..Q6
     * @param nullPnl       Q1 with NULL pnl, or null when not run (an engine without NULLs, the bare loop)
     * @param targets       the speed targets, one line each with "met" / "NOT met" and the figures
     */
    public record Peers(
            long rows,
            Load numacubeLoad,
            Load duckdbLoad,
            String duckdbVersion,
            String duckdbLoadPath,
            String measuredOn,
            List<OtherPeer> otherPeers,
            List<QueryFigures> queries,
            NullVariant nullPnl,
            List<String> targets) {
        public Peers {
            otherPeers = List.copyOf(otherPeers);
            queries = List.copyOf(queries);
            targets = List.copyOf(targets);
        }

        /** The figures, without a NULL variant, with the targets computed from them. */
        public static Peers of(
                long rows,
                Load numacubeLoad,
                Load duckdbLoad,
                String duckdbVersion,
                String duckdbLoadPath,
                List<QueryFigures> queries) {
            return of(rows, numacubeLoad, duckdbLoad, duckdbVersion, duckdbLoadPath, "", List.of(), queries, null);
        }

        /** The figures with the targets computed from them; {@code nullPnl} may be null. */
        public static Peers of(
                long rows,
                Load numacubeLoad,
                Load duckdbLoad,
                String duckdbVersion,
                String duckdbLoadPath,
                String measuredOn,
                List<OtherPeer> otherPeers,
                List<QueryFigures> queries,
                NullVariant nullPnl) {
            List<String> targets = new java.util.ArrayList<>();
            queries.forEach(q -> targets.addAll(q.targets()));
            if (nullPnl != null) {
                targets.add(nullPnl.target());
            }
            return new Peers(
                    rows,
                    numacubeLoad,
                    duckdbLoad,
                    duckdbVersion,
                    duckdbLoadPath,
                    measuredOn,
                    otherPeers,
                    queries,
                    nullPnl,
                    targets);
        }

        /** The peers beside DuckDB that were skipped, each with why. */
        public List<OtherPeer> skippedPeers() {
            return otherPeers.stream().filter(o -> o.skipped() != null).toList();
        }

        /** Whether every answer (every peer's, and the NULL variant's, when run) equalled DuckDB's. */
        public boolean allEqual() {
            return queries.stream().noneMatch(QueryFigures::failed)
                    && (nullPnl == null || "OK".equals(nullPnl.check()));
        }
    }

    /** Throughput of {@code streams} concurrent query streams over {@code seconds}. */
    public record PolicyPoint(int streams, int queries, double seconds, double queriesPerSecond) {}

    /** One placement policy: its load and its throughput curve. */
    public record PolicySeries(String policy, String description, double loadSeconds, List<PolicyPoint> points) {
        public PolicySeries {
            points = List.copyOf(points);
        }
    }

    /**
     * @param note   what this machine can show (one node: all policies are the same memory)
     * @param nodes  NUMA nodes used
     * @param mix    the queries each stream runs, in turn
     * @param series one per policy
     */
    public record Policies(String note, int nodes, List<String> mix, List<PolicySeries> series) {
        public Policies {
            mix = List.copyOf(mix);
            series = List.copyOf(series);
        }
    }

    /**
     * One scaling point.
     *
     * @param threads    query threads
     * @param nodes      nodes used
     * @param rows       fact rows
     * @param seconds    summary of the timed runs of the query mix
     * @param speedup    Amdahl: time at 1 thread / time here; Gustafson: scaled speedup rows/rows1 * t1/t
     * @param efficiency speedup / threads
     * @param serialFraction Karp–Flatt metric {@code (1/speedup - 1/threads) / (1 - 1/threads)}: the serial share
     *                   of the work these figures imply (Amdahl's s; NaN at 1 thread). Growing with threads means
     *                   overhead grows (contention, shared bandwidth), not a fixed serial part
     */
    public record ScalePoint(
            int threads,
            int nodes,
            long rows,
            Summary seconds,
            double speedup,
            double efficiency,
            double serialFraction) {

        /** The point with its Karp–Flatt serial fraction computed. */
        public static ScalePoint of(int threads, int nodes, long rows, Summary seconds, double speedup) {
            double karpFlatt = threads <= 1 ? Double.NaN : (1 / speedup - 1.0 / threads) / (1 - 1.0 / threads);
            return new ScalePoint(threads, nodes, rows, seconds, speedup, speedup / threads, karpFlatt);
        }
    }

    /**
     * @param note      how this machine scales (by cores on a one-node machine)
     * @param dimension "cores" or "nodes"
     * @param mix       queries timed together at each point
     * @param amdahl    fixed data, more threads
     * @param gustafson data grows with threads
     */
    public record Scaling(
            String note, String dimension, List<String> mix, List<ScalePoint> amdahl, List<ScalePoint> gustafson) {
        public Scaling {
            mix = List.copyOf(mix);
            amdahl = List.copyOf(amdahl);
            gustafson = List.copyOf(gustafson);
        }
    }

    /**
     * One configuration repeated on fresh cubes.
     *
     * @param configuration  placement and threads
     * @param repeats        fresh cubes (each loaded again)
     * @param perRepeat      median seconds of the query mix on each cube
     * @param acrossRepeats  summary of perRepeat: its cv is the run-to-run variation
     * @param withinRepeats  mean cv of the timed runs inside one cube
     */
    public record StabilityRow(
            String configuration, int repeats, List<Double> perRepeat, Summary acrossRepeats, double withinRepeats) {
        public StabilityRow {
            perRepeat = List.copyOf(perRepeat);
        }
    }

    /**
     * Moving partitions between nodes while serving (issue 13): every partition moved by the copy path a cube uses
     * when it follows the machine.
     *
     * @param note                  what was measured and its caveats (on one node: a copy within the node)
     * @param rows                  trades rows of the cube
     * @param dataNodes             the cube's data nodes
     * @param bytesPerPass          partition bytes moved by one pass
     * @param gbPerSecond           the passes' throughput (10^9 bytes/s), no rate limit, no queries running
     * @param rateBytesPerSecond    the rate limit of {@code duringLimited} (serve's default {@code --migrate-rate})
     * @param idle                  query latency with nothing moving
     * @param duringLimited         query latency while partitions move at {@code rateBytesPerSecond}
     * @param duringUnlimited       query latency while partitions move without a limit
     */
    public record Migration(
            String note,
            long rows,
            List<Integer> dataNodes,
            long bytesPerPass,
            Summary gbPerSecond,
            long rateBytesPerSecond,
            QueryLatency idle,
            QueryLatency duringLimited,
            QueryLatency duringUnlimited) {
        public Migration {
            dataNodes = List.copyOf(dataNodes);
        }
    }

    /**
     * One client's latency of one query over a phase.
     *
     * @param phase       idle, or moving (and at what rate)
     * @param queries     queries answered
     * @param p50Ms       median, milliseconds
     * @param p99Ms       99th percentile, milliseconds
     * @param maxMs       slowest, milliseconds
     * @param bytesMoved  partition bytes moved meanwhile
     * @param passes      passes over every partition finished meanwhile
     */
    public record QueryLatency(
            String phase, int queries, double p50Ms, double p99Ms, double maxMs, long bytesMoved, int passes) {}

    /** Run-to-run variation, placed vs OS default. */
    public record Stability(String note, List<String> mix, List<StabilityRow> rows) {
        public Stability {
            mix = List.copyOf(mix);
            rows = List.copyOf(rows);
        }
    }

    /**
     * One way of loading the trades files into a table, timed run by run in turn with the others.
     *
     * @param engine        numacube or DuckDB
     * @param format        Parquet or CSV
     * @param how           what was timed
     * @param seconds       wall seconds of each run: reading the file until the table is queryable
     * @param readSeconds   numacube: the seconds of each run spent reading and staging the file (the rest places the
     *                      rows); null for DuckDB
     * @param rowsPerSecond rows divided by the median seconds
     */
    public record FileLoad(
            String engine, String format, String how, Summary seconds, Summary readSeconds, double rowsPerSecond) {}

    /**
     * Loading the same trades from a Parquet and a CSV file (both written by DuckDB), by numacube and by DuckDB, with
     * the same threads, in one run; ratios are of median rows per second (above 1: numacube's Parquet load is faster).
     *
     * @param rows            trades in each file
     * @param threads         numacube's workers and DuckDB's threads
     * @param parquetBytes    the Parquet file's size (DuckDB's default: snappy, row groups of 122,880 rows)
     * @param csvBytes        the CSV file's size
     * @param loads           numacube Parquet, numacube CSV, DuckDB Parquet, DuckDB CSV
     * @param parquetVsCsv    numacube from Parquet ÷ numacube from CSV
     * @param parquetVsDuckdb numacube from Parquet ÷ DuckDB's {@code read_parquet}
     * @param csvVsDuckdb     numacube from CSV ÷ DuckDB's {@code read_csv}
     */
    public record FileLoads(
            long rows,
            int threads,
            long parquetBytes,
            long csvBytes,
            List<FileLoad> loads,
            double parquetVsCsv,
            double parquetVsDuckdb,
            double csvVsDuckdb) {
        public FileLoads {
            loads = List.copyOf(loads);
        }
    }
}
