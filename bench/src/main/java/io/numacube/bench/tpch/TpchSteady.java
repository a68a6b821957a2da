package io.numacube.bench.tpch;

import io.numacube.bench.Progress;
import io.numacube.bench.engine.EngineCube;
import io.numacube.bench.peer.DuckDbPeer;
import io.numacube.bench.peer.ResultComparison;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * A quick steady-state A/B of a few TPC-H queries, without the whole tpch section: loads only the tables the queries
 * name from a cached {@link TpchData}'s Parquet files into a cube and into DuckDB, checks each answer equal to
 * DuckDB's, then times each query {@code rounds} times in turn with DuckDB (the order rotating) and prints, per
 * query, the best of each engine, their ratio, the median CPU time of the thread that ran numacube's query (the
 * planning, serial; the workers' is not counted) and of all the JVM's threads during it (the workers' too, and
 * whatever else the JVM ran meanwhile: less noisy than wall time on a shared machine) and numacube's profile (phases, bytes, plan). With the system property
 * {@value #TOGGLE} naming a boolean system property of the engine, numacube runs twice per round, that property
 * {@code false} then {@code true} in turn (an A/B of one process), and both are reported. Stdout only; exit status 1
 * when an answer differs. Not thread-safe: one run.
 *
 * <p>Usage: {@code TpchSteady <cache root> <scale factor> <threads> <rounds> <query number>...}
 */
public final class TpchSteady {

    /** The system property naming an engine property to time off and on in turn. */
    public static final String TOGGLE = "tpch.toggle";

    private TpchSteady() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: TpchSteady <cache root> <scale factor> <threads> <rounds> <query number>...");
            System.exit(2);
        }
        Progress progress = new Progress(System.err);
        int threads = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        TpchData data = TpchData.ensure(Path.of(args[0]), Double.parseDouble(args[1]), threads, progress);
        int[] queries =
                Arrays.stream(args, 4, args.length).mapToInt(Integer::parseInt).toArray();
        Set<String> tables = new TreeSet<>();
        for (int q : queries) {
            tables.addAll(TpchQuery.of(q).tables(false));
        }
        boolean same = true;
        try (TpchCube cube = TpchCube.open(data, threads);
                DuckDbPeer duck = DuckDbPeer.open(threads)) {
            for (String t : tables) {
                cube.loadParquet(TpchSchema.of(t));
                duck.execute("CREATE TABLE " + t + " AS SELECT * FROM read_parquet('" + data.parquet(t) + "')");
            }
            for (int q : queries) {
                same &= time(TpchQuery.of(q), cube, duck, rounds);
            }
        }
        System.exit(same ? 0 : 1);
    }

    /**
     * Runs numacube's query once: its wall time, the CPU time of this (the calling) thread and that of all the JVM's
     * threads during it, in nanoseconds.
     */
    private static long[] measure(TpchCube cube, String sql, java.lang.management.ThreadMXBean threads)
            throws Exception {
        long p0 = allThreadsCpu(threads);
        long t0 = System.nanoTime();
        long c0 = threads.getCurrentThreadCpuTime();
        cube.query(sql);
        long c1 = threads.getCurrentThreadCpuTime();
        long t1 = System.nanoTime();
        return new long[] {t1 - t0, c1 - c0, allThreadsCpu(threads) - p0};
    }

    /** The CPU time of every live thread of the JVM, summed (nanoseconds; a thread that ended meanwhile is lost). */
    private static long allThreadsCpu(java.lang.management.ThreadMXBean threads) {
        long sum = 0;
        for (long id : threads.getAllThreadIds()) {
            sum += Math.max(0, threads.getThreadCpuTime(id));
        }
        return sum;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : sorted[sorted.length / 2];
    }

    /** Checks numacube's answer to {@code q} still equals DuckDB's (after a setting changed). */
    private static void same(DuckDbPeer duck, String sql, TpchQuery q, TpchCube cube) throws Exception {
        ResultComparison cmp = ResultComparison.compare(
                duck.fetch(sql).table(),
                EngineCube.table(cube.query(sql)),
                q.ordered(),
                ResultComparison.SUM_TOLERANCE);
        if (!cmp.equal()) {
            throw new IllegalStateException(q.id() + " differs from DuckDB: " + cmp.difference());
        }
    }

    private static boolean time(TpchQuery q, TpchCube cube, DuckDbPeer duck, int rounds) throws Exception {
        String sql = q.sql();
        System.err.println("[tpch] " + q.id() + " from " + java.time.LocalTime.now());
        QueryResult answer = cube.query(sql);
        ResultComparison cmp = ResultComparison.compare(
                duck.fetch(sql).table(), EngineCube.table(answer), q.ordered(), ResultComparison.SUM_TOLERANCE);
        if (!cmp.equal()) {
            System.out.println(q.id() + " DIFFERS from DuckDB: " + cmp.difference());
            return false;
        }
        String toggle = System.getProperty(TOGGLE);
        String[] settings = toggle == null ? new String[] {null} : new String[] {"false", "true"};
        double[] best = new double[settings.length + 1];
        java.util.Arrays.fill(best, Double.MAX_VALUE);
        double[][] cpu = new double[settings.length][rounds];
        double[][] processCpu = new double[settings.length][rounds];
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int i = 0; i < rounds; i++) {
            for (int k = 0; k < best.length; k++) {
                int c = (i + k) % best.length;
                long t0 = System.nanoTime();
                if (c == settings.length) {
                    duck.fetch(sql);
                } else {
                    if (toggle != null) {
                        System.setProperty(toggle, settings[c]);
                        if (i == 0) {
                            same(duck, sql, q, cube);
                        }
                    }
                    long[] measured = measure(cube, sql, threads);
                    best[c] = Math.min(best[c], measured[0] / 1e9);
                    cpu[c][i] = measured[1] / 1e9;
                    processCpu[c][i] = measured[2] / 1e9;
                    continue;
                }
                best[c] = Math.min(best[c], (System.nanoTime() - t0) / 1e9);
            }
        }
        report(q, cube.query(sql).stats(), toggle, settings, best, rounds, cpu, processCpu);
        return true;
    }

    /** Prints one query's figures: per setting, its best, DuckDB's, their ratio and the CPU medians; then its profile. */
    private static void report(
            TpchQuery q,
            QueryStats s,
            String toggle,
            String[] settings,
            double[] best,
            int rounds,
            double[][] cpu,
            double[][] processCpu) {
        double duckBest = best[settings.length];
        for (int c = 0; c < settings.length; c++) {
            System.out.printf(
                    Locale.ROOT,
                    "%s%s numacube %.4f s DuckDB %.4f s (best of %d): %.2fx; calling thread CPU %.4f s, all threads' CPU"
                            + " %.4f s (medians)%n",
                    q.id(),
                    toggle == null ? "" : " " + toggle + "=" + settings[c],
                    best[c],
                    duckBest,
                    rounds,
                    duckBest / best[c],
                    median(cpu[c]),
                    median(processCpu[c]));
        }
        System.out.printf(
                Locale.ROOT,
                "  scan %.4f s, %,d rows, %,d bytes; plan: %s%n",
                s.phases().scanSeconds(),
                s.rowsScanned(),
                s.bytesRead(),
                s.plan());
    }
}
