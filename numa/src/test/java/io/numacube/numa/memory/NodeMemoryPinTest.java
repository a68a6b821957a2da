package io.numacube.numa.memory;

import static io.numacube.numa.testing.Machines.machine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.kernel.Errno;
import io.numacube.numa.testing.FakeNumaKernel;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.Topology;
import io.numacube.numa.topology.TopologyReader;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link NodeMemory#pinCurrentThreadToFiller} on the two-node fixture with a memory-only node 2 (CPUs 0-3, 4-7). */
class NodeMemoryPinTest {

    private static final Topology TOPOLOGY = TopologyReader.read(machine("two-node-memory-only"));
    private static final PolicySupport ALL = new PolicySupport(true, true, true, true, true, true, Map.of());

    private static NodeMemory memory(FakeNumaKernel k, CpuSet allowed) {
        return new NodeMemory(Optional.of(k), ALL, TOPOLOGY, allowed);
    }

    @Test
    void pinsTheCallingThreadToTheNodesOwnAllowedCpus() {
        FakeNumaKernel k = new FakeNumaKernel();
        assertEquals(Optional.empty(), memory(k, CpuSet.parse("0-7")).pinCurrentThreadToFiller(1));
        assertEquals(CpuSet.parse("4-7"), k.affinity);
        assertEquals(Optional.empty(), memory(k, CpuSet.parse("0-5")).pinCurrentThreadToFiller(1));
        assertEquals(CpuSet.parse("4-5"), k.affinity);
    }

    @Test
    void aMemoryOnlyNodeIsWrittenFromTheNearestNodeWithAllowedCpus() {
        FakeNumaKernel k = new FakeNumaKernel();
        NodeMemory m = memory(k, CpuSet.parse("0-7"));
        assertEquals(Optional.empty(), m.pinCurrentThreadToFiller(2));
        assertEquals(m.fillerCpus(2), k.affinity);
        assertTrue(
                k.affinity.equals(CpuSet.parse("0-3")) || k.affinity.equals(CpuSet.parse("4-7")), k.affinity::toList);
    }

    @Test
    void saysWhyWhenTheKernelRefusesOrThereIsNoNativeAccess() {
        FakeNumaKernel k = new FakeNumaKernel();
        k.refuse.put("sched_setaffinity", Errno.EINVAL);
        Optional<String> refused = memory(k, CpuSet.parse("0-7")).pinCurrentThreadToFiller(0);
        assertTrue(refused.orElseThrow().contains("sched_setaffinity"), refused::toString);
        assertEquals(CpuSet.of(0), k.affinity);
        NodeMemory none = new NodeMemory(Optional.empty(), PolicySupport.none("test"), TOPOLOGY, CpuSet.parse("0-7"));
        assertTrue(none.pinCurrentThreadToFiller(0).orElseThrow().startsWith("no native access"));
    }
}
