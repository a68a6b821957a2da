package io.numacube.bench;

import io.numacube.bench.BenchOptions.Section;
import io.numacube.bench.peer.DuckDbPeer;
import io.numacube.bench.peer.ReferenceQuery;
import io.numacube.bench.peer.ResultComparison;
import io.numacube.bench.peer.ResultTable;
import io.numacube.bench.probe.BandwidthProbe;
import io.numacube.bench.probe.ThreadTeam;
import io.numacube.bench.report.BenchReport;
import io.numacube.bench.report.BenchReport.Load;
import io.numacube.bench.report.BenchReport.PolicyPoint;
import io.numacube.bench.report.BenchReport.PolicySeries;
import io.numacube.bench.report.BenchReport.QueryFigures;
import io.numacube.bench.report.BenchReport.ScalePoint;
import io.numacube.bench.report.BenchReport.StabilityRow;
import io.numacube.bench.report.BenchReport.Timing;
import io.numacube.bench.report.Charts;
import io.numacube.bench.report.CpuMeter;
import io.numacube.bench.report.JsonReport;
import io.numacube.bench.report.Machine;
import io.numacube.bench.report.ReportPrinter;
import io.numacube.bench.report.ServeReport;
import io.numacube.bench.report.TpchReport;
import io.numacube.bench.serve.ServeBench;
import io.numacube.bench.stats.Summary;
import io.numacube.bench.tpch.TpchBench;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs the sections a {@link BenchOptions} asks for, in one JVM, prints progress and the tables, and writes the JSON
 * report and the charts. Not thread-safe: one run per runner.
 */
public final class BenchRunner {

    /** DuckDB's setting that lets its perfect-hash aggregate cover Q4's 250k groups (see PERF-FACTS). */
    static final String DUCKDB_Q4_TUNING = "perfect_ht_threshold=18";

    /**
     * The queries of the policy, scaling and stability sections: issue 3's Q1-Q5, as in earlier runs (Q6 and the
     * NULL variant are in the peer comparison only).
     */
    private static final List<ReferenceQuery> MIX =
            List.copyOf(java.util.EnumSet.range(ReferenceQuery.Q1, ReferenceQuery.Q5));
    /** Share of the rows whose pnl is NULL in the NULL variant of Q1 (issue 10: at most 1.3x Q1's time). */
    static final double NULL_PNL_FRACTION = 0.10;
    /** Other processes' CPU share above which a section's figures get a warning note. */
    static final double CONTENDED = 0.25;

    private final BenchOptions options;
    private final CubeUnderTest.Factory cubes;
    private final CubeUnderTest.Factory baseline;
    private final ThreadTeam team;
    private final Progress progress;
    private final PrintStream out;
    private final List<String> notes = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();
    private final List<BenchReport.SectionContention> contention = new ArrayList<>();

    /**
     * @param cubes    opens numacube cubes
     * @param baseline opens the plain-loop baseline on the same rows (the "bare loop" row of the peer table), or
     *                 null to leave it out
     * @param team     runs the probe's threads (pinned per node when the runtime can)
     * @param out      where the tables go
     * @param progress where the progress lines go
     */
    public BenchRunner(
            BenchOptions options,
            CubeUnderTest.Factory cubes,
            CubeUnderTest.Factory baseline,
            ThreadTeam team,
            PrintStream out,
            PrintStream progress) {
        this.options = options;
        this.cubes = cubes;
        this.baseline = baseline;
        this.team = team;
        this.out = out;
        this.progress = new Progress(progress);
    }

