package io.numacube.server.query;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.PlacementChange;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerMetricsTest {

    private static PlacementChange change(int partitions, long bytes, String outcome) {
        return new PlacementChange(
                Instant.EPOCH,
                "mems 0-1 -> 1",
                List.of(0, 1),
                List.of(1),
                Map.of(0, "1", 1, "1"),
                partitions,
                bytes,
                List.of(1),
                1.0,
                100.0,
                outcome,
                PlacementChange.Cause.BINDINGS,
                "",
                "moved in place",
                "");
    }

    @Test
    void countsPlacementChangesByOutcomeAndWhatMoved() {
        ServerMetrics m = new ServerMetrics();
        m.placementChange(change(3, 3000, "done"));
        m.placementChange(change(2, 500, "done"));
        m.placementChange(change(0, 0, "failed: no planned data node [2] has workers"));
        try (Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1))) {
            String text = m.prometheus(cube, new QueryAdmission(1, 1));
            assertTrue(text.contains("# TYPE numacube_placement_changes_total counter\n"), text);
            assertTrue(text.contains("numacube_placement_changes_total{outcome=\"done\"} 2\n"), text);
            assertTrue(text.contains("numacube_placement_changes_total{outcome=\"failed\"} 1\n"), text);
            assertTrue(text.contains("numacube_partitions_moved_total 5\n"), text);
            assertTrue(text.contains("numacube_moved_bytes_total 3500\n"), text);
        }
    }
}
