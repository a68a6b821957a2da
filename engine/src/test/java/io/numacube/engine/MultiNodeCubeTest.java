package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.gen.ReferenceQueries;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.storage.Placement;
import io.numacube.engine.storage.ProgressListener;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The multi-node acceptance checks, for the QEMU multi-node VM stage (tag {@code multinode}, excluded by
 * default): fails, rather than skips, on a machine with fewer than two data nodes.
 */
@Tag("multinode")
class MultiNodeCubeTest {

    @Test
    void partitionsAreOnTheirNodesAndMorselsRunAtHome() {
        try (Cube cube = Cube.open(CubeOptions.defaults())) {
            assertTrue(cube.dataNodes().size() >= 2, "the multi-node stage needs two data nodes: " + cube.describe());
            cube.generateTrades(4_000_000, 1, ProgressListener.NONE);
            Set<Integer> nodesUsed = new HashSet<>();
            for (PartitionInfo p : cube.placement()) {
                if (p.table().equals("trades")) {
                    nodesUsed.add(p.memoryNode());
                    assertTrue(p.pagesOnNodePct() >= 99.0, "pages of a partition on its node: " + p);
                }
            }
            assertTrue(nodesUsed.size() >= 2, "partitions spread over the data nodes: " + nodesUsed);
            long morsels = 0;
            long home = 0;
            for (String q : ReferenceQueries.ALL) {
                QueryStats s = cube.query(q).stats();
                morsels += s.morsels();
                home += s.morselsHome();
            }
            assertTrue(home >= 0.95 * morsels, "morsels run on their home node: home=" + home + " morsels=" + morsels);
        }
    }

    @Test
    void remotePlacementPutsEveryPartitionOnAnotherNode() {
        try (Cube cube = Cube.open(CubeOptions.defaults().withPlacement(Placement.REMOTE))) {
            assertTrue(cube.dataNodes().size() >= 2, "the multi-node stage needs two data nodes: " + cube.describe());
            cube.generateTrades(1_000_000, 1, ProgressListener.NONE);
            List<PartitionInfo> parts = cube.placement();
            for (PartitionInfo p : parts) {
                assertTrue(p.memoryNode() != p.homeNode() && p.pagesOnNodePct() >= 99.0, p.toString());
            }
        }
    }
}
