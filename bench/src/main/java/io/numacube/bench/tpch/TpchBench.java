package io.numacube.bench.tpch;

import io.numacube.bench.BenchOptions;
import io.numacube.bench.Progress;
import io.numacube.bench.engine.EngineCube;
import io.numacube.bench.peer.DuckDbPeer;
import io.numacube.bench.peer.ResultComparison;
import io.numacube.bench.report.TpchReport;
import io.numacube.bench.report.TpchReport.QueryFigures;
import io.numacube.bench.report.TpchReport.TableLoad;
import io.numacube.bench.stats.Summary;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The tpch section (issue 16): TPC-H at {@link BenchOptions#tpchScaleFactor()} from the cached {@link TpchData}
 * files, loaded by numacube and by DuckDB (same files, same types, same threads) and timed table by table from
 * Parquet and from CSV; then each of the 22 queries: numacube runs the official text, and the rewrite where it
 * refuses that; an answer is compared with DuckDB's on the same text (a difference is a failure, reported loudly);
 * an answered query is timed steady in both engines (runs in turn, best of N) and on its first run in a fresh JVM
 * ({@link TpchFirstRuns}). Always the engine, whatever {@code --engine} measures elsewhere. Not thread-safe: one run.
 */
public final class TpchBench {

    private final BenchOptions options;
    private final Progress progress;

    public TpchBench(BenchOptions options, Progress progress) {
        this.options = options;
        this.progress = progress;
    }

    /** Runs the section. */
    public TpchReport run() throws Exception {
        int threads = options.threads();
        TpchData data = TpchData.ensure(options.tpchDir(), options.tpchScaleFactor(), threads, progress);
        List<TableLoad> loads = new ArrayList<>();
        try (TpchCube fromParquet = TpchCube.open(data, threads)) {
            for (TpchSchema t : TpchSchema.TABLES) {
                loads.add(load("numacube", "Parquet", t, data, fromParquet.loadParquet(t)));
            }
        }
        List<QueryRun> runs = new ArrayList<>();
        String version;
        try (DuckDbPeer duck = DuckDbPeer.open(threads);
                TpchCube cube = TpchCube.open(data, threads)) {
            version = duck.version();
            loadDuckDb(duck, data, loads);
            for (TpchSchema t : TpchSchema.TABLES) {
                loads.add(load("numacube", "CSV", t, data, cube.loadCsv(t)));
            }
            for (TpchQuery q : TpchQuery.all()) {
                runs.add(runQuery(q, cube, duck));
            }
        }
        List<String> timed = runs.stream()
                .filter(r -> r.timed())
                .map(r -> r.firstRunArgument())
                .toList();
        TpchFirstRuns children = new TpchFirstRuns(options, progress);
        progress.line(
                "tpch: first-run JVMs start %s",
                TpchFirstRuns.aotCache()
                        .map(c -> "with the bench's ahead-of-time cache " + c)
                        .orElse("without an ahead-of-time cache (NUMACUBE_AOT=0, or not the numacube launcher)"));
        Map<String, Double> cold = children.measure(timed, false);
        Map<String, Double> warmed = children.measure(timed, true);
        List<QueryFigures> figures =
                runs.stream().map(r -> r.figures(cold, warmed)).toList();
        return TpchReport.of(options.tpchScaleFactor(), threads, data.dir().toString(), version, loads, figures);
    }

    private TableLoad load(String engine, String format, TpchSchema t, TpchData data, TpchCube.LoadTime time) {
        long rows = data.rows(t.name());
        double seconds = time.seconds();
        if (t.name().equals("lineitem")) {
            progress.line(
                    "tpch: %s loaded lineitem from %s: %,d rows in %.2f s (%.2f M rows/s)%s",
                    engine,
                    format,
                    rows,
                    seconds,
                    rows / seconds / 1e6,
                    Double.isNaN(time.stageSeconds())
                            ? ""
                            : String.format(java.util.Locale.ROOT, "; %.2f s reading the file", time.stageSeconds()));
        }
        return new TableLoad(engine, format, t.name(), rows, seconds, time.stageSeconds(), rows / seconds);
    }

    private static TpchCube.LoadTime since(long t0) {
        return new TpchCube.LoadTime(Double.NaN, (System.nanoTime() - t0) / 1e9);
    }

    /** Times DuckDB's loads from Parquet (the tables then dropped), then from CSV (kept for the queries). */
    private void loadDuckDb(DuckDbPeer duck, TpchData data, List<TableLoad> loads) throws Exception {
        for (TpchSchema t : TpchSchema.TABLES) {
            long t0 = System.nanoTime();
            duck.execute(
                    "CREATE TABLE " + t.name() + " AS SELECT * FROM read_parquet('" + data.parquet(t.name()) + "')");
            loads.add(load("DuckDB", "Parquet", t, data, since(t0)));
            duck.execute("DROP TABLE " + t.name());
        }
        for (TpchSchema t : TpchSchema.TABLES) {
            long t0 = System.nanoTime();
            duck.execute("CREATE TABLE " + t.name() + " AS SELECT * FROM " + data.duckDbReadCsv(t));
            loads.add(load("DuckDB", "CSV", t, data, since(t0)));
        }
    }

    /** Official text, then the rewrite where numacube refused it; check; time. */
    private QueryRun runQuery(TpchQuery q, TpchCube cube, DuckDbPeer duck) throws Exception {
        QueryRun run = new QueryRun(q);
        QueryResult answer = attempt(cube, q, false, run);
        if (answer == null && q.rewrite() != null) {
            answer = attempt(cube, q, true, run);
        }
        String sql = run.text == null ? q.sql() : q.text(run.text.equals("rewrite"));
        long t0 = System.nanoTime();
        DuckDbPeer.Fetched expected = duck.fetch(sql);
        run.duckdbFirstRun = (System.nanoTime() - t0) / 1e9;
        if (answer == null) {
            progress.line("tpch: %s unsupported: %s (DuckDB %.3f s)", q.id(), run.refusal, run.duckdbFirstRun);
            return run;
        }
        ResultComparison cmp = ResultComparison.compare(
                expected.table(), EngineCube.table(answer), q.ordered(), ResultComparison.SUM_TOLERANCE);
        run.check = cmp.equal() ? "OK" : "FAILED: " + cmp.difference();
        if (!cmp.equal()) {
            progress.line("tpch: %s FAILED: numacube's answer differs from DuckDB's: %s", q.id(), cmp.difference());
            return run;
        }
        Summary[] steady = new SteadyTimer(options).time(() -> cube.query(sql), () -> duck.fetch(sql));
        run.numacube = steady[0];
        run.duckdb = steady[1];
        run.profile = profile(cube.query(sql).stats());
        progress.line(
                "tpch: %s (%s text) OK: numacube %.4f s, DuckDB %.4f s steady (best of %d): %.1fx",
                q.id(),
                run.text,
                steady[0].min(),
                steady[1].min(),
                steady[0].count(),
                steady[1].min() / steady[0].min());
        return run;
    }

    private static TpchReport.Profile profile(QueryStats s) {
        return new TpchReport.Profile(
                s.wallSeconds(),
                s.phases().planSeconds(),
                s.phases().scanSeconds(),
                s.phases().finishSeconds(),
                s.rowsScanned(),
                s.bytesRead(),
                s.plan());
    }

    /** numacube's answer to one text of {@code q}, or null after recording why it refused. */
    private static QueryResult attempt(TpchCube cube, TpchQuery q, boolean rewritten, QueryRun run) {
        try {
            QueryResult r = cube.query(q.text(rewritten));
            run.text = rewritten ? "rewrite" : "official";
            if (rewritten) {
                run.rewrite = "ran";
            } else {
                run.official = "ran";
            }
            return r;
        } catch (RuntimeException e) {
            String why = "refused: " + TpchQuery.refusal(e);
            run.refusal = TpchQuery.refusal(e);
            if (rewritten) {
                run.rewrite = why;
            } else {
                run.official = why;
            }
            return null;
        }
    }

    /** What one query gave; filled in as it runs. Not thread-safe. */
    private static final class QueryRun {
        final TpchQuery query;
        String official;
        String rewrite;
        String text;
        String refusal;
        String check;
        Summary numacube;
        Summary duckdb;
        TpchReport.Profile profile;
        double duckdbFirstRun = Double.NaN;

        QueryRun(TpchQuery query) {
            this.query = query;
        }

        boolean timed() {
            return numacube != null;
        }

        /** The child JVM's argument for this query's text: {@code 3} or {@code 3r}. */
        String firstRunArgument() {
            return query.number() + ("rewrite".equals(text) ? "r" : "");
        }

        QueryFigures figures(Map<String, Double> coldRuns, Map<String, Double> warmedRuns) {
            double first = coldRuns.getOrDefault(firstRunArgument(), Double.NaN);
            double warmed = warmedRuns.getOrDefault(firstRunArgument(), Double.NaN);
            double best = numacube == null ? Double.NaN : numacube.min();
            return new QueryFigures(
                    query.id(),
                    official,
                    rewrite,
                    text,
                    check != null ? check : "unsupported: " + refusal,
                    numacube,
                    duckdb,
                    duckdb == null ? Double.NaN : duckdb.min() / best,
                    first,
                    warmed,
                    duckdbFirstRun,
                    warmed / best,
                    profile);
        }
    }
}
