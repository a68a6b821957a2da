package io.numacube.bench.tpch;

import io.numacube.bench.Progress;
import io.numacube.engine.JoinSpec;
import io.numacube.engine.Warmup;
import io.numacube.engine.result.QueryResult;
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
 * -Dtpch.chains=false} leaves the chains out), then runs the query {@code runs} times and prints one line a run: wall
 * seconds, the process's CPU seconds (JIT compiler threads included; steadier than wall time on a shared machine) and
 * the profile's phases. The first line is the first run; the best of the others is the steady time. Never asserts.
 *
 * <p>Usage: {@code TpchFirstVsSteady <cache root> <scale factor> <threads> <query number> <runs>}
 */
public final class TpchFirstVsSteady {

    private TpchFirstVsSteady() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: TpchFirstVsSteady <cache root> <scale factor> <threads> <query> <runs>");
            System.exit(2);
        }
        int threads = Integer.parseInt(args[2]);
        int q = Integer.parseInt(args[3]);
        TpchData data = TpchData.ensure(Path.of(args[0]), Double.parseDouble(args[1]), 1, new Progress(System.err));
        Set<String> tables = new TreeSet<>(TpchQuery.of(q).tables(false));
        try (TpchCube cube = TpchCube.open(data, threads)) {
            long t0 = System.nanoTime();
            tables.forEach(t -> cube.loadParquet(TpchSchema.of(t)));
            System.out.printf(Locale.ROOT, "loaded %s in %.2f s%n", tables, seconds(t0));
            Warmup.run(TpchCube.options(threads), TpchFirstRun.WARM_UP_BUDGET);
            prepare(cube, tables);
            String sql = TpchQuery.of(q).text(false);
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            for (int i = 0; i < Integer.parseInt(args[4]); i++) {
                long cpu = os.getProcessCpuTime();
                long start = System.nanoTime();
                QueryResult r = cube.query(sql);
                var phases = r.stats().phases();
                System.out.printf(
                        Locale.ROOT,
                        "Q%d run %d %.4f s cpu %.4f s phases plan %.4f scan %.4f finish %.4f%n",
                        q,
                        i,
                        seconds(start),
                        (os.getProcessCpuTime() - cpu) / 1e9,
                        phases.planSeconds(),
                        phases.scanSeconds(),
                        phases.finishSeconds());
            }
        }
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
