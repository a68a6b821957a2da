package io.numacube.cli;

import io.numacube.cli.cube.CubeLoader;
import io.numacube.cli.cube.CubeSettings;
import io.numacube.cli.cube.PlacementPrinter;
import io.numacube.cli.cube.ResultPrinter;
import io.numacube.cli.cube.RowCount;
import io.numacube.cli.output.Json;
import io.numacube.cli.output.OutputFile;
import io.numacube.engine.Cube;
import io.numacube.engine.PartitionInfo;
import io.numacube.engine.TableSkew;
import io.numacube.engine.gen.ReferenceQueries;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.numa.NumaRuntime;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code numacube demo}: generates trades placed on the NUMA nodes, shows where every partition's pages are, and runs
 * the five reference P&amp;L queries with their times and morsel locality.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Generates trades straight into placed partitions, prints the runtime summary and the placement "
                    + "of every partition (node, rows, bytes, %% of pages verified on that node), then runs the reference "
                    + "queries Q1-Q5 and prints their results, times and how many morsels ran on their home node.",
            "--json FILE also writes all of it for machines.",
            "--serve then keeps the cube and serves it, as numacube serve does, until Ctrl-C: the pivot page at "
                    + "http://127.0.0.1:8080/ (--http-port), the placement view, SQL over HTTP and the PostgreSQL "
                    + "protocol (--pg-port)."
        })
