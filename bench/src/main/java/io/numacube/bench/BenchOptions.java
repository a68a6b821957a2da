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
        double timeBudgetSeconds) {

    /** The sections of a run, in the order they run. */
    public enum Section {
        PROBE,
        PEERS,
        POLICIES,
        SCALING,
        STABILITY,
        /** Loading the trades from Parquet and CSV files, numacube against DuckDB. */
        LOAD;

        /** Parses "probe", "peers", ... (case-insensitive). */
        public static Section parse(String name) {
            try {
                return valueOf(name.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown bench section: section=" + name
                        + " — use probe, peers, policies, scaling, stability, load");
            }
        }
    }

    public static final long DEFAULT_ROWS = 100_000_000L;
    public static final long QUICK_ROWS = 4_000_000L;

    public BenchOptions {
        sections = sections.isEmpty() ? EnumSet.noneOf(Section.class) : EnumSet.copyOf(sections);
        if (rows < 1000 || sectionRows < 1000) {
            throw new IllegalArgumentException(
                    "bench needs at least 1000 rows: rows=" + rows + " sectionRows=" + sectionRows);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("bench needs at least one thread: threads=" + threads);
        }
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
                quick ? 2.0 : 15.0);
    }
}
