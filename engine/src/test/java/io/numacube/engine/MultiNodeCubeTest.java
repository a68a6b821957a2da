package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.gen.ReferenceQueries;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.storage.Placement;
import io.numacube.engine.storage.ProgressListener;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The multi-node acceptance checks, for the QEMU multi-node VM stage (tag {@code multinode}, excluded by
 * default): fails, rather than skips, on a machine with fewer than two data nodes.
 */
@Tag("multinode")
class MultiNodeCubeTest {
    /** The reference queries twice, so that one unlucky query (a vCPU the host took away) weighs half as much. */
    private static final List<String> COUNTED_ROUNDS_OF_QUERIES = Stream.concat(
                    ReferenceQueries.ALL.stream(), ReferenceQueries.ALL.stream())
            .toList();

    /**
     * Pages of each partition on its node, and at least 95% of morsels run by their home node's workers once the
     * queries are compiled: each is run once before counting, because on the stage's two emulated vCPUs the JIT's
     * compiler threads take one vCPU from its worker during a first run (the demo's first runs showed 91% at home,
     * its later runs 97-100%), which is the warm-up's imbalance, not the scheduler's. Then two rounds are counted, over
     * 8M rows (124 morsels a query): with 4M, a vCPU the host slowed for a query weighed enough to bring a CI run to
     * 95.7 %; with 8M the same run shape gave 97.5 %.
     */
    @Test
    void partitionsAreOnTheirNodesAndMorselsRunAtHome() {
        try (Cube cube = Cube.open(CubeOptions.defaults())) {
            assertTrue(cube.dataNodes().size() >= 2, "the multi-node stage needs two data nodes: " + cube.describe());
            cube.generateTrades(8_000_000, 1, ProgressListener.NONE);
            Set<Integer> nodesUsed = new HashSet<>();
            for (PartitionInfo p : cube.placement()) {
                if (p.table().equals("trades")) {
                    nodesUsed.add(p.memoryNode());
                    assertTrue(p.pagesOnNodePct() >= 99.0, "pages of a partition on its node: " + p);
                }
            }
            assertTrue(nodesUsed.size() >= 2, "partitions spread over the data nodes: " + nodesUsed);
            for (String q : ReferenceQueries.ALL) {
                cube.query(q);
            }
            long morsels = 0;
            long home = 0;
            StringBuilder perQuery = new StringBuilder();
            for (String q : COUNTED_ROUNDS_OF_QUERIES) {
                QueryStats s = cube.query(q).stats();
                morsels += s.morsels();
                home += s.morselsHome();
                perQuery.append(String.format(
                        "%n  %d of %d morsels at home, by node %s, %.1f ms: %s",
                        s.morselsHome(), s.morsels(), s.morselsByNode(), s.wallSeconds() * 1e3, q));
            }
            System.out.println("morsels at home per query, partitions " + cube.placement() + perQuery);
            assertTrue(
                    home >= 0.95 * morsels,
                    "morsels run on their home node: home=" + home + " morsels=" + morsels + perQuery);
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
