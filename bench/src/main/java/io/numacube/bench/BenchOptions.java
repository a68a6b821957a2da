package io.numacube.bench;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What one bench run is asked to do. Immutable; {@link #quick(boolean, Long, Integer, Set, Path, Path)} derives the
 * sizes from the few options the command line has.
 *
 * @param quick            smoke-test sizes (about a minute on a 2-core machine); numbers are not to be judged
 * @param rows             trades rows for the peer comparison
 * @param sectionRows      trades rows for policies, scaling and stability (smaller in quick runs)
 * @param seed             generator seed
 * @param threads          query threads for numacube and DuckDB
 * @param sections         sections to run
 * @param jsonFile         where to write the JSON report, or null
 * @param chartsDir        where to write PNG charts, or null for none
 * @param probeBytes       bytes of the probe's array
 * @param warmups          untimed runs per query
 * @param repetitions      timed runs per query
 * @param streamSeconds    seconds each concurrent-stream point runs
 * @param stabilityRepeats fresh cubes per stability configuration
 * @param warmupSeconds    least seconds of warm-up runs per query and engine (JIT: see BenchRunner)
 * @param timeBudgetSeconds about how long the timed runs of one query in one engine may take: slow queries get
 *                         fewer runs (at least 3)
 * @param tpchScaleFactor  the tpch section's TPC-H scale factor (1 by default, {@value #QUICK_TPCH_SF} with quick)
 * @param tpchDir          where the tpch section caches its generated files ({@code sf<SF>/} below it)
 * @param serve            the serve section's sizes and durations
 * @param peersVenv        the Python environment of the peers beside DuckDB (ClickHouse, Polars), created there once;
 *                         null leaves those peers out of the run (tests), where a missing Python only skips them
 */
public record BenchOptions(
        boolean quick,
        long rows,
        long sectionRows,
        long seed,
        int threads,
        Set<Section> sections,
        Path jsonFile,
        Path chartsDir,
        long probeBytes,
        int warmups,
        int repetitions,
        double streamSeconds,
        int stabilityRepeats,
        double warmupSeconds,
        double timeBudgetSeconds,
        double tpchScaleFactor,
        Path tpchDir,
        Serve serve,
        Path peersVenv) {

    /** The sections of a run, in the order they run. */
    public enum Section {
        PROBE,
        PEERS,
        POLICIES,
        SCALING,
        STABILITY,
        /** Loading the trades from Parquet and CSV files, numacube against DuckDB. */
        LOAD,
        /** TPC-H (issue 16): the 22 queries, numacube against DuckDB, and loading its files. */
        TPCH,
        /**
         * numacube serve (issue 11): Q1-Q5 embedded against HTTP and pgwire, readers idle and beside a durable writer,
         * the time from a write's acknowledgement to its visibility.
         */
        SERVE,
        /**
         * Following the machine (issue 13): partitions moved by the copy path (GB/s), query p99 during a move against
         * idle.
         */
        MIGRATION;

        /** Parses "probe", "peers", ... (case-insensitive). */
        public static Section parse(String name) {
            try {
                return valueOf(name.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown bench section: section=" + name
                        + " — use probe, peers, policies, scaling, stability, load, tpch, serve, migration");
            }
        }
    }

    public static final long DEFAULT_ROWS = 100_000_000L;
    public static final long QUICK_ROWS = 4_000_000L;
    /** The TPC-H scale factor of a quick run: 60,000 lineitem rows. */
    public static final double QUICK_TPCH_SF = 0.01;
    /** Where the command line caches TPC-H files unless told otherwise. */
    public static final Path DEFAULT_TPCH_DIR = Path.of("build", "tpch");

    /**
     * The serve section's settings.
     *
     * @param rows         trades rows the server holds at its start
     * @param readers      reader threads looping Q1-Q5 over HTTP
     * @param phaseSeconds how long the readers run idle, and again beside the writer
     * @param batchRows    rows per batch the writer posts
     */
    public record Serve(long rows, int readers, double phaseSeconds, int batchRows) {

        /** The serve section's rows unless told: 5M (issue 11's measurements were over 5M trades). */
        public static final long DEFAULT_ROWS = 5_000_000L;
        /** The rows of a quick run. */
        public static final long QUICK_ROWS = 300_000L;

        public Serve {
            if (rows < 1000 || readers < 1 || !(phaseSeconds > 0) || batchRows < 1) {
                throw new IllegalArgumentException("the serve section needs at least 1000 rows, one reader, a positive"
                        + " duration and batch: rows=" + rows + " readers=" + readers + " seconds=" + phaseSeconds
                        + " batch-rows=" + batchRows);
            }
        }

        /** The defaults: 5M rows (300k quick), 2 readers, 8 s phases (1 s quick), 10,000-row batches. */
        public static Serve defaults(boolean quick) {
            return new Serve(quick ? QUICK_ROWS : DEFAULT_ROWS, 2, quick ? 1 : 8, 10_000);
        }
    }

    public BenchOptions {
        sections = sections.isEmpty() ? EnumSet.noneOf(Section.class) : EnumSet.copyOf(sections);
        if (rows < 1000 || sectionRows < 1000) {
            throw new IllegalArgumentException(
                    "bench needs at least 1000 rows: rows=" + rows + " sectionRows=" + sectionRows);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("bench needs at least one thread: threads=" + threads);
        }
        if (!(tpchScaleFactor > 0)) {
            throw new IllegalArgumentException("a TPC-H scale factor is positive: tpchScaleFactor=" + tpchScaleFactor);
        }
    }

    /** The options without the Python peers (see {@link #peersVenv()}). */
    public BenchOptions(
            boolean quick,
            long rows,
            long sectionRows,
            long seed,
            int threads,
            Set<Section> sections,
            Path jsonFile,
            Path chartsDir,
            long probeBytes,
            int warmups,
            int repetitions,
            double streamSeconds,
            int stabilityRepeats,
            double warmupSeconds,
            double timeBudgetSeconds,
            double tpchScaleFactor,
            Path tpchDir,
            Serve serve) {
        this(
                quick,
                rows,
                sectionRows,
                seed,
                threads,
                sections,
                jsonFile,
                chartsDir,
                probeBytes,
                warmups,
                repetitions,
                streamSeconds,
                stabilityRepeats,
                warmupSeconds,
                timeBudgetSeconds,
                tpchScaleFactor,
                tpchDir,
                serve,
                null);
    }

    /**
     * The options without the tpch section's settings: the quick scale factor, cached under the temporary
     * directory (for tests and callers that do not run that section at full size).
     */
    public BenchOptions(
            boolean quick,
            long rows,
            long sectionRows,
            long seed,
            int threads,
            Set<Section> sections,
            Path jsonFile,
            Path chartsDir,
            long probeBytes,
            int warmups,
            int repetitions,
            double streamSeconds,
            int stabilityRepeats,
            double warmupSeconds,
            double timeBudgetSeconds) {
        this(
                quick,
                rows,
                sectionRows,
                seed,
                threads,
                sections,
                jsonFile,
                chartsDir,
                probeBytes,
                warmups,
                repetitions,
                streamSeconds,
                stabilityRepeats,
                warmupSeconds,
                timeBudgetSeconds,
                QUICK_TPCH_SF,
                Path.of(System.getProperty("java.io.tmpdir"), "numacube-tpch"),
                new Serve(Math.min(rows, Serve.QUICK_ROWS), 2, Math.max(0.2, streamSeconds), 10_000));
    }

    /** These options with the tpch section at {@code scaleFactor}, its files cached under {@code dir}. */
    public BenchOptions withTpch(double scaleFactor, Path dir) {
        return new BenchOptions(
                quick,
                rows,
                sectionRows,
                seed,
                threads,
                sections,
                jsonFile,
                chartsDir,
                probeBytes,
                warmups,
                repetitions,
                streamSeconds,
                stabilityRepeats,
                warmupSeconds,
                timeBudgetSeconds,
                scaleFactor,
                dir,
                serve,
                peersVenv);
    }

    /** These options with the serve section's settings {@code settings}. */
    public BenchOptions withServe(Serve settings) {
        return new BenchOptions(
                quick,
                rows,
                sectionRows,
                seed,
                threads,
                sections,
                jsonFile,
                chartsDir,
                probeBytes,
                warmups,
                repetitions,
                streamSeconds,
                stabilityRepeats,
                warmupSeconds,
                timeBudgetSeconds,
                tpchScaleFactor,
                tpchDir,
                settings,
                peersVenv);
    }

    /**
     * Options from the command line: {@code rows} and {@code threads} may be null (defaults: 100M rows, or 4M with
     * quick; every available CPU).
     */
    public static BenchOptions quick(
            boolean quick, Long rows, Integer threads, Set<Section> sections, Path jsonFile, Path chartsDir) {
        long r = rows != null ? rows : quick ? QUICK_ROWS : DEFAULT_ROWS;
        int t = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        long sectionRows = quick ? Math.min(r, 1_000_000L) : Math.min(r, 20_000_000L);
        return new BenchOptions(
                quick,
                r,
                sectionRows,
                42,
                t,
                sections == null || sections.isEmpty() ? EnumSet.allOf(Section.class) : sections,
                jsonFile,
                chartsDir,
                quick ? 256L << 20 : 2L << 30,
                quick ? 2 : 3,
                quick ? 5 : 10,
                quick ? 0.4 : 4.0,
                3,
                quick ? 0.5 : 2.0,
                quick ? 2.0 : 15.0,
                quick ? QUICK_TPCH_SF : 1,
                DEFAULT_TPCH_DIR,
                Serve.defaults(quick),
                io.numacube.bench.peer.PeerVenv.DEFAULT_DIR);
    }
}