    /** Runs the bench; returns the report (also printed and written as asked). */
    public BenchReport run() throws Exception {
        String startedAt = Instant.now().toString();
        Machine machine = Machine.describe();
        progress.line(
                "numacube bench: %s, %d CPUs, %d node(s); engine: %s",
                machine.cpuModel(), machine.logicalCpus(), cubes.nodes(), cubes.description());
        addSetupNotes(machine);
        BenchReport.Probe probe = section(Section.PROBE, this::probe);
        double probeAll = probe == null ? 0 : probe.allThreads().bestGbPerSecond();
        BenchReport.Peers peers = section(Section.PEERS, () -> peers(probeAll, measuredOn(machine, probe)));
        BenchReport.Policies policies = section(Section.POLICIES, this::policies);
        BenchReport.Scaling scaling = section(Section.SCALING, () -> scaling(machine));
        BenchReport.Stability stability = section(Section.STABILITY, this::stability);
        BenchReport.FileLoads fileLoads =
                section(Section.LOAD, () -> new FileLoadBench(options, cubes.nodes(), progress).run());
        TpchReport tpch = section(Section.TPCH, () -> new TpchBench(options, progress).run());
        ServeReport serve = section(Section.SERVE, () -> new ServeBench(options, progress).run());
        BenchReport.Migration migration = section(
                Section.MIGRATION, () -> new io.numacube.bench.migration.MigrationBench(options, progress).run());
        addContentionNotes();
        BenchReport report = new BenchReport(
                "numacube bench 0.1.0",
                startedAt,
                machine,
                settings(),
                notes,
                errors,
                contention,
                probe,
                peers,
                policies,
                scaling,
                stability,
                fileLoads,
                tpch,
                serve,
                migration);
        ReportPrinter.print(report, out);
        if (options.jsonFile() != null) {
            JsonReport.write(report, options.jsonFile());
            out.println("JSON report: " + options.jsonFile());
        }
        if (options.chartsDir() != null) {
            try {
                for (Path p : Charts.write(report, options.chartsDir())) {
                    out.println("chart: " + p);
                }
            } catch (RuntimeException e) {
                out.println("charts not written: " + e);
            }
        }
        return report;
    }

    /** Notes on what the options and the machine make of the figures, before any section runs. */
    private void addSetupNotes(Machine machine) {
        if (options.quick()) {
            notes.add("--quick: small data and few runs, a smoke test; do not judge these numbers");
        }
        if (options.rows() < BenchOptions.DEFAULT_ROWS) {
            notes.add("peer comparison on " + options.rows() + " rows, fewer than the issue's 100M: fixed costs "
                    + "(planning, thread start, merging) weigh more than they would");
        }
        if (cubes.nodes() == 1) {
            notes.add("one NUMA node: placement policies all use the same memory here and nodes cannot be scaled; "
                    + "scaling is by cores");
        }
        if (options.threads() > machine.logicalCpus()) {
            notes.add("threads=" + options.threads() + " exceeds the " + machine.logicalCpus() + " CPUs available");
        }
    }

    /** A note for each section during which other processes used more than {@link #CONTENDED} of the CPUs. */
    private void addContentionNotes() {
        for (BenchReport.SectionContention c : contention) {
            if (c.othersCpuFraction() > CONTENDED) {
                notes.add(String.format(
                        java.util.Locale.ROOT,
                        "%s: other processes used %.0f%% of the CPUs meanwhile, "
                                + "so its figures are lower and noisier than this machine can do%s",
                        c.section(),
                        100 * c.othersCpuFraction(),
                        c.section().equals("probe") ? " (a low probe inflates every \"% of probe\" figure)" : ""));
            }
        }
    }

    private BenchReport.Settings settings() {
        return new BenchReport.Settings(
                options.rows(),
                options.seed(),
                options.threads(),
                options.quick(),
                options.sections().stream()
                        .map(s -> s.name().toLowerCase(java.util.Locale.ROOT))
                        .toList(),
                options.warmups(),
                options.repetitions(),
                options.timeBudgetSeconds(),
                options.sectionRows(),
                cubes.description(),
                options.warmupSeconds());
    }

    private BenchReport.Probe probe() {
        BandwidthProbe probe = new BandwidthProbe(team);
        int passes = options.quick() ? 3 : 5;
        progress.line("probe: %d MiB, 1 thread, best of %d", options.probeBytes() >> 20, passes);
        BandwidthProbe.Result one = probe.measure(options.probeBytes(), 1, passes);
        progress.line("probe: 1 thread %.1f GB/s; now %d threads", one.best(), options.threads());
        BandwidthProbe.Result all = probe.measure(options.probeBytes(), options.threads(), passes);
        progress.line("probe: %d threads %.1f GB/s", options.threads(), all.best());
        return new BenchReport.Probe(BandwidthProbe.KERNEL, team.description(), figure(one), figure(all));
    }

    private static BenchReport.ProbeFigure figure(BandwidthProbe.Result r) {
        return new BenchReport.ProbeFigure(r.threads(), r.bytes(), r.gbPerSecond(), r.best());
    }

