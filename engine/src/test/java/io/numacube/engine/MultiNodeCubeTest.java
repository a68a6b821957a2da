package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.gen.ReferenceQueries;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.storage.Placement;
import io.numacube.engine.storage.ProgressListener;
import java.util.ArrayList;
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
    /** Rounds of the reference queries counted; every query run of every round is judged on its own. */
    private static final int COUNTED_ROUNDS = 3;

    /**
     * Pages of each partition on its node, and morsels run by their home node's workers: in the median query run of
     * three rounds of the reference queries, at least 80% of its morsels, once they are compiled. Each query is run
     * once before counting: on the stage's two emulated vCPUs the JIT's compiler threads take one vCPU from its worker
     * during a first run (the demo's first runs showed 91% at home, its later runs 97-100%). The median run, not a
     * round's sum: a thief takes morsels only from a node that falls behind, and on a loaded host a vCPU the host
     * deschedules for a second makes its node fall behind for a whole query, so that each round can hold several such
     * runs. Measured: two local runs, at load 1 and 7, had runs of 60-100% at home with medians of 99% and 98%; a
     * fresh-clone CI run had rounds of 91.2%, 90.4% and 94.4% (the earlier rule, best round at least 95%, failed one
     * CI run and would have failed that one) and runs of 65-100% with a median of 91.9%. A placement or scheduling
     * fault puts about half of every run's morsels away from home. 8M rows: 124 morsels a query.
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
            List<Double> runShares = new ArrayList<>();
            StringBuilder perQuery = new StringBuilder();
            for (int round = 0; round < COUNTED_ROUNDS; round++) {
                countRound(cube, round, runShares, perQuery);
            }
            System.out.println("morsels at home per query, partitions " + cube.placement() + perQuery);
            double[] sorted =
                    runShares.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double median = sorted[sorted.length / 2];
            assertTrue(
                    median >= 0.80,
                    "morsels run on their home node, median query run >= 80%: " + median + ", runs "
                            + Arrays.toString(sorted) + perQuery);
        }
    }

    /** Runs the reference queries once, adding each run's share of morsels at home and its counts. */
    private static void countRound(Cube cube, int round, List<Double> runShares, StringBuilder perQuery) {
        for (String q : ReferenceQueries.ALL) {
            QueryStats s = cube.query(q).stats();
            runShares.add(s.morsels() == 0 ? 1.0 : (double) s.morselsHome() / s.morsels());
            perQuery.append(String.format(
                    "%n  round %d: %d of %d morsels at home, by node %s, %.1f ms: %s",
                    round, s.morselsHome(), s.morsels(), s.morselsByNode(), s.wallSeconds() * 1e3, q));
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
