package io.numacube.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.bench.report.BenchReport.QueryFigures;
import io.numacube.bench.report.BenchReport.Timing;
import io.numacube.bench.stats.Summary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonReportTest {

    static BenchReport sample() {
        Machine machine = new Machine(
                "Test CPU",
                List.of("avx2"),
                List.of("L3 32768K"),
                2,
                1,
                1L << 34,
                "Linux",
                "25",
                List.of("-Xmx1g"),
                1L << 30);
        BenchReport.ProbeFigure one = new BenchReport.ProbeFigure(1, 1L << 28, Summary.of(10, 12), 12);
        BenchReport.ProbeFigure two = new BenchReport.ProbeFigure(2, 1L << 28, Summary.of(20, 24), 24);
        Timing cube = Timing.of(Summary.of(0.01, 0.02, 0.03), 1_000_000, 9_000_000, 24);
        Timing duck = Timing.of(Summary.of(0.2, 0.3), 1_000_000, 9_000_000, 24);
        QueryFigures q1 = new QueryFigures(
                "Q1",
                "currency sums",
                "SELECT 1",
                9_000_000,
                cube,
                duck,
                null,
                null,
                duck.medianSeconds() / cube.medianSeconds(),
                null,
                cube.fractionOfProbe(),
                "OK",
                new BenchReport.EngineStats(1_000_000, 9_000_000, 16, 16, 0, 0, "scan"),
                null,
                null);
        BenchReport.Peers peers = BenchReport.Peers.of(
                1_000_000,
                new BenchReport.Load(0.5, 2e6),
                new BenchReport.Load(1, 1e6),
                "v2.0.0",
                "appender",
                List.of(q1));
        return new BenchReport(
                "numacube bench",
                "2026-11-22T08:00:00Z",
                machine,
                new BenchReport.Settings(
                        1_000_000, 42, 2, true, List.of("probe", "peers"), 1, 3, 2.0, 1_000_000, "engine", 0.5),
                List.of("a note"),
                List.of(),
                List.of(),
                new BenchReport.Probe("kernel", "unpinned", one, two),
                peers,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    @Test
    void everyQueryHasBothEnginesMediansRowsPerSecondTheirRatioAndTheProbeFraction() throws Exception {
        JsonNode root = new ObjectMapper().readTree(JsonReport.toJson(sample()));
        JsonNode q = root.path("peers").path("queries").get(0);
        assertEquals("Q1", q.path("id").asText());
        assertEquals(0.02, q.path("numacube").path("medianSeconds").asDouble(), 1e-12);
        assertEquals(0.25, q.path("duckdb").path("medianSeconds").asDouble(), 1e-12);
        assertEquals(1_000_000 / 0.02, q.path("numacube").path("rowsPerSecond").asDouble(), 1e-6);
        assertEquals(1_000_000 / 0.25, q.path("duckdb").path("rowsPerSecond").asDouble(), 1e-6);
        assertEquals(12.5, q.path("speedupVsDuckdb").asDouble(), 1e-9);
        assertEquals(
                9_000_000 / 0.02 / 1e9 / 24, q.path("numacubeFractionOfProbe").asDouble(), 1e-12);
        assertEquals("OK", q.path("check").asText());
        assertEquals(
                "Q1 >= 10x DuckDB: met (12.5x)",
                root.path("peers").path("targets").get(0).asText());
        assertEquals(
                "Q1 >= 80% of the probe (on the bytes it read): NOT met (2%)",
                root.path("peers").path("targets").get(1).asText());
    }

    @Test
    void eachQueryCarriesEveryOtherPeersRatioAndCheckAndThePeersSayWhichRanAndWhichWereSkipped() throws Exception {
        BenchReport r = sample();
        QueryFigures q1 = r.peers().queries().getFirst();
        Timing ch = Timing.of(Summary.of(0.1, 0.1), 1_000_000, 9_000_000, 24);
        QueryFigures withPeers = new QueryFigures(
                q1.id(),
                q1.title(),
                q1.sql(),
                q1.bytesRead(),
                q1.numacube(),
                q1.duckdb(),
                null,
                null,
                q1.speedupVsDuckdb(),
                null,
                q1.numacubeFractionOfProbe(),
                "OK",
                null,
                null,
                null,
                List.of(new BenchReport.OtherPeerFigures("clickhouse", ch, 5.0, "OK")));
        BenchReport.Peers peers = BenchReport.Peers.of(
                1_000_000,
                r.peers().numacubeLoad(),
                r.peers().duckdbLoad(),
                "v2.0.0",
                "appender",
                "Test CPU; avx2, no AVX-512; L3 32768K; probe 12.0 GB/s with 1 thread, 24.0 GB/s with 2",
                List.of(
                        new BenchReport.OtherPeer(
                                "clickhouse", "ClickHouse 26.9", "MergeTree", new BenchReport.Load(1, 1e6), null),
                        new BenchReport.OtherPeer("polars", null, null, null, "no Python")),
                List.of(withPeers),
                null);
        JsonNode root = new ObjectMapper()
                .readTree(JsonReport.toJson(new BenchReport(
                        r.tool(),
                        r.startedAt(),
                        r.machine(),
                        r.settings(),
                        r.notes(),
                        r.errors(),
                        r.contention(),
                        r.probe(),
                        peers,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null)));
        JsonNode other =
                root.path("peers").path("queries").get(0).path("otherPeers").get(0);
        assertEquals("clickhouse", other.path("engine").asText());
        assertEquals(5.0, other.path("speedupVsPeer").asDouble());
        assertEquals(0.1, other.path("timing").path("medianSeconds").asDouble(), 1e-12);
        assertEquals("OK", other.path("check").asText());
        assertTrue(root.path("peers").path("measuredOn").asText().contains("probe 12.0 GB/s"));
        assertTrue(root.path("peers").path("otherPeers").get(0).path("skipped").isNull());
        assertEquals(
                "no Python",
                root.path("peers").path("otherPeers").get(1).path("skipped").asText());
        assertEquals(
                List.of("polars"),
                peers.skippedPeers().stream().map(BenchReport.OtherPeer::engine).toList());
    }

    @Test
    void aWrongAnswerFromAnotherPeerFailsTheComparison() {
        QueryFigures q1 = sample().peers().queries().getFirst();
        QueryFigures wrong = new QueryFigures(
                q1.id(),
                q1.title(),
                q1.sql(),
                q1.bytesRead(),
                q1.numacube(),
                q1.duckdb(),
                null,
                null,
                q1.speedupVsDuckdb(),
                null,
                q1.numacubeFractionOfProbe(),
                "OK",
                null,
                null,
                null,
                List.of(new BenchReport.OtherPeerFigures("polars", Timing.failed(), Double.NaN, "FAILED: Q1 ...")));
        assertTrue(wrong.failed());
        assertFalse(q1.failed());
    }

    @Test
    void carriesTheMachineDescriptionAndTheProbe() throws Exception {
        JsonNode root = new ObjectMapper().readTree(JsonReport.toJson(sample()));
        assertEquals("Test CPU", root.path("machine").path("cpuModel").asText());
        assertEquals(1, root.path("machine").path("numaNodes").asInt());
        assertEquals("-Xmx1g", root.path("machine").path("jvmFlags").get(0).asText());
        assertEquals(2, root.path("settings").path("threads").asInt());
        assertEquals(
                24,
                root.path("probe").path("allThreads").path("bestGbPerSecond").asDouble());
        assertEquals(
                22,
                root.path("probe")
                        .path("allThreads")
                        .path("gbPerSecond")
                        .path("median")
                        .asDouble());
    }

    @Test
    void sectionsNotRunAreNullNotMissing() throws Exception {
        JsonNode root = new ObjectMapper().readTree(JsonReport.toJson(sample()));
        assertTrue(root.has("policies"));
        assertTrue(root.path("policies").isNull());
        assertFalse(root.path("peers").isNull());
    }

    @Test
    void escapesStringsAndWritesNonFiniteNumbersAsNull() throws Exception {
        BenchReport r = sample();
        BenchReport odd = new BenchReport(
                "a \"quoted\"\nline\\",
                r.startedAt(),
                r.machine(),
                r.settings(),
                List.of("tab\there"),
                List.of(),
                List.of(),
                new BenchReport.Probe(
                        "k",
                        "t",
                        new BenchReport.ProbeFigure(1, 1, Summary.of(1), Double.NaN),
                        r.probe().allThreads()),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        JsonNode root = new ObjectMapper().readTree(JsonReport.toJson(odd));
        assertEquals("a \"quoted\"\nline\\", root.path("tool").asText());
        assertEquals("tab\there", root.path("notes").get(0).asText());
        assertTrue(root.path("probe").path("oneThread").path("bestGbPerSecond").isNull());
    }

    @Test
    void writesTheFileCreatingItsDirectory(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("a/b/report.json");
        JsonReport.write(sample(), file);
        assertEquals(
                "numacube bench",
                new ObjectMapper().readTree(Files.readString(file)).path("tool").asText());
    }
}