    /** The CPU and the probe, in one line, to stand beside the peer figures. */
    private String measuredOn(Machine machine, BenchReport.Probe probe) {
        return machine.cpuSummary() + "; "
                + (probe == null
                        ? "no bandwidth probe in this run"
                        : String.format(
                                java.util.Locale.ROOT,
                                "probe %.1f GB/s with 1 thread, %.1f GB/s with %d (%s)",
                                probe.oneThread().bestGbPerSecond(),
                                probe.allThreads().bestGbPerSecond(),
                                probe.allThreads().threads(),
                                probe.kernel()));
    }

    private BenchReport.Peers peers(double probeGbs, String measuredOn) throws Exception {
        List<ReferenceQuery> queries = List.of(ReferenceQuery.values());
        io.numacube.bench.peer.PeerVenv.Outcome venv =
                options.peersVenv() == null ? null : PythonPeerLineup.prepareVenv(options.peersVenv(), progress);
        List<BaselineRun> loop = baseline == null ? null : bareLoop(queries);
        progress.line("peers: numacube generates and places %,d rows (%d threads)", options.rows(), options.threads());
        try (CubeUnderTest cube = cubes.open(options.rows(), options.seed(), options.threads(), Placement.NODE_LOCAL)) {
            Load cubeLoad = new Load(cube.loadSeconds(), cube.rows() / cube.loadSeconds());
            progress.line(
                    "peers: numacube loaded in %.2f s (%.1f M rows/s) %s",
                    cube.loadSeconds(), cubeLoad.rowsPerSecond() / 1e6, cube.placementSummary());
            List<QueryFigures> figures = new ArrayList<>();
            Load duckLoad;
            String duckVersion;
            List<BenchReport.OtherPeer> others;
            try (DuckDbPeer duck = DuckDbPeer.open(options.threads())) {
                duckVersion = duck.version();
                duckLoad = loadDuck(duck, cube);
                try (PythonPeerLineup lineup = venv == null
                        ? PythonPeerLineup.none(progress)
                        : PythonPeerLineup.open(
                                options, venv, duck, cube.rows(), progress, notes::add, errors::add, ci())) {
                    for (int i = 0; i < queries.size(); i++) {
                        figures.add(peerQuery(
                                queries.get(i), cube, duck, lineup, probeGbs, loop == null ? null : loop.get(i)));
                    }
                    others = lineup.peers();
                }
            }
            BenchReport.NullVariant nulls = nullVariant(cube, figures.getFirst(), probeGbs);
            return BenchReport.Peers.of(
                    cube.rows(),
                    cubeLoad,
                    duckLoad,
                    duckVersion,
                    DuckDbPeer.LOAD_PATH,
                    measuredOn,
                    others,
                    figures,
                    nulls);
        }
    }

    /** Loads the cube's fx, books and trades rows into DuckDB; the load's time. */
    private Load loadDuck(DuckDbPeer duck, CubeUnderTest cube) throws Exception {
        progress.line("peers: DuckDB %s appends the same %,d rows", duck.version(), cube.rows());
        long t0 = System.nanoTime();
        duck.load(cube.fx());
        duck.load(cube.books());
        duck.load(cube.trades());
        double duckSeconds = (System.nanoTime() - t0) / 1e9;
        Load duckLoad = new Load(duckSeconds, cube.rows() / duckSeconds);
        progress.line("peers: DuckDB loaded in %.2f s (%.1f M rows/s)", duckSeconds, duckLoad.rowsPerSecond() / 1e6);
        return duckLoad;
    }

