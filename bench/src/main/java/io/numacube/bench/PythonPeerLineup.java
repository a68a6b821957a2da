package io.numacube.bench;

import io.numacube.bench.peer.DuckDbPeer;
import io.numacube.bench.peer.PeerVenv;
import io.numacube.bench.peer.PythonPeers;
import io.numacube.bench.peer.ReferenceQuery;
import io.numacube.bench.peer.ResultComparison;
import io.numacube.bench.peer.ResultTable;
import io.numacube.bench.report.BenchReport.Load;
import io.numacube.bench.report.BenchReport.OtherPeer;
import io.numacube.bench.report.BenchReport.OtherPeerFigures;
import io.numacube.bench.report.BenchReport.Timing;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The peers section's peers beside DuckDB that run from Python — ClickHouse (chDB), Polars, and DuckDB's Python
 * package as a check of the route's own cost: prepares their virtual environment ({@link PeerVenv}), writes the rows
 * the JDBC DuckDB holds as Parquet files (so every peer gets the very rows numacube and DuckDB hold), loads them into
 * each engine in the layout its documentation recommends, and times each query in each of them right after DuckDB,
 * checking each answer against DuckDB's.
 *
 * <p>A peer that cannot run (no Python, no {@code venv}, the registry out of reach, a failed load) is skipped: a loud
 * progress line and a report note say which and why, and under {@code CI=true} it is also an error of the run, since a
 * smoke test that silently lost a peer would prove nothing. Not thread-safe. {@link #close()} ends the Python process
 * and deletes the data files.
 */
final class PythonPeerLineup implements AutoCloseable {

    /** Where the Parquet files and ClickHouse's tables go, one directory per run below it. */
    static final Path DATA_ROOT = Path.of("build", "peers-data");

    private final Map<String, OtherPeer> peers = new LinkedHashMap<>();
    private final PythonPeers python;
    private final Path dataDir;
    private final PythonPeers.TimingRule timing;
    private final Progress progress;

    /** A lineup over a started {@code python} (null when none could start); no peer is loaded yet. */
    PythonPeerLineup(PythonPeers python, Path dataDir, PythonPeers.TimingRule timing, Progress progress) {
        this.python = python;
        this.dataDir = dataDir;
        this.timing = timing;
        this.progress = progress;
    }

    /**
     * Prepares the peers' virtual environment in {@code dir} (from {@code NUMACUBE_PYTHON}, or {@code python3}), before
     * any data is loaded, so that building it once does not sit between the engines' runs.
     */
    static PeerVenv.Outcome prepareVenv(Path dir, Progress progress) {
        String basePython = System.getenv().getOrDefault("NUMACUBE_PYTHON", "python3");
        return PeerVenv.prepare(dir, basePython, l -> progress.line("peers: %s", l));
    }

    /** A lineup without Python peers (the run did not ask for them): no peers, no figures. */
    static PythonPeerLineup none(Progress progress) {
        return new PythonPeerLineup(null, null, null, progress);
    }

    /**
     * Writes the Parquet files and loads every Python peer; never throws for a peer that cannot run (see the type's
     * contract).
     *
     * @param venv  what {@link #prepareVenv} found
     * @param skips receives "peer ENGINE SKIPPED: why" for each skipped peer (the report's notes)
     * @param ci    whether a skip is an error too ({@code CI=true}); errors go to {@code errors}
     */
    static PythonPeerLineup open(
            BenchOptions options,
            PeerVenv.Outcome venv,
            DuckDbPeer duck,
            long rows,
            Progress progress,
            Consumer<String> skips,
            Consumer<String> errors,
            boolean ci) {
        PythonPeers.TimingRule timing = new PythonPeers.TimingRule(
                options.warmups(), options.warmupSeconds(), options.repetitions(), options.timeBudgetSeconds());
        Path dataDir = DATA_ROOT.resolve("run-" + ProcessHandle.current().pid());
        PythonPeerLineup lineup = null;
        String why = null;
        if (venv instanceof PeerVenv.Unavailable u) {
            why = u.reason();
        } else {
            try {
                progress.line("peers: writing the %,d rows DuckDB holds as Parquet files in %s", rows, dataDir);
                java.nio.file.Files.createDirectories(dataDir);
                for (String table : List.of("trades", "fx", "books")) {
                    duck.exportParquet(table, dataDir.resolve(table + ".parquet"));
                }
                PythonPeers started = PythonPeers.start(((PeerVenv.Ready) venv).python(), dataDir, options.threads());
                lineup = new PythonPeerLineup(started, dataDir, timing, progress);
            } catch (IOException | java.sql.SQLException e) {
                why = "cannot start the Python peers: " + e.getMessage();
            }
        }
        if (lineup == null) {
            lineup = new PythonPeerLineup(null, dataDir, timing, progress);
            for (String engine : PythonPeers.ENGINES) {
                lineup.skip(engine, why, skips, errors, ci);
            }
            return lineup;
        }
        for (String engine : PythonPeers.ENGINES) {
            lineup.load(engine, rows, skips, errors, ci);
        }
        return lineup;
    }

    /** Loads {@code engine}; a failed load, or one with other than {@code rows} fact rows, skips it. */
    void load(String engine, long rows, Consumer<String> skips, Consumer<String> errors, boolean ci) {
        progress.line("peers: %s loads the Parquet files", engine);
        try {
            PythonPeers.Loaded l = python.load(engine, dataDir);
            if (l.rows() != rows) {
                skip(engine, "it loaded " + l.rows() + " rows, not " + rows, skips, errors, ci);
                return;
            }
            peers.put(
                    engine,
                    new OtherPeer(
                            engine, l.version(), l.layout(), new Load(l.loadSeconds(), rows / l.loadSeconds()), null));
            progress.line("peers: %s loaded in %.2f s: %s; %s", engine, l.loadSeconds(), l.version(), l.layout());
        } catch (IOException e) {
            skip(engine, e.getMessage(), skips, errors, ci);
        }
    }

    void skip(String engine, String why, Consumer<String> skips, Consumer<String> errors, boolean ci) {
        peers.put(engine, new OtherPeer(engine, null, null, null, why));
        String line = "peer " + engine + " SKIPPED: " + why;
        progress.line("peers: !!! %s", line);
        skips.accept(line);
        if (ci) {
            errors.accept(line + " (CI=true: a skipped peer fails the run)");
        }
    }

    /** Every Python peer, in {@link PythonPeers#ENGINES} order, each ran or skipped with why. */
    List<OtherPeer> peers() {
        return List.copyOf(peers.values());
    }

    /**
     * Times {@code sql} in each loaded peer and checks its answer against {@code expected} (DuckDB's); a peer that
     * fails the query gets {@link Timing#failed()} and a FAILED check naming the query and the peer. One progress line
     * per peer.
     *
     * @param numacubeMedian numacube's median seconds on this query, for the ratios
     */
    List<OtherPeerFigures> figures(
            ReferenceQuery q,
            String sql,
            ResultTable expected,
            long rows,
            long bytes,
            double probeGbs,
            double numacubeMedian) {
        List<OtherPeerFigures> out = new ArrayList<>();
        for (OtherPeer peer : peers.values()) {
            if (peer.skipped() != null) {
                continue;
            }
            try {
                PythonPeers.Answer a = python.query(peer.engine(), q.name(), sql, timing);
                ResultComparison cmp =
                        ResultComparison.compare(expected, a.answer(), q.ordered(), ResultComparison.SUM_TOLERANCE);
                String check = cmp.equal()
                        ? "OK"
                        : "FAILED: " + q.name() + " in " + peer.engine() + " differs from DuckDB: " + cmp.difference();
                Timing t = Timing.of(a.seconds(), rows, bytes, probeGbs);
                out.add(new OtherPeerFigures(peer.engine(), t, t.medianSeconds() / numacubeMedian, check));
            } catch (IOException e) {
                out.add(new OtherPeerFigures(
                        peer.engine(), Timing.failed(), Double.NaN, "FAILED: " + q.name() + ": " + e.getMessage()));
            }
        }
        for (OtherPeerFigures o : out) {
            progress.line(
                    "peers: %s %s %.4f s -> numacube %.1fx, answers %s",
                    q.name(),
                    o.engine(),
                    o.timing().medianSeconds(),
                    o.speedupVsPeer(),
                    o.check().equals("OK") ? "equal" : o.check());
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        try {
            if (python != null) {
                python.close();
            }
        } finally {
            if (dataDir != null) {
                deleteTree(dataDir);
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!java.nio.file.Files.exists(dir)) {
            return;
        }
        try (java.util.stream.Stream<Path> paths = java.nio.file.Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                java.nio.file.Files.delete(p);
            }
        }
    }
}
