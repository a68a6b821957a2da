package io.numacube.bench.tpch;

import io.numacube.bench.Progress;
import io.numacube.engine.JoinSpec;
import io.numacube.engine.Warmup;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * A quick first-run measurement of one TPC-H query, a fresh JVM per call (faster than the tpch section's): loads the
 * tables the query names from the cached Parquet files, runs the engine's {@link Warmup}, prepares the
 * specification's foreign keys among them and their chains (as {@code serve --prepare-join} does; {@code
 * -Dtpch.chains=false} leaves the chains out), then runs each query given (comma-separated; only the first is the
 * JVM's first query) {@code runs} times and prints one line a run: wall seconds, the process's CPU seconds (JIT
 * compiler threads included; steadier than wall time on a shared machine), the calling thread's CPU seconds (the
 * planning, which is serial), the JIT's compilation time meanwhile and the profile's phases. The first line of a query
 * is its first run; the best of the others is the steady time. With {@code -Dtpch.jfr=PREFIX} each query's first run
 * is recorded by JFR into {@code PREFIX-qN.jfr}. Never asserts.
 *
 * <p>Usage: {@code TpchFirstVsSteady <cache root> <scale factor> <threads> <query number>[,<query number>...] <runs>}
 */
public final class TpchFirstVsSteady {

    private TpchFirstVsSteady() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: TpchFirstVsSteady <cache root> <scale factor> <threads> <query> <runs>");
            System.exit(2);
        }
        int threads = Integer.parseInt(args[2]);
        List<Integer> qs = java.util.Arrays.stream(args[3].split(","))
                .map(Integer::parseInt)
                .toList();
        TpchData data = TpchData.ensure(Path.of(args[0]), Double.parseDouble(args[1]), 1, new Progress(System.err));
        Set<String> tables = new TreeSet<>();
        qs.forEach(q -> tables.addAll(TpchQuery.of(q).tables(false)));
        try (TpchCube cube = TpchCube.open(data, threads)) {
            long t0 = System.nanoTime();
            tables.forEach(t -> cube.loadParquet(TpchSchema.of(t)));
            System.out.printf(Locale.ROOT, "loaded %s in %.2f s%n", tables, seconds(t0));
            Warmup.run(TpchCube.options(threads), TpchFirstRun.WARM_UP_BUDGET);
            prepare(cube, tables);
            for (int q : qs) {
                runQuery(cube, q, Integer.parseInt(args[4]));
            }
        }
    }

    /** Runs query {@code q} {@code runs} times, one line a run; the first run recorded where {@code tpch.jfr} says. */
    private static void runQuery(TpchCube cube, int q, int runs) throws java.io.IOException, java.text.ParseException {
        String sql = TpchQuery.of(q).text(false);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        var jit = ManagementFactory.getCompilationMXBean();
        var threads = ManagementFactory.getThreadMXBean();
        String jfr = System.getProperty("tpch.jfr");
        for (int i = 0; i < runs; i++) {
            jdk.jfr.Recording rec = jfr != null && i == 0 ? recording() : null;
            long cpu = os.getProcessCpuTime();
            long compiling = jit.getTotalCompilationTime();
            long own = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            var phases = cube.query(sql).stats().phases();
            System.out.printf(
                    Locale.ROOT,
                    "Q%d run %d %.4f s cpu %.4f s calling thread %.4f s jit %.3f s phases plan %.4f scan %.4f"
                            + " finish %.4f%n",
                    q,
                    i,
                    seconds(start),
                    (os.getProcessCpuTime() - cpu) / 1e9,
                    (threads.getCurrentThreadCpuTime() - own) / 1e9,
                    (jit.getTotalCompilationTime() - compiling) / 1e3,
                    phases.planSeconds(),
                    phases.scanSeconds(),
                    phases.finishSeconds());
            if (rec != null) {
                rec.stop();
                rec.dump(Path.of(jfr + "-q" + q + ".jfr"));
                rec.close();
            }
        }
    }

    /** A started JFR recording: the profile settings, execution samples every 2 ms, every compilation and deopt. */
    private static jdk.jfr.Recording recording() throws java.io.IOException, java.text.ParseException {
        jdk.jfr.Recording rec = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
        rec.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(2));
        rec.enable("jdk.Compilation").withThreshold(java.time.Duration.ZERO);
        rec.enable("jdk.Deoptimization").withStackTrace();
        rec.start();
        return rec;
    }

    private static void prepare(TpchCube cube, Set<String> tables) {
        long t0 = System.nanoTime();
        List<JoinSpec> joins = new ArrayList<>();
        for (String fk : TpchSchema.FOREIGN_KEYS) {
            JoinSpec join = JoinSpec.parse(fk);
            if (tables.contains(join.fact()) && tables.contains(join.dim())) {
                cube.cube().prepareJoin(join);
                joins.add(join);
            }
        }
        System.out.printf(Locale.ROOT, "prepared %d joins in %.2f s%n", joins.size(), seconds(t0));
        if (Boolean.parseBoolean(System.getProperty("tpch.chains", "true"))) {
            long t1 = System.nanoTime();
            int chains = cube.cube().prepareJoinChains(joins).size();
            System.out.printf(Locale.ROOT, "prepared %d chains in %.2f s%n", chains, seconds(t1));
        }
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
