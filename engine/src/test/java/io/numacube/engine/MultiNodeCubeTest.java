package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.gen.ReferenceQueries;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.storage.Placement;
import io.numacube.engine.storage.ProgressListener;
import java.util.Arrays;
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
    /** Rounds of the reference queries counted; the median round is judged, so one unlucky round cannot fail it. */
    private static final int COUNTED_ROUNDS = 3;

    /**
     * Pages of each partition on its node, and morsels run by their home node's workers: at least 95% in the best of
     * three rounds of the reference queries and 80% in the median round, once they are compiled. Each query is run
     * once before counting: on the stage's two emulated vCPUs the JIT's compiler threads take one vCPU from its worker
     * during a first run (the demo's first runs showed 91% at home, its later runs 97-100%). Rounds, not the sum: a
     * thief takes morsels only from a node that falls behind, and on a loaded CI host a vCPU the host deschedules for
     * a second makes its node fall behind for a whole query (CI runs had 114 and 119 of 124 at home in one query, and a
     * median round under 95%); a placement or scheduling fault (about half at home on two nodes) lowers every round.
     * 8M rows: 124 morsels a query.
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
            double[] roundShares = new double[COUNTED_ROUNDS];
            StringBuilder perQuery = new StringBuilder();
            for (int round = 0; round < COUNTED_ROUNDS; round++) {
                roundShares[round] = countRound(cube, round, perQuery);
            }
            System.out.println("morsels at home per query, partitions " + cube.placement() + perQuery);
            double[] sorted = roundShares.clone();
            Arrays.sort(sorted);
            assertTrue(
                    sorted[COUNTED_ROUNDS - 1] >= 0.95 && sorted[COUNTED_ROUNDS / 2] >= 0.80,
                    "morsels run on their home node, best round >= 95%, median >= 80%: shares by round "
                            + Arrays.toString(roundShares) + perQuery);
        }
    }

    /** Runs the reference queries once, appends each query's counts; returns the round's share of morsels at home. */
    private static double countRound(Cube cube, int round, StringBuilder perQuery) {
        long morsels = 0;
        long home = 0;
        for (String q : ReferenceQueries.ALL) {
            QueryStats s = cube.query(q).stats();
            morsels += s.morsels();
            home += s.morselsHome();
            perQuery.append(String.format(
                    "%n  round %d: %d of %d morsels at home, by node %s, %.1f ms: %s",
                    round, s.morselsHome(), s.morsels(), s.morselsByNode(), s.wallSeconds() * 1e3, q));
        }
        return morsels == 0 ? 1.0 : (double) home / morsels;
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
