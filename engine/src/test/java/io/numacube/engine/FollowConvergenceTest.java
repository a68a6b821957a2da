package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.FollowConvergence.Worker;
import io.numacube.numa.topology.CpuSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FollowConvergenceTest {

    private static final Map<Integer, CpuSet> TWO_NODES = Map.of(0, CpuSet.of(0), 1, CpuSet.of(1));
    private static final List<Worker> PINNED_HOME =
            List.of(new Worker("numacube-n0-w0", "0"), new Worker("numacube-n1-w0", "1"));

    private static PartitionInfo part(String table, int id, int node, long bytes, double pct) {
        return new PartitionInfo(table, id, "p" + id, node, node, 100, bytes, "bind", pct);
    }

    private static List<PartitionInfo> trades(int... nodes) {
        List<PartitionInfo> out = new java.util.ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            out.add(part("trades", i, nodes[i], 4 << 20, 100.0));
        }
        out.add(part("books", 0, 1, 4096, 100.0));
        return out;
    }

    @Test
    void aCubeAllOnNode1WithItsWorkersThereHasConvergedOnNode1() {
        List<Worker> onNode1 = List.of(new Worker("numacube-n0-w0", "1"), new Worker("numacube-n1-w0", "1"));
        assertEquals("", FollowConvergence.onNode(trades(1, 1, 1, 1), onNode1, 1, CpuSet.of(1)));
    }

    @Test
    void aPartitionLeftOnNode0OrAWorkerStillAllowedNode0IsNotOnNode1() {
        List<Worker> onNode1 = List.of(new Worker("numacube-n0-w0", "1"));
        assertTrue(FollowConvergence.onNode(trades(1, 0, 1), onNode1, 1, CpuSet.of(1))
                .startsWith("partition trades/1 memory_node=0"));
        assertEquals(
                "worker numacube-n0-w0 cpus=0-1",
                FollowConvergence.onNode(trades(1, 1), List.of(new Worker("numacube-n0-w0", "0-1")), 1, CpuSet.of(1)));
    }

    @Test
    void pagesBelow99PercentOnTheRecordedNodeAreNotConverged() {
        List<PartitionInfo> ps = List.of(part("trades", 0, 1, 1 << 20, 98.9), part("trades", 1, 0, 1 << 20, 100));
        assertTrue(FollowConvergence.onNode(ps, PINNED_HOME, 1, CpuSet.of(1)).contains("pct=98.9"));
        assertTrue(FollowConvergence.spread(ps, PINNED_HOME, TWO_NODES).contains("pct=98.9"));
        List<PartitionInfo> unknown = List.of(part("trades", 0, 1, 1 << 20, Double.NaN));
        assertTrue(
                FollowConvergence.onNode(unknown, PINNED_HOME, 1, CpuSet.of(1)).contains("pct=NaN"));
    }

    @Test
    void aTableSpreadWithinOnePartitionAndWorkersOnTheirNodesHasSpread() {
        assertEquals("", FollowConvergence.spread(trades(0, 1, 0, 1, 1), PINNED_HOME, TWO_NODES));
    }

    @Test
    void aTableStillAllOnOneNodeOrLopsidedHasNotSpread() {
        assertTrue(FollowConvergence.spread(trades(1, 1, 1, 1), PINNED_HOME, TWO_NODES)
                .startsWith("table trades bytes per node {1=16777216}"));
        assertTrue(FollowConvergence.spread(trades(0, 1, 1, 1, 1), PINNED_HOME, TWO_NODES)
                .startsWith("table trades bytes per node {0=4194304, 1=16777216}"));
    }

    @Test
    void aWorkerOffItsOwnNodeOrANodeWithoutWorkersHasNotSpread() {
        assertEquals(
                "worker numacube-n0-w0 cpus=1 (its node's: 0)",
                FollowConvergence.spread(
                        trades(0, 1),
                        List.of(new Worker("numacube-n0-w0", "1"), new Worker("numacube-n1-w0", "1")),
                        TWO_NODES));
        assertEquals(
                "no worker of node 0 (workers per node {1=1})",
                FollowConvergence.spread(trades(0, 1), List.of(new Worker("numacube-n1-w0", "1")), TWO_NODES));
    }

    @Test
    void aPartitionOnANodeThatIsNoDataNodeHasNotSpread() {
        assertTrue(FollowConvergence.spread(trades(0, 2), PINNED_HOME, TWO_NODES)
                .startsWith("partition trades/1 memory_node=2"));
    }

    @Test
    void aTableHoldingNoPartitionOnTheGivenBackNodeIsNotSpreadThere() {
        assertEquals("", FollowConvergence.holding(trades(0, 1, 2), "trades", java.util.Set.of(2)));
        assertEquals(
                "table trades on nodes [0, 1], not on all of [2]",
                FollowConvergence.holding(trades(0, 1, 1), "trades", java.util.Set.of(2)));
        assertTrue(FollowConvergence.onDataNodes(trades(0, 2), java.util.Set.of(0, 1))
                .startsWith("partition trades/1 memory_node=2"));
        assertEquals("", FollowConvergence.onDataNodes(trades(0, 2), java.util.Set.of(0, 1, 2)));
    }
}
