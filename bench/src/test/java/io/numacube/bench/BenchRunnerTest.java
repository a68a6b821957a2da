package io.numacube.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.bench.baseline.LoopCube;
import io.numacube.bench.probe.ThreadTeam;
import io.numacube.bench.report.BenchReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every section end to end on tiny data, with the bare loop as the measured engine and as the baseline. */
class BenchRunnerTest {

    private static BenchOptions tiny(Path dir) {
        return new BenchOptions(
                true,
                30_000,
                20_000,
                42,
                2,
                EnumSet.allOf(BenchOptions.Section.class),
                dir.resolve("out/bench.json"),
                dir.resolve("charts"),
                1 << 20,
                1,
                2,
                0.02,
                2,
                0.05,
                1.0);
    }

    @Test
    void runsEverySectionChecksTheAnswersAndWritesJsonAndCharts(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        BenchReport report = new BenchRunner(
                        tiny(dir),
                        LoopCube.factory(),
                        LoopCube.factory(),
                        ThreadTeam.unpinned(),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(progress, true, StandardCharsets.UTF_8))
                .run();

        assertTrue(report.peers().allEqual(), () -> report.peers().queries().toString());
        assertEquals(6, report.peers().queries().size());
        assertEquals("Q6", report.peers().queries().getLast().id());
        assertEquals(null, report.peers().nullPnl(), "the loop holds no NULLs");
        assertTrue(
                report.notes().stream().anyMatch(n -> n.startsWith("Q1 with NULL pnl not run")),
                () -> report.notes().toString());
        assertTrue(report.peers().queries().stream().allMatch(q -> "OK".equals(q.bareLoopCheck())));
        assertEquals(5, report.policies().series().size());
        int cpus = Runtime.getRuntime().availableProcessors();
        assertEquals(
                2 * cpus,
                report.policies().series().getFirst().points().getLast().streams());
        assertEquals(2, report.scaling().amdahl().size());
        assertEquals(2, report.scaling().gustafson().getLast().threads());
        assertEquals(
                2 * report.scaling().gustafson().getFirst().rows(),
                report.scaling().gustafson().getLast().rows());
        assertFalse(report.stability().rows().isEmpty());
        assertEquals(30_000, report.fileLoads().rows());
        assertEquals(
                "[numacube Parquet, numacube CSV, DuckDB Parquet, DuckDB CSV]",
                report.fileLoads().loads().stream()
                        .map(l -> l.engine() + " " + l.format())
                        .toList()
                        .toString());
        assertTrue(
                report.fileLoads().parquetVsDuckdb() > 0,
                () -> report.fileLoads().toString());
        assertEquals(22, report.tpch().queries().size());
        assertTrue(report.tpch().allEqual(), () -> report.tpch().queries().toString());
        assertTrue(
                report.tpch().queries().getFirst().supported(),
                () -> report.tpch().queries().toString());
        assertTrue(
                report.tpch().loads().stream()
                        .anyMatch(l -> l.table().equals("lineitem")
                                && l.engine().equals("numacube")
                                && l.format().equals("CSV")),
                () -> report.tpch().loads().toString());
        assertFalse(BenchRunner.failed(report));
        assertTrue(
                report.migration().bytesPerPass() > 0, () -> report.migration().toString());
        assertEquals(3, report.migration().gbPerSecond().count());
        assertTrue(report.migration().idle().queries() > 0
                && report.migration().idle().passes() == 0);
        assertTrue(
                report.migration().duringUnlimited().passes() > 0,
                () -> report.migration().toString());

        JsonNode json =
                new ObjectMapper().readTree(dir.resolve("out/bench.json").toFile());
        assertEquals(6, json.path("peers").path("queries").size());
        assertEquals(22, json.path("tpch").path("queries").size());
        assertTrue(json.path("peers")
                        .path("queries")
                        .get(0)
                        .path("numacube")
                        .path("medianSeconds")
                        .asDouble()
                > 0);
        byte[] png = {(byte) 0x89, 'P', 'N', 'G'};
        for (String chart : new String[] {"peers.png", "policies.png", "scaling-amdahl.png", "scaling-gustafson.png"}) {
            byte[] head = new byte[4];
            System.arraycopy(Files.readAllBytes(dir.resolve("charts").resolve(chart)), 0, head, 0, 4);
            assertArrayEquals(png, head, chart);
        }
        String table = out.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("Q5"), table);
        assertTrue(table.contains("bare loop"), table);
        assertTrue(table.contains("TPC-H SF 0.01"), table);
        assertTrue(table.contains("Migration: 20,000 rows"), table);
        assertTrue(progress.toString(StandardCharsets.UTF_8).contains("peers: Q1"));
    }

    /** The peer comparison on the real engine: Q1-Q6 and Q1 over NULL pnl, every answer checked against DuckDB. */
    @Test
    void comparesTheEngineWithDuckDbOnEveryQueryAndOnQ1WithNullPnl(@TempDir Path dir) throws Exception {
        BenchOptions options = new BenchOptions(
                true,
                30_000,
                20_000,
                42,
                2,
                EnumSet.of(BenchOptions.Section.PEERS),
                dir.resolve("peers.json"),
                null,
                1 << 20,
                1,
                2,
                0.02,
                1,
                0.0,
                0.5);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(out, true, StandardCharsets.UTF_8);
        BenchReport report = new BenchRunner(
                        options, io.numacube.bench.engine.EngineCube.factory(), null, ThreadTeam.unpinned(), sink, sink)
                .run();

        assertTrue(report.errors().isEmpty(), report.errors()::toString);
        assertTrue(report.peers().allEqual(), () -> report.peers().toString());
        assertEquals(6, report.peers().queries().size());
        BenchReport.QueryFigures q6 = report.peers().queries().getLast();
        assertEquals("Q6", q6.id());
        assertEquals("OK", q6.check());
        assertTrue(q6.sql().contains("JOIN books USING (book)"), q6.sql());
        BenchReport.NullVariant nulls = report.peers().nullPnl();
        assertEquals("OK", nulls.check());
        assertEquals(0.1, nulls.pnlNullFraction());
        assertTrue(nulls.slowdownVsNullFree() > 0, nulls::toString);
        assertTrue(report.peers().targets().stream().anyMatch(t -> t.startsWith("Q6 >= 10x DuckDB")));
        assertTrue(report.peers().targets().stream().anyMatch(t -> t.startsWith("Q1-NULL (10% NULL pnl) <= 1.3x")));
        JsonNode json = new ObjectMapper().readTree(dir.resolve("peers.json").toFile());
        assertEquals("OK", json.path("peers").path("nullPnl").path("check").asText());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("Q1-NULL"));
    }

    /** The loop cube, except that it throws on Q4 and answers Q1 with a wrong sum. */
    private static final class BrokenCube implements CubeUnderTest {
        private final CubeUnderTest loop;

        BrokenCube(CubeUnderTest loop) {
            this.loop = loop;
        }

        @Override
        public Answer query(String sql) {
            if (sql.equals(io.numacube.bench.peer.ReferenceQuery.Q4.sql(q3Literals()))) {
                throw new IllegalStateException("boom");
            }
            Answer a = loop.query(sql);
            if (!sql.equals(io.numacube.bench.peer.ReferenceQuery.Q1.sql(q3Literals()))) {
                return a;
            }
            return new Answer(
                    () -> {
                        io.numacube.bench.peer.ResultTable t = a.table();
                        java.util.List<java.util.List<Object>> rows = new java.util.ArrayList<>(t.rows());
                        java.util.List<Object> first = new java.util.ArrayList<>(rows.getFirst());
                        first.set(1, (Double) first.get(1) + 1.0);
                        rows.set(0, first);
                        return new io.numacube.bench.peer.ResultTable(t.columns(), rows);
                    },
                    a.stats());
        }

        @Override
        public double loadSeconds() {
            return loop.loadSeconds();
        }

        @Override
        public long rows() {
            return loop.rows();
        }

        @Override
        public java.util.Map<String, Integer> storedWidths() {
            return loop.storedWidths();
        }

        @Override
        public io.numacube.bench.peer.ReferenceQuery.Q3Literals q3Literals() {
            return loop.q3Literals();
        }

        @Override
        public io.numacube.bench.peer.TableSource trades() {
            return loop.trades();
        }

        @Override
        public io.numacube.bench.peer.TableSource fx() {
            return loop.fx();
        }

        @Override
        public String placementSummary() {
            return "";
        }

        @Override
        public void close() {
            loop.close();
        }
    }

    @Test
    void reportsWrongAnswersAndEngineErrorsAsFailuresAndStillWritesTheReport(@TempDir Path dir) throws Exception {
        CubeUnderTest.Factory broken = new CubeUnderTest.Factory() {
            @Override
            public CubeUnderTest open(long rows, long seed, int threads, Placement placement) {
                return new BrokenCube(LoopCube.factory().open(rows, seed, threads, placement));
            }

            @Override
            public int nodes() {
                return 1;
            }

            @Override
            public String description() {
                return "broken";
            }
        };
        BenchOptions options = new BenchOptions(
                true,
                20_000,
                20_000,
                42,
                2,
                EnumSet.of(BenchOptions.Section.PEERS, BenchOptions.Section.SCALING),
                dir.resolve("r.json"),
                null,
                1 << 20,
                0,
                1,
                0.02,
                1,
                0.0,
                1.0);
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        BenchReport report = new BenchRunner(options, broken, null, ThreadTeam.unpinned(), sink, sink).run();

        assertTrue(BenchRunner.failed(report));
        assertTrue(
                report.peers().queries().get(0).check().startsWith("FAILED"),
                report.peers().queries().get(0).check());
        assertTrue(
                report.peers().queries().get(3).check().contains("boom"),
                report.peers().queries().get(3).check());
        assertEquals("OK", report.peers().queries().get(1).check());
        assertTrue(
                report.scaling() == null && report.errors().getFirst().startsWith("scaling:"),
                report.errors()::toString);
        assertTrue(Files.exists(dir.resolve("r.json")));
    }
}