    /**
     * Q1 over the same trades with pnl NULL in {@link #NULL_PNL_FRACTION} of the rows: a second cube and a fresh
     * DuckDB hold them (the first DuckDB is closed by then), and numacube's null-free Q1 is timed again on
     * {@code cube}, run by run in turn with the NULL cube's, so the ratio compares figures of the same seconds. Null,
     * with a note, when the engine holds no NULLs.
     */
    private BenchReport.NullVariant nullVariant(CubeUnderTest cube, QueryFigures q1, double probeGbs) throws Exception {
        CubeUnderTest nullCube;
        try {
            nullCube = cubes.open(
                    options.rows(), options.seed(), options.threads(), Placement.NODE_LOCAL, NULL_PNL_FRACTION);
        } catch (UnsupportedOperationException e) {
            notes.add("Q1 with NULL pnl not run: " + e.getMessage());
            return null;
        }
        ReferenceQuery q = ReferenceQuery.Q1;
        String sql = q.sql(cube.q3Literals());
        try (nullCube;
                DuckDbPeer duck = DuckDbPeer.open(options.threads())) {
            progress.line(
                    "peers: Q1-NULL: numacube loaded the trades with %.0f%% of pnl NULL in %.2f s; DuckDB appends them",
                    100 * NULL_PNL_FRACTION, nullCube.loadSeconds());
            duck.load(nullCube.fx());
            duck.load(nullCube.trades());
            CubeRun[] pair = timeCubesAlternating(q, nullCube, cube, sql);
            CubeRun withNulls = pair[0];
            CubeRun nullFree = pair[1];
            AtomicReference<DuckDbPeer.Fetched> duckAnswer = new AtomicReference<>();
            Summary duckSeconds = time(() -> duckAnswer.set(duck.fetch(sql)));
            long bytes = q.bytesRead(cube.rows(), cube.storedWidths());
            Timing nc = timing(withNulls, cube.rows(), bytes, probeGbs);
            Timing free = timing(nullFree, cube.rows(), bytes, probeGbs);
            Timing dk = Timing.of(duckSeconds, cube.rows(), bytes, probeGbs);
            String check = nullCheck(withNulls, nullFree, duckAnswer.get().table());
            BenchReport.NullVariant v = new BenchReport.NullVariant(
                    "Q1-NULL",
                    sql,
                    NULL_PNL_FRACTION,
                    nc,
                    free,
                    dk,
                    nc.medianSeconds() / free.medianSeconds(),
                    dk.medianSeconds() / q1.duckdb().medianSeconds(),
                    dk.medianSeconds() / nc.medianSeconds(),
                    check);
            progress.line(
                    "peers: Q1-NULL numacube %.4f s (null-free Q1 again %.4f s: %.2fx), DuckDB %.4f s -> %.1fx, answers %s",
                    nc.medianSeconds(),
                    free.medianSeconds(),
                    v.slowdownVsNullFree(),
                    dk.medianSeconds(),
                    v.speedupVsDuckdb(),
                    check.equals("OK") ? "equal" : check);
            return v;
        }
    }

    private static Timing timing(CubeRun run, long rows, long bytes, double probeGbs) {
        return run.seconds() == null ? Timing.failed() : Timing.of(run.seconds(), rows, bytes, probeGbs);
    }

    /**
     * OK when numacube's answer on the NULL trades equals DuckDB's and differs from its null-free answer (equal
     * answers would mean no NULL reached the scan); else what is wrong.
     */
    private static String nullCheck(CubeRun withNulls, CubeRun nullFree, ResultTable duckTable) {
        if (withNulls.error() != null) {
            return withNulls.error();
        }
        ResultComparison cmp =
                ResultComparison.compare(duckTable, withNulls.answer(), false, ResultComparison.SUM_TOLERANCE);
        if (!cmp.equal()) {
            return "FAILED: " + cmp.difference();
        }
        if (nullFree.error() == null
                && ResultComparison.compare(nullFree.answer(), withNulls.answer(), false, 0)
                        .equal()) {
            return "FAILED: the answer with NULL pnl equals the null-free answer: no NULL reached the data";
        }
        return "OK";
    }

    /** The bare loop's timings and answer for one query. */
    private record BaselineRun(Summary seconds, ResultTable answer) {}

    /** Times the plain-loop baseline on the same rows first, and frees it before numacube and DuckDB load. */
    private List<BaselineRun> bareLoop(List<ReferenceQuery> queries) throws Exception {
        progress.line("peers: bare loop generates %,d rows (%d threads)", options.rows(), options.threads());
        try (CubeUnderTest loop =
                baseline.open(options.rows(), options.seed(), options.threads(), Placement.NODE_LOCAL)) {
            List<BaselineRun> runs = new ArrayList<>();
            for (ReferenceQuery q : queries) {
                String sql = q.sql(loop.q3Literals());
                AtomicReference<CubeUnderTest.Answer> last = new AtomicReference<>();
                Summary seconds = time(() -> last.set(loop.query(sql)));
                runs.add(new BaselineRun(seconds, last.get().table()));
                progress.line("peers: %s bare loop %.4f s", q.name(), seconds.median());
            }
            return runs;
        }
    }

