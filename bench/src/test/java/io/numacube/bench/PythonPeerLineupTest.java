package io.numacube.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.bench.peer.FakePython;
import io.numacube.bench.peer.PythonPeers;
import io.numacube.bench.peer.ReferenceQuery;
import io.numacube.bench.peer.ResultTable;
import io.numacube.bench.report.BenchReport.OtherPeer;
import io.numacube.bench.report.BenchReport.OtherPeerFigures;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PythonPeerLineupTest {

    private static final String LOAD =
            "{\"version\":\"ClickHouse 26.9\",\"layout\":\"MergeTree\",\"loadSeconds\":0.5,\"rows\":3}";
    private static final ResultTable DUCKDB_Q1 =
            new ResultTable(List.of("currency", "sum(pnl)"), List.of(List.of("EUR", 1.5), List.of("USD", 2.0)));

    @TempDir
    Path dir;

    private final List<String> skips = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();

    private PythonPeerLineup lineup(String queryReply, boolean ci) throws Exception {
        Path python = FakePython.write(dir, LOAD, queryReply);
        PythonPeers peers = PythonPeers.start(python, dir.resolve("run"), 2);
        PythonPeerLineup lineup = new PythonPeerLineup(
                peers,
                dir.resolve("run"),
                new PythonPeers.TimingRule(1, 0, 3, 1),
                new Progress(new PrintStream(PrintStream.nullOutputStream())));
        lineup.load("clickhouse", 3, skips::add, errors::add, ci);
        return lineup;
    }

    @Test
    void anEqualAnswerIsOkAndItsRatioIsThePeersMedianOverNumacubes() throws Exception {
        try (PythonPeerLineup l = lineup(
                "{\"seconds\":[0.2,0.4,0.3],\"columns\":[\"currency\",\"s\"],\"rows\":[[\"USD\",2],[\"EUR\",1.5]]}",
                false)) {
            List<OtherPeerFigures> f = l.figures(ReferenceQuery.Q1, "SELECT", DUCKDB_Q1, 3, 48, 10, 0.1);
            assertEquals(1, f.size());
            assertEquals("OK", f.getFirst().check());
            assertEquals(3.0, f.getFirst().speedupVsPeer(), 1e-9);
        }
    }

    @Test
    void aWrongAnswerFailsNamingTheQueryThePeerAndTheFirstDifferingRow() throws Exception {
        try (PythonPeerLineup l = lineup(
                "{\"seconds\":[0.2],\"columns\":[\"currency\",\"s\"],\"rows\":[[\"USD\",2],[\"EUR\",1.6]]}", false)) {
            OtherPeerFigures f = l.figures(ReferenceQuery.Q1, "SELECT", DUCKDB_Q1, 3, 48, 10, 0.1)
                    .getFirst();
            assertEquals(
                    "FAILED: Q1 in clickhouse differs from DuckDB: row 1 column 2 (sum(pnl)): expected=1.5 actual=1.6;"
                            + " expected row=[EUR, 1.5] actual row=[EUR, 1.6]",
                    f.check());
        }
    }

    @Test
    void withoutAnEnvironmentEveryPythonPeerIsSkippedWithTheReasonAndUnderCiEachIsAnError() throws Exception {
        BenchOptions options = new BenchOptions(
                true,
                1000,
                1000,
                42,
                2,
                java.util.EnumSet.noneOf(BenchOptions.Section.class),
                null,
                null,
                1 << 20,
                1,
                3,
                0.1,
                1,
                0.1,
                1.0);
        try (PythonPeerLineup l = PythonPeerLineup.open(
                options,
                new io.numacube.bench.peer.PeerVenv.Unavailable("no python3"),
                null,
                1000,
                new Progress(new PrintStream(PrintStream.nullOutputStream())),
                skips::add,
                errors::add,
                true)) {
            assertEquals(
                    PythonPeers.ENGINES,
                    l.peers().stream().map(OtherPeer::engine).toList());
            assertTrue(l.peers().stream().allMatch(p -> "no python3".equals(p.skipped())));
            assertEquals(3, skips.size());
            assertEquals(
                    "peer clickhouse SKIPPED: no python3 (CI=true: a skipped peer fails the run)", errors.getFirst());
            assertEquals(3, errors.size());
        }
    }

    @Test
    void aLoadWithOtherRowsSkipsThePeerLoudlyAndUnderCiIsAnError() throws Exception {
        Path python = FakePython.write(dir, LOAD, "{}");
        try (PythonPeerLineup l = new PythonPeerLineup(
                PythonPeers.start(python, dir.resolve("run"), 2),
                dir.resolve("run"),
                new PythonPeers.TimingRule(1, 0, 3, 1),
                new Progress(new PrintStream(PrintStream.nullOutputStream())))) {
            l.load("polars", 4, skips::add, errors::add, true);
            OtherPeer p = l.peers().getFirst();
            assertEquals("it loaded 3 rows, not 4", p.skipped());
            assertEquals(List.of("peer polars SKIPPED: it loaded 3 rows, not 4"), skips);
            assertEquals(
                    List.of("peer polars SKIPPED: it loaded 3 rows, not 4 (CI=true: a skipped peer fails the run)"),
                    errors);
            assertTrue(l.figures(ReferenceQuery.Q1, "SELECT", DUCKDB_Q1, 3, 48, 10, 0.1)
                    .isEmpty());
        }
    }
}
