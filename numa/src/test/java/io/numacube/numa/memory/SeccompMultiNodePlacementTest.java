package io.numacube.numa.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.exec.NodeWorkerPool;
import io.numacube.numa.exec.ScopedAffinity;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.kernel.NumaKernels;
import io.numacube.numa.testing.ThisMachine;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.NumaNode;
import io.numacube.numa.topology.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Placement on a real multi-node kernel inside a real seccomp filter that refuses mbind, set_mempolicy,
 * get_mempolicy, move_pages and migrate_pages with EPERM, as Docker's default profile does (the VM stage runs this
 * class under {@code build/seccomp-eperm}). Unlike the {@code ContainerKernel} fake, every refusal here comes from
 * the kernel. Tagged {@code multinode} (excluded from the default build) and {@code seccomp-eperm} (excluded from the
 * VM stage's plain run); outside the filter it fails rather than skips.
 */
@Tag("multinode")
@Tag("seccomp-eperm")
class SeccompMultiNodePlacementTest {

    private static final long SIXTEEN_MIB = 16L << 20;
    private static NumaKernel kernel;
    private static Topology topology;

    @BeforeAll
    static void requireTheFilterAndSeveralNodes() throws Exception {
        String seccomp = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("Seccomp:"))
                .findFirst()
                .orElse("Seccomp: <absent>");
        assertEquals(
                "2",
                seccomp.substring("Seccomp:".length()).strip(),
                "this class must run under a seccomp filter (build/seccomp-eperm): " + seccomp);
        kernel = NumaKernels.load()
                .orElseThrow(() -> new AssertionError("native path not chosen: "
                        + NumaKernels.unavailableReason().orElse("?")));
        topology = ThisMachine.topology();
        assertTrue(topology.nodesWithCpus().size() >= 2, "needs 2+ CPU nodes: nodes=" + topology.nodes());
    }

    private static NodeMemory memory() {
        return new NodeMemory(
                Optional.of(kernel), PolicyProbe.probe(Optional.of(kernel)), topology, kernel.threadAffinity());
    }

    @Test
    void probeSeesEveryMemoryPolicyCallRefusedWithEpermButAffinityWorking() {
        PolicySupport s = PolicyProbe.probe(Optional.of(kernel));
        assertFalse(s.mbind(), s::toString);
        assertFalse(s.setMempolicy(), s::toString);
        assertFalse(s.getMempolicy(), s::toString);
        assertFalse(s.movePages(), s::toString);
        assertTrue(s.affinity(), s::toString);
        for (String call : new String[] {"mbind", "get_mempolicy", "move_pages"}) {
            assertTrue(s.refusals().getOrDefault(call, "").contains("EPERM"), () -> call + ": " + s.refusals());
        }
    }

    @Test
    void bindFallsBackToFirstTouchAndStillLandsOnEachCpuNode() {
        try (NodeMemory m = memory()) {
            for (int node :
                    topology.nodesWithCpus().and(topology.nodesWithMemory()).toArray()) {
                try (PlacedSegment seg = m.allocateTouched(SIXTEEN_MIB, PlacementRequest.bind(node))) {
                    assertEquals(PlacementMode.FIRST_TOUCH, seg.appliedMode(), seg::toString);
                    assertTrue(seg.fallbackReason().orElse("").contains("EPERM"), seg::toString);
                    PageCensus c = m.census(seg);
                    assertEquals(PageCensus.Method.NUMA_MAPS, c.method(), c::toString);
                    assertTrue(c.presentPages() > 0, c::toString);
                    assertTrue(c.fractionOn(node) >= 0.99, () -> "node " + node + " " + c);
                }
            }
        }
    }

    @Test
    void bindToAMemoryOnlyNodeIsFilledFromItsNearestCpuNode() {
        NodeSet memoryOnly = topology.memoryOnlyNodes();
        try (NodeMemory m = memory()) {
            for (int node : memoryOnly.toArray()) {
                int nearest = topology.nearest(node, topology.nodesWithCpus()).getAsInt();
                try (PlacedSegment seg = m.allocateTouched(SIXTEEN_MIB, PlacementRequest.bind(node))) {
                    assertEquals(PlacementMode.FIRST_TOUCH, seg.appliedMode(), seg::toString);
                    assertEquals(nearest, seg.targetNode(), seg::toString);
                    assertTrue(
                            m.census(seg).fractionOn(nearest) >= 0.99,
                            () -> m.census(seg).toString());
                }
            }
        }
    }

    @Test
    void pinnedWorkersAndScopedAffinityStillWork() {
        SortedMap<Integer, CpuSet> byNode = new TreeMap<>();
        for (NumaNode n : topology.nodes()) {
            if (n.hasCpus()) {
                byNode.put(n.id(), n.cpus());
            }
        }
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(kernel), byNode, 1, "sc")) {
            for (int node : byNode.keySet()) {
                assertEquals(
                        node,
                        pool.submit(node, () -> kernel.currentCpu().node()).join());
            }
        }
        CpuSet before = kernel.threadAffinity();
        for (Map.Entry<Integer, CpuSet> e : byNode.entrySet()) {
            try (ScopedAffinity scope = ScopedAffinity.pin(Optional.of(kernel), e.getValue())) {
                assertTrue(scope.pinned(), () -> scope.reason().orElse("?"));
                assertEquals(e.getKey(), kernel.currentCpu().node());
            }
            assertEquals(before, kernel.threadAffinity());
        }
    }
}