    /** Whether this run is CI's ({@code CI=true}), where a skipped peer is a failure. */
    private static boolean ci() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    private QueryFigures peerQuery(
            ReferenceQuery q,
            CubeUnderTest cube,
            DuckDbPeer duck,
            PythonPeerLineup lineup,
            double probeGbs,
            BaselineRun loop)
            throws Exception {
        String sql = q.sql(cube.q3Literals());
        long bytes = q.bytesRead(cube.rows(), cube.storedWidths());
        CubeRun cubeRun = timeCube(q, cube, sql);
        ResultTable cubeAnswer = cubeRun.answer();
        AtomicReference<DuckDbPeer.Fetched> duckAnswer = new AtomicReference<>();
        Summary duckSeconds = time(() -> duckAnswer.set(duck.fetch(sql)));
        ResultTable duckTable = duckAnswer.get().table();
        ResultComparison cmp =
                ResultComparison.compare(duckTable, cubeAnswer, q.ordered(), ResultComparison.SUM_TOLERANCE);
        Timing cubeTiming = cubeRun.seconds() == null
                ? Timing.failed()
                : Timing.of(cubeRun.seconds(), cube.rows(), bytes, probeGbs);
        Timing duckTiming = Timing.of(duckSeconds, cube.rows(), bytes, probeGbs);
        Timing tuned = null;
        Double tunedSpeedup = null;
        String check = cubeRun.error() != null ? cubeRun.error() : cmp.equal() ? "OK" : "FAILED: " + cmp.difference();
        if (q == ReferenceQuery.Q4) {
            Summary tunedSeconds = timeTunedDuck(duck, sql, duckAnswer);
            tuned = Timing.of(tunedSeconds, cube.rows(), bytes, probeGbs);
            tunedSpeedup = tunedSeconds.median() / cubeTiming.medianSeconds();
            ResultComparison tunedCmp = ResultComparison.compare(
                    duckAnswer.get().table(), cubeAnswer, q.ordered(), ResultComparison.SUM_TOLERANCE);
            if (cmp.equal() && !tunedCmp.equal()) {
                check = "FAILED (vs tuned DuckDB): " + tunedCmp.difference();
            }
        }
        Timing loopTiming = loop == null ? null : Timing.of(loop.seconds(), cube.rows(), bytes, probeGbs);
        String loopCheck = loop == null ? null : bareLoopCheck(q, duckTable, loop);
        double speedup = duckSeconds.median() / cubeTiming.medianSeconds();
        progress.line(
                "peers: %s numacube %.4f s, DuckDB %.4f s%s -> %.1fx, %.0f%% of probe, answers %s%s",
                q.name(),
                cubeTiming.medianSeconds(),
                duckSeconds.median(),
                tuned == null ? "" : String.format(java.util.Locale.ROOT, " (tuned %.4f s)", tuned.medianSeconds()),
                speedup,
                100 * cubeTiming.fractionOfProbe(),
                check.startsWith("OK") ? "equal" : check,
                loopCheck == null || loopCheck.equals("OK") ? "" : "; bare loop " + loopCheck);
        List<BenchReport.OtherPeerFigures> others =
                lineup.figures(q, sql, duckTable, cube.rows(), bytes, probeGbs, cubeTiming.medianSeconds());
        return new QueryFigures(
                q.name(),
                q.title(),
                sql,
                bytes,
                cubeTiming,
                duckTiming,
                tuned,
                q == ReferenceQuery.Q4 ? DUCKDB_Q4_TUNING : null,
                speedup,
                tunedSpeedup,
                cubeTiming.fractionOfProbe(),
                check,
                cubeRun.last() == null ? null : cubeRun.last().stats(),
                loopTiming,
                loopCheck,
                others);
    }

    /** OK when the bare loop's answer equals DuckDB's, else what differs. */
    private static String bareLoopCheck(ReferenceQuery q, ResultTable duckTable, BaselineRun loop) {
        ResultComparison loopCmp =
                ResultComparison.compare(duckTable, loop.answer(), q.ordered(), ResultComparison.SUM_TOLERANCE);
        return loopCmp.equal() ? "OK" : "FAILED: " + loopCmp.difference();
    }

