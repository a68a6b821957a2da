package io.numacube.engine.fuzz;

/**
 * The knobs of a fuzz run, read from system properties so that a run can be replayed from the command line:
 * {@code -Dfuzz.seed}, {@code -Dfuzz.queries}, {@code -Dfuzz.nulls}, {@code -Dfuzz.query} (replay one differential
 * query) and {@code -Dfuzz.tlp} (replay one TLP check). {@code -Dfuzz.correlated} (percent of the aggregations over
 * {@code f} alone with a correlated subquery term, {@link QueryGenerator#CORRELATED_PERCENT}) is read by the
 * generator and must be given again to replay. Immutable.
 *
 * @param seed        the run's seed; data set {@code d} and query {@code q} derive their own seeds from it
 * @param queries     differential queries to compare with DuckDB
 * @param nulls       NULLs in the data (up to 30 % per column) and NULL constructs (IS NULL, IS NOT NULL, COALESCE)
 *                    in the queries; on unless {@code -Dfuzz.nulls=false}
 * @param onlyQuery   the one differential query to run (a replay), or -1 for all
 * @param onlyTlp     the one TLP check to run (a replay), or -1 for all
 * @param tlpChecks   TLP checks to run (each is four queries on numacube alone)
 */
public record FuzzSettings(long seed, int queries, boolean nulls, long onlyQuery, long onlyTlp, int tlpChecks) {

    /** Fixed, so that CI runs the same queries every time. */
    public static final long DEFAULT_SEED = 20_261_124L;

    public static final int DEFAULT_QUERIES = 1200;

    public static final int DEFAULT_TLP_CHECKS = 240;

    /** Differential queries per data set: query {@code q} runs on data set {@code q / QUERIES_PER_DATASET}. */
    public static final int QUERIES_PER_DATASET = 150;

    /** TLP checks per data set: check {@code t} runs on data set {@code t / TLP_PER_DATASET}. */
    public static final int TLP_PER_DATASET = 30;

    /** The settings the system properties give, defaults for those not set. */
    public static FuzzSettings fromSystemProperties() {
        return new FuzzSettings(
                Long.getLong("fuzz.seed", DEFAULT_SEED),
                Integer.getInteger("fuzz.queries", DEFAULT_QUERIES),
                Boolean.parseBoolean(System.getProperty("fuzz.nulls", "true")),
                Long.getLong("fuzz.query", -1L),
                Long.getLong("fuzz.tlp", -1L),
                Integer.getInteger("fuzz.tlpChecks", DEFAULT_TLP_CHECKS));
    }

    /** The seed of data set {@code dataset}: a mix of the run seed and the index, so data sets differ. */
    public long datasetSeed(int dataset) {
        return mix(seed, 0x5A17L + dataset);
    }

    /** The seed of differential query {@code query} (a global index over all data sets). */
    public long querySeed(long query) {
        return mix(seed, 0xC0FFEE00L + query);
    }

    /** The seed of TLP check {@code check}. */
    public long tlpSeed(long check) {
        return mix(seed, 0x71E00000L + check);
    }

    /** A one-line command that replays differential query {@code query} of this run. */
    public String replayQuery(long query) {
        return replay("-Dfuzz.query=" + query);
    }

    /** A one-line command that replays TLP check {@code check} of this run. */
    public String replayTlp(long check) {
        return replay("-Dfuzz.tlp=" + check);
    }

    private String replay(String which) {
        return "mvn -o -B -pl engine -am test -Dtest=RandomQueryTest -Dsurefire.failIfNoSpecifiedTests=false"
                + " -Dfuzz.seed=" + seed + " " + which + (nulls ? "" : " -Dfuzz.nulls=false");
    }

    /** SplitMix64's finaliser over {@code a} and {@code b}: close seeds give unrelated streams. */
    static long mix(long a, long b) {
        long z = a * 0x9E3779B97F4A7C15L + b;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
