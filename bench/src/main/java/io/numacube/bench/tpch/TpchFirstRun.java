package io.numacube.bench.tpch;

import io.numacube.bench.Progress;
import io.numacube.engine.Cube;
import io.numacube.engine.JoinSpec;
import io.numacube.engine.Warmup;
import io.numacube.engine.result.QueryResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The child JVM of the tpch section's first-run timing: loads every TPC-H table of a cached {@link TpchData} from
 * Parquet into a fresh cube, then runs each query given once, in order, and prints one line per query on stdout:
 * {@code first-run <argument> <seconds> <rows>} (the first query is the only one the JVM has never run any query
 * before) or {@code refused <argument> <first line of the error>}. With the system property {@link
 * #WARM_UP_PROPERTY} true, the engine's {@link Warmup} runs after the load, as {@code serve} runs it before its ready
 * line, and then the specification's foreign-key joins among the loaded tables are prepared, and the chains of
 * them, as {@code serve --prepare-join} prepares them ({@link TpchSchema#FOREIGN_KEYS}). Only the tables the queries name are loaded. A query number followed by {@code r} ({@code 3r}) runs the
 * query's rewrite. Progress goes to stderr. Exit status 0 unless the data or the arguments are bad.
 *
 * <p>Usage: {@code TpchFirstRun <cache root> <scale factor> <threads> <query number>[r]...}
 */
public final class TpchFirstRun {

    /** The line prefix of a timed first run. */
    public static final String FIRST_RUN = "first-run";
    /** The system property ({@code true}/{@code false}) that has the child run the engine's warm-up before the query. */
    public static final String WARM_UP_PROPERTY = "numacube.tpch.warmUp";

    /** The warm-up's time budget: what {@code serve} gives it by default. */
    static final java.time.Duration WARM_UP_BUDGET = java.time.Duration.ofSeconds(Warmup.DEFAULT_BUDGET_SECONDS);

    /** The line prefix of a query numacube refused. */
    public static final String REFUSED = "refused";

    private TpchFirstRun() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: TpchFirstRun <cache root> <scale factor> <threads> <query number>[r]...");
            System.exit(2);
        }
        PrintStream out = System.out;
        Progress progress = new Progress(System.err);
        TpchData data = TpchData.ensure(Path.of(args[0]), Double.parseDouble(args[1]), 1, progress);
        java.util.Set<String> tables = new java.util.TreeSet<>();
        for (int i = 3; i < args.length; i++) {
            tables.addAll(TpchQuery.of(number(args[i])).tables(args[i].endsWith("r")));
        }
        try (TpchCube cube = TpchCube.open(data, Integer.parseInt(args[2]))) {
            long t0 = System.nanoTime();
            tables.forEach(t -> cube.loadParquet(TpchSchema.of(t)));
            progress.line("tpch first run: %s loaded from Parquet in %.2f s", tables, (System.nanoTime() - t0) / 1e9);
            if (Boolean.getBoolean(WARM_UP_PROPERTY)) {
                Warmup.Report w = Warmup.run(TpchCube.options(Integer.parseInt(args[2])), WARM_UP_BUDGET);
                progress.line(
                        "tpch first run: warm-up ran %d queries (%d rounds) in %.2f s%s",
                        w.queries(),
                        w.rounds(),
                        w.elapsed().toNanos() / 1e9,
                        w.failures().isEmpty() ? "" : "; failed: " + w.failures());
                prepareJoins(cube, tables, progress);
            }
            for (int i = 3; i < args.length; i++) {
                out.println(run(cube, TpchQuery.of(number(args[i])), args[i]));
                out.flush();
            }
        }
    }

    /** Prepares each of the specification's foreign keys between loaded tables, as {@code serve --prepare-join}. */
    private static void prepareJoins(TpchCube cube, java.util.Set<String> tables, Progress progress) {
        long t0 = System.nanoTime();
        List<String> done = new java.util.ArrayList<>();
        for (String fk : TpchSchema.FOREIGN_KEYS) {
            JoinSpec join = JoinSpec.parse(fk);
            if (tables.contains(join.fact()) && tables.contains(join.dim())) {
                try {
                    cube.cube().prepareJoin(join);
                    done.add(fk);
                } catch (io.numacube.numa.base.NumacubeException e) {
                    progress.line("tpch first run: not prepared (the query will build it): %s", e.getMessage());
                }
            }
        }
        progress.line(
                "tpch first run: prepared the foreign-key joins %s in %.2f s", done, (System.nanoTime() - t0) / 1e9);
        long t1 = System.nanoTime();
        List<Cube.ChainPrepared> chains =
                cube.cube().prepareJoinChains(done.stream().map(JoinSpec::parse).toList());
        progress.line(
                "tpch first run: prepared %d chains of them %s in %.2f s",
                chains.size(), chains.stream().map(c -> c.chain().toString()).toList(), (System.nanoTime() - t1) / 1e9);
    }

    private static int number(String argument) {
        return Integer.parseInt(argument.endsWith("r") ? argument.substring(0, argument.length() - 1) : argument);
    }

    private static String run(TpchCube cube, TpchQuery q, String argument) {
        long t0 = System.nanoTime();
        try {
            QueryResult r = cube.query(q.text(argument.endsWith("r")));
            double seconds = (System.nanoTime() - t0) / 1e9;
            return String.format(Locale.ROOT, "%s %s %.9f %d", FIRST_RUN, argument, seconds, r.rowCount());
        } catch (RuntimeException e) {
            return REFUSED + " " + argument + " " + TpchQuery.refusal(e);
        }
    }
}