    /**
     * numacube's timings and answer for one query; on failure {@code seconds} is null, {@code answer} empty and
     * {@code error} says why.
     *
     * @param last the last answer numacube gave, or null if it gave none
     */
    private record CubeRun(Summary seconds, ResultTable answer, String error, CubeUnderTest.Answer last) {}

    private CubeRun timeCube(ReferenceQuery q, CubeUnderTest cube, String sql) throws Exception {
        AtomicReference<CubeUnderTest.Answer> last = new AtomicReference<>();
        try {
            Summary seconds = time(() -> last.set(cube.query(sql)));
            return new CubeRun(seconds, last.get().table(), null, last.get());
        } catch (RuntimeException e) {
            progress.line("peers: %s numacube FAILED: %s", q.name(), e);
            return new CubeRun(null, new ResultTable(List.of(), List.of()), "FAILED: numacube threw " + e, last.get());
        }
    }

    /**
     * Times {@code sql} on two cubes run by run in turn (a, b, b, a, a, b, ...: neither always goes first), after
     * warming both up, so that a ratio of their figures is not the ratio of two different minutes of a shared machine.
     */
    private CubeRun[] timeCubesAlternating(ReferenceQuery q, CubeUnderTest a, CubeUnderTest b, String sql)
            throws Exception {
        try {
            long start = System.nanoTime();
            for (int i = 0; i < options.warmups() || (System.nanoTime() - start) / 1e9 < options.warmupSeconds(); i++) {
                a.query(sql);
                b.query(sql);
            }
            int runs = Math.max(3, options.repetitions());
            double[][] seconds = new double[2][runs];
            CubeUnderTest.Answer[] last = new CubeUnderTest.Answer[2];
            for (int i = 0; i < runs; i++) {
                for (int k = 0; k < 2; k++) {
                    int c = (i + k) % 2;
                    long t0 = System.nanoTime();
                    last[c] = (c == 0 ? a : b).query(sql);
                    seconds[c][i] = (System.nanoTime() - t0) / 1e9;
                }
            }
            return new CubeRun[] {
                new CubeRun(Summary.of(seconds[0]), last[0].table(), null, last[0]),
                new CubeRun(Summary.of(seconds[1]), last[1].table(), null, last[1])
            };
        } catch (RuntimeException e) {
            progress.line("peers: %s numacube FAILED: %s", q.name(), e);
            CubeRun failed =
                    new CubeRun(null, new ResultTable(List.of(), List.of()), "FAILED: numacube threw " + e, null);
            return new CubeRun[] {failed, failed};
        }
    }

    /** Times DuckDB on {@code sql} with {@link #DUCKDB_Q4_TUNING} set, restored after; answers go to {@code answer}. */
    private Summary timeTunedDuck(DuckDbPeer duck, String sql, AtomicReference<DuckDbPeer.Fetched> answer)
            throws Exception {
        String[] kv = DUCKDB_Q4_TUNING.split("=");
        String before = duck.setting(kv[0]);
        duck.set(kv[0], kv[1]);
        Summary tunedSeconds = time(() -> answer.set(duck.fetch(sql)));
        duck.set(kv[0], before);
        return tunedSeconds;
    }

    /**
     * Warm-up runs, then timed runs of {@code body}; seconds of each timed run. Warm-up runs at least
     * {@link BenchOptions#warmups()} times and for at least {@link BenchOptions#warmupSeconds()} (kernels called on a
     * few morsels per query are compiled only after many queries), but stops once it used a quarter of
     * {@link BenchOptions#timeBudgetSeconds()}; the timed runs are as many as fit in the budget (at least 3, at most
     * {@link BenchOptions#repetitions()}); the summary's count says how many.
     */
    private Summary time(ThrowingRunnable body) throws Exception {
        long start = System.nanoTime();
        double one = Double.NaN;
        for (int i = 0; ; i++) {
            double elapsed = (System.nanoTime() - start) / 1e9;
            if (i >= options.warmups() && elapsed >= options.warmupSeconds()
                    || elapsed > options.timeBudgetSeconds() / 4
                    || i >= 10_000) {
                break;
            }
            long t0 = System.nanoTime();
            body.run();
            one = (System.nanoTime() - t0) / 1e9;
        }
        int runs = Double.isNaN(one)
                ? options.repetitions()
                : (int) Math.max(
                        Math.min(3, options.repetitions()),
                        Math.min(options.repetitions(), options.timeBudgetSeconds() / Math.max(one, 1e-9)));
        double[] seconds = new double[runs];
        for (int i = 0; i < seconds.length; i++) {
            long t0 = System.nanoTime();
            body.run();
            seconds[i] = (System.nanoTime() - t0) / 1e9;
        }
        return Summary.of(seconds);
    }

