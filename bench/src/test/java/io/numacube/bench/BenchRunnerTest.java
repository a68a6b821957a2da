package io.numacube.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.bench.baseline.LoopCube;
import io.numacube.bench.probe.ThreadTeam;
import io.numacube.bench.report.BenchReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every section end to end on tiny data, with the bare loop as the measured engine and as the baseline. */
class BenchRunnerTest {

    private static BenchOptions tiny(Path dir) {
        return new BenchOptions(true, 30_000, 20_000, 42, 2, EnumSet.allOf(BenchOptions.Section.class),
                dir.resolve("out/bench.json"), dir.resolve("charts"), 1 << 20, 1, 2, 0.02, 2);
    }

    @Test
    void runsEverySectionChecksTheAnswersAndWritesJsonAndCharts(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        BenchReport report = new BenchRunner(tiny(dir), LoopCube.factory(), LoopCube.factory(), ThreadTeam.unpinned(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(progress, true,
                StandardCharsets.UTF_8)).run();

        assertTrue(report.peers().allEqual(), () -> report.peers().queries().toString());
        assertEquals(5, report.peers().queries().size());
        assertTrue(report.peers().queries().stream().allMatch(q -> "OK".equals(q.bareLoopCheck())));
        assertEquals(5, report.policies().series().size());
        int cpus = Runtime.getRuntime().availableProcessors();
        assertEquals(2 * cpus, report.policies().series().getFirst().points().getLast().streams());
        assertEquals(2, report.scaling().amdahl().size());
        assertEquals(2, report.scaling().gustafson().getLast().threads());
        assertEquals(2 * report.scaling().gustafson().getFirst().rows(), report.scaling().gustafson().getLast().rows());
        assertFalse(report.stability().rows().isEmpty());
        assertFalse(BenchRunner.failed(report));

        JsonNode json = new ObjectMapper().readTree(dir.resolve("out/bench.json").toFile());
        assertEquals(5, json.path("peers").path("queries").size());
        assertTrue(json.path("peers").path("queries").get(0).path("numacube").path("medianSeconds").asDouble() > 0);
        byte[] png = {(byte) 0x89, 'P', 'N', 'G'};
        for (String chart : new String[] {"policies.png", "scaling-amdahl.png", "scaling-gustafson.png"}) {
            byte[] head = new byte[4];
            System.arraycopy(Files.readAllBytes(dir.resolve("charts").resolve(chart)), 0, head, 0, 4);
            assertArrayEquals(png, head, chart);
        }
        String table = out.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("Q5"), table);
        assertTrue(table.contains("bare loop"), table);
        assertTrue(progress.toString(StandardCharsets.UTF_8).contains("peers: Q1"));
    }
}
