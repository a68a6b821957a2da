package io.numacube.numa.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.exec.NodeWorkerPool;
import io.numacube.numa.kernel.CpuLocation;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.kernel.NumaKernels;
import io.numacube.numa.testing.ContainerKernel;
import io.numacube.numa.testing.ThisMachine;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.NumaNode;
import io.numacube.numa.topology.Topology;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Placement on a real multi-node kernel (the QEMU VM stage: 2 CPU nodes, optionally memory-only nodes). Tagged
 * {@code multinode}: excluded from the default build; where it runs, fewer than 2 CPU nodes is a failure, not a skip.
 */
@Tag("multinode")
class MultiNodePlacementTest {

    private static final long EIGHT_MIB = 8L << 20;
    private static NumaKernel kernel;
    private static Topology topology;

    @BeforeAll
    static void requireSeveralNodes() {
        kernel = NumaKernels.load()
                .orElseThrow(() -> new AssertionError("native path not chosen: "
                        + NumaKernels.unavailableReason().orElse("?")));
        topology = ThisMachine.topology();
        assertTrue(
                topology.nodesWithCpus().size() >= 2,
                "the multinode stage needs 2+ CPU nodes: nodes=" + topology.nodes());
    }

    private static NodeMemory memory(NumaKernel k) {
        return new NodeMemory(Optional.of(k), PolicyProbe.probe(Optional.of(k)), topology, kernel.threadAffinity());
    }

    @Test
    void bindAndPreferredPutEveryPageOnEachMemoryNode() {
        try (NodeMemory m = memory(kernel)) {
            for (int node : topology.nodesWithMemory().toArray()) {
                for (PlacementRequest r :
                        new PlacementRequest[] {PlacementRequest.bind(node), PlacementRequest.preferred(node)}) {
                    try (PlacedSegment seg = m.allocateTouched(EIGHT_MIB, r)) {
                        PageCensus c = m.census(seg);
                        assertEquals(PageCensus.Method.MOVE_PAGES, c.method());
                        assertEquals(0, c.notPresent(), c::toString);
                        assertTrue(c.fractionOn(node) >= 0.99, () -> r + " " + c);
                    }
                }
            }
        }
    }

    @Test
    void firstTouchByAPinnedThreadPlacesOnEachCpuNodeWithoutMbind() {
        NumaKernel container = new ContainerKernel(kernel);
        try (NodeMemory m = memory(container)) {
            for (int node :
                    topology.nodesWithCpus().and(topology.nodesWithMemory()).toArray()) {
                try (PlacedSegment seg = m.allocateTouched(EIGHT_MIB, PlacementRequest.bind(node))) {
                    assertEquals(PlacementMode.FIRST_TOUCH, seg.appliedMode());
                    PageCensus c = m.census(seg);
                    assertEquals(PageCensus.Method.NUMA_MAPS, c.method());
                    assertTrue(c.fractionOn(node) >= 0.99, () -> "node " + node + " " + c);
                }
            }
        }
    }

    @Test
    void firstTouchOfAMemoryOnlyNodeLandsOnItsNearestCpuNode() {
        NodeSet memoryOnly = topology.memoryOnlyNodes();
        try (NodeMemory m = memory(kernel)) {
            for (int node : memoryOnly.toArray()) {
                int nearest = topology.nearest(node, topology.nodesWithCpus()).getAsInt();
                try (PlacedSegment seg = m.allocateTouched(EIGHT_MIB, PlacementRequest.firstTouch(node))) {
                    assertEquals(nearest, seg.targetNode());
                    assertTrue(
                            m.census(seg).fractionOn(nearest) >= 0.99,
                            () -> m.census(seg).toString());
                }
            }
        }
    }

    @Test
    void interleaveSpreadsOverEveryNode() {
        NodeSet nodes = topology.nodesWithCpus().and(topology.nodesWithMemory());
        for (NumaKernel k : new NumaKernel[] {kernel, new ContainerKernel(kernel)}) {
            try (NodeMemory m = memory(k);
                    PlacedSegment seg = m.allocateTouched(4 * EIGHT_MIB, PlacementRequest.interleave(nodes))) {
                PageCensus c = m.census(seg);
                for (int node : nodes.toArray()) {
                    assertTrue(c.fractionOn(node) >= 0.5 / nodes.size(), () -> seg + " " + c);
                }
            }
        }
    }

    @Test
    void workersRunOnTheirOwnNode() {
        SortedMap<Integer, CpuSet> byNode = new TreeMap<>();
        for (NumaNode n : topology.nodes()) {
            if (n.hasCpus()) {
                byNode.put(n.id(), n.cpus());
            }
        }
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(kernel), byNode, 2, "mn")) {
            Map<Integer, CpuLocation> where = new ConcurrentHashMap<>();
            pool.runOnEveryWorker(ctx -> where.put(ctx.workerId(), kernel.currentCpu()));
            pool.workerReports()
                    .forEach(r -> assertEquals(
                            r.context().node(),
                            where.get(r.context().workerId()).node(),
                            r::toString));
            for (int node : byNode.keySet()) {
                assertEquals(
                        node,
                        pool.submit(node, () -> kernel.currentCpu().node()).join());
            }
        }
    }
}