    private BenchReport.Policies policies() throws Exception {
        int cpus = Runtime.getRuntime().availableProcessors();
        List<Integer> streams = new ArrayList<>();
        for (int s = 1; s <= 2 * cpus; s *= 2) {
            streams.add(s);
        }
        if (streams.getLast() != 2 * cpus) {
            streams.add(2 * cpus);
        }
        List<PolicySeries> series = new ArrayList<>();
        for (Placement p : Placement.values()) {
            progress.line("policies: %s: loading %,d rows", p.label(), options.sectionRows());
            try (CubeUnderTest cube = cubes.open(options.sectionRows(), options.seed(), options.threads(), p)) {
                List<String> sqls =
                        MIX.stream().map(q -> q.sql(cube.q3Literals())).toList();
                streamPoint(cube, sqls, Math.min(2, streams.getLast()));
                List<PolicyPoint> points = new ArrayList<>();
                for (int n : streams) {
                    points.add(streamPoint(cube, sqls, n));
                }
                progress.line(
                        "policies: %s: %s q/s at %s streams",
                        p.label(),
                        points.stream()
                                .map(pt -> String.format(java.util.Locale.ROOT, "%.1f", pt.queriesPerSecond()))
                                .toList(),
                        streams);
                series.add(new PolicySeries(
                        p.label(), p.description() + "; " + cube.placementSummary(), cube.loadSeconds(), points));
            }
        }
        String note = cubes.nodes() == 1
                ? "this machine has ONE NUMA node: every policy places the data in the same memory, so the curves "
                        + "can only differ by noise and by load-time effects; the chart is meaningful on a multi-node machine"
                : cubes.nodes() + " NUMA nodes: node-local should lead, remote and one-node trail";
        return new BenchReport.Policies(
                note, cubes.nodes(), MIX.stream().map(Enum::name).toList(), series);
    }

    private PolicyPoint streamPoint(CubeUnderTest cube, List<String> sqls, int streams) {
        AtomicInteger done = new AtomicInteger();
        long deadline = System.nanoTime() + (long) (options.streamSeconds() * 1e9);
        long t0 = System.nanoTime();
        ThreadTeam.unpinned().run(streams, s -> {
            int i = s;
            while (System.nanoTime() < deadline) {
                cube.query(sqls.get(i++ % sqls.size()));
                done.incrementAndGet();
            }
        });
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new PolicyPoint(streams, done.get(), seconds, done.get() / seconds);
    }

    private BenchReport.Scaling scaling(Machine machine) throws Exception {
        int maxThreads = Math.max(1, options.threads());
        List<Integer> threads = new ArrayList<>();
        for (int t = 1; t <= maxThreads; t *= 2) {
            threads.add(t);
        }
        if (threads.getLast() != maxThreads) {
            threads.add(maxThreads);
        }
        List<ScalePoint> amdahl = new ArrayList<>();
        for (int t : threads) {
            Summary s = mixSeconds(options.sectionRows(), t, Placement.NODE_LOCAL, "scaling: Amdahl");
            double speedup = amdahl.isEmpty() ? 1 : amdahl.getFirst().seconds().median() / s.median();
            amdahl.add(ScalePoint.of(t, cubes.nodes(), options.sectionRows(), s, speedup));
        }
        List<ScalePoint> gustafson = new ArrayList<>();
        long base = Math.max(1000, options.sectionRows() / maxThreads);
        for (int t : threads) {
            long rows = base * t;
            Summary s = mixSeconds(rows, t, Placement.NODE_LOCAL, "scaling: Gustafson");
            double flat =
                    gustafson.isEmpty() ? 1 : gustafson.getFirst().seconds().median() / s.median();
            gustafson.add(ScalePoint.of(t, cubes.nodes(), rows, s, flat * t));
        }
        String note = cubes.nodes() == 1
                ? "one NUMA node: scaled by cores (threads) on node 0, not by nodes; with " + machine.logicalCpus()
                        + " CPUs shared with other work, efficiency below 100% at the top is expected"
                : "scaled by threads across " + cubes.nodes() + " nodes";
        return new BenchReport.Scaling(
                note,
                cubes.nodes() == 1 ? "cores" : "cores (across nodes)",
                MIX.stream().map(Enum::name).toList(),
                amdahl,
                gustafson);
    }