final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--rows",
            paramLabel = "N",
            converter = RowCount.class,
            defaultValue = "10M",
            description = "Number of trades (default: ${DEFAULT-VALUE}).")
    long rows;

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "42",
            description = "Generator seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the report as JSON to FILE.")
    Path json;

    @Option(
            names = "--top",
            paramLabel = "N",
            defaultValue = "10",
            description = "Rows of each query result to print, 0 for none (default: ${DEFAULT-VALUE}).")
    int top;

    @Option(
            names = "--runs",
            paramLabel = "N",
            defaultValue = "3",
            description = "Runs of each query (default: ${DEFAULT-VALUE}); the first warms the JIT up and is reported "
                    + "apart, times and morsel locality are of the later runs.")
    int runs;

    @Option(
            names = "--serve",
            description = "After the queries, serve the cube (loopback, no users) until Ctrl-C and print the pivot "
                    + "page's URL.")
    boolean serve;

    @Option(
            names = "--http-port",
            paramLabel = "PORT",
            defaultValue = "8080",
            description = "With --serve: the HTTP port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(
            names = "--pg-port",
            paramLabel = "PORT",
            defaultValue = "5433",
            description = "With --serve: the PostgreSQL protocol port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int pgPort;

    @Mixin
    CubeSettings settings;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        checkOptions();
        String runtime = NumaRuntime.detect().statusLine();
        out.println("runtime: " + runtime);
        Json.Obj report = Json.obj().put("runtime", runtime).put("rows", rows).put("seed", seed);
        try (Cube cube = Cube.open(settings.toOptions())) {
            out.println("cube:    " + cube.describe());
            out.flush();
            generate(cube, out, err, report);
            List<Object> queries = Json.arr();
            for (int q = 1; q <= ReferenceQueries.ALL.size(); q++) {
                queries.add(runQuery(cube, q, out));
            }
            report.put("queries", queries);
            writeJson(report, out);
            if (serve) {
                DemoServer.serveUntilStopped(cube, httpPort, pgPort, out, err);
            }
        }
        return 0;
    }

    private void writeJson(Json.Obj report, PrintWriter out) {
        if (json != null) {
            OutputFile.writeAtomically(json, Json.print(report));
            out.println();
            out.println("wrote " + json);
        }
        out.flush();
    }

    private void checkOptions() {
        if (runs < 1 || runs > 1000) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT, "--runs must be between 1 and 1000: runs=" + runs);
        }
        if (top < 0) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "--top must be 0 or more (rows of each result to print): top=" + top);
        }
        if (json != null) {
            OutputFile.checkWritable(json, "--json");
        }
        if (!serve
                && (spec.commandLine().getParseResult().hasMatchedOption("--http-port")
                        || spec.commandLine().getParseResult().hasMatchedOption("--pg-port"))) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "--http-port and --pg-port are for --serve: serve=false — add --serve to serve the demo's cube");
        }
    }

    /** Generates the trades, then prints and reports where their partitions are and how skewed they are. */
    private void generate(Cube cube, PrintWriter out, PrintWriter err, Json.Obj report) {
        CubeLoader.TableLoad gen = CubeLoader.generate(cube, rows, seed, settings.maxMemory(), err);
        out.println(String.format(
                Locale.ROOT,
                "generated %,d trades (seed %d) in %.2f s, %,.0f rows/s",
                rows,
                seed,
                gen.readSeconds(),
                gen.rowsPerSecond()));
        out.println();
        List<PartitionInfo> placement = cube.placement();
        PlacementPrinter.print(placement, out);
        TableSkew skew = cube.skew("trades");
        out.println(String.format(
                Locale.ROOT,
                "trades skew: largest partition %.2fx the mean, busiest node %.2fx" + " the mean",
                skew.partitionSkew(),
                skew.nodeSkew()));
        report.put(
                "skew",
                Json.obj()
                        .put("partition", skew.partitionSkew())
                        .put("node", skew.nodeSkew())
                        .put("bytes_by_node", skew.bytesByNode()));
        report.put("cube", cube.describe())
                .put("generate_seconds", gen.readSeconds())
                .put("partitions", PlacementPrinter.json(placement));
    }

    /** Runs reference query {@code q} {@link #runs} times, prints its result and times, and returns its report. */
    private Json.Obj runQuery(Cube cube, int q, PrintWriter out) {
        String sql = ReferenceQueries.q(q);
        out.println();
        out.println("Q" + q + ": " + sql);
        QueryResult first = cube.query(sql);
        QueryResult r = first;
        LaterRuns later = new LaterRuns();
        for (int run = 1; run < runs; run++) {
            r = cube.query(sql);
            later.add(r.stats());
        }
        QueryStats f = first.stats();
        if (runs == 1) {
            later.takeOnly(f);
        }
        ResultPrinter.print(r, ResultPrinter.Format.TABLE, out, top);
        out.println(ResultPrinter.statsLine(r));
        if (runs > 1) {
            out.println(String.format(
                    Locale.ROOT,
                    "(%d runs: first %.3f s, best of the rest %.3f s; %,d of %,d"
                            + " morsels of the later runs on their home node)",
                    runs,
                    f.wallSeconds(),
                    later.best,
                    later.home,
                    later.morsels));
        }
        out.flush();
        return Json.obj()
                .put("name", "Q" + q)
                .put("sql", sql)
                .put("seconds", later.best)
                .put("first_run_seconds", f.wallSeconds())
                .put("runs", runs)
                .put("rows", r.rowCount())
                .put("morsels", later.morsels)
                .put("morsels_home", later.home)
                .put("morsels_stolen", later.stolen)
                .put("best_run_morsels_home_pct", Math.round(later.bestHomeShare * 1000) / 10.0)
                .put("morsels_skipped", r.stats().morselsSkipped())
                .put("morsels_run_by_node", runs == 1 ? first.stats().morselsByNode() : later.byNode)
                .put("first_run_morsels", f.morsels())
                .put("first_run_morsels_home", f.morselsHome())
                .put("result", ResultPrinter.json(r, Math.min(top, r.rowCount())));
    }

    /** Best time and morsel totals of the runs after the first, the warm-up (or of the first when it is the only). */
    private static final class LaterRuns {
        double best = Double.MAX_VALUE;
        long morsels;
        long home;
        long stolen;
        /** The highest share of morsels run at home in one run: the run least disturbed by a stalled CPU. */
        double bestHomeShare;

        final Map<String, Long> byNode = new TreeMap<>();

        void add(QueryStats s) {
            best = Math.min(best, s.wallSeconds());
            bestHomeShare = Math.max(bestHomeShare, homeShare(s));
            morsels += s.morsels();
            home += s.morselsHome();
            stolen += s.morselsStolen();
            s.morselsByNode().forEach((node, n) -> byNode.merge(String.valueOf(node), n, Long::sum));
        }

        void takeOnly(QueryStats f) {
            best = f.wallSeconds();
            morsels = f.morsels();
            home = f.morselsHome();
            stolen = f.morselsStolen();
            bestHomeShare = homeShare(f);
        }

        private static double homeShare(QueryStats s) {
            return s.morsels() == 0 ? 1.0 : (double) s.morselsHome() / s.morsels();
        }
    }
}