    /** Median-based summary of timed runs of the whole mix on a fresh cube. */
    private Summary mixSeconds(long rows, int threads, Placement placement, String what) throws Exception {
        try (CubeUnderTest cube = cubes.open(rows, options.seed(), threads, placement)) {
            List<String> sqls = MIX.stream().map(q -> q.sql(cube.q3Literals())).toList();
            Summary s = time(() -> {
                for (String sql : sqls) {
                    cube.query(sql);
                }
            });
            progress.line(
                    "%s: %d thread(s), %,d rows: mix median %.4f s (cv %.1f%%)",
                    what, threads, rows, s.median(), 100 * s.cv());
            return s;
        }
    }

    private BenchReport.Stability stability() throws Exception {
        List<StabilityRow> rows = new ArrayList<>();
        List<Placement> placements =
                options.quick() ? List.of(Placement.NODE_LOCAL, Placement.OS_DEFAULT) : List.of(Placement.values());
        // round robin over the configurations, so that a machine whose load drifts hurts them all alike
        List<List<Summary>> runs = new ArrayList<>();
        placements.forEach(p -> runs.add(new ArrayList<>()));
        for (int r = 0; r < options.stabilityRepeats(); r++) {
            for (int i = 0; i < placements.size(); i++) {
                Placement p = placements.get(i);
                runs.get(i)
                        .add(mixSeconds(
                                options.sectionRows(),
                                options.threads(),
                                p,
                                "stability: " + p.label() + " repeat " + (r + 1)));
            }
        }
        for (int i = 0; i < placements.size(); i++) {
            List<Double> perRepeat = runs.get(i).stream().map(Summary::median).toList();
            double within =
                    runs.get(i).stream().mapToDouble(Summary::cv).average().orElse(Double.NaN);
            Summary across = Summary.of(
                    perRepeat.stream().mapToDouble(Double::doubleValue).toArray());
            rows.add(new StabilityRow(
                    placements.get(i).label() + ", " + options.threads() + " threads",
                    perRepeat.size(),
                    perRepeat,
                    across,
                    within));
        }
        String note = cubes.nodes() == 1
                ? "one NUMA node: placed and OS-default runs use the same memory, so they should be equally steady "
                        + "here; the difference seed 001 describes needs several nodes"
                : "placed runs should vary less across fresh cubes than OS-default runs";
        note += "; cv across = coefficient of variation of the per-cube medians (fresh load each repeat), "
                + "cv within = mean cv of the timed runs inside one cube";
        return new BenchReport.Stability(note, MIX.stream().map(Enum::name).toList(), rows);
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    @FunctionalInterface
    private interface SectionBody<T> {
        T run() throws Exception;
    }

    /**
     * Runs one section when it was asked for; a section that throws is recorded in the report's errors (and left
     * null), so the other sections still run and the report is still written.
     */
    private <T> T section(Section section, SectionBody<T> body) {
        if (!options.sections().contains(section)) {
            return null;
        }
        String name = section.name().toLowerCase(java.util.Locale.ROOT);
        CpuMeter meter = CpuMeter.start();
        long t0 = System.nanoTime();
        try {
            return body.run();
        } catch (Exception | OutOfMemoryError e) {
            progress.line("%s: FAILED: %s", name, e);
            errors.add(name + ": " + e);
            return null;
        } finally {
            double others = meter.othersFraction();
            contention.add(new BenchReport.SectionContention(name, (System.nanoTime() - t0) / 1e9, others));
            progress.line("%s: done; other processes used %.0f%% of the CPUs meanwhile", name, 100 * others);
        }
    }

    /**
     * Whether the run failed: a section threw, or an answer differed from DuckDB's (a TPC-H query numacube refuses is
     * not a failure; a wrong answer is), or a server's answer from the embedded engine's.
     */
    public static boolean failed(BenchReport report) {
        return !report.errors().isEmpty()
                || report.peers() != null && !report.peers().allEqual()
                || report.tpch() != null && !report.tpch().allEqual()
                || report.serve() != null && !report.serve().allEqual();
    }
}
