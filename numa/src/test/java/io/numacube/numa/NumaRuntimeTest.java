package io.numacube.numa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.memory.PolicySupport;
import io.numacube.numa.topology.SystemRoot;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class NumaRuntimeTest {

    @Test
    void liveRuntimePlansOnlyNodesThisProcessMayUse() {
        NumaRuntime rt = NumaRuntime.detect();
        assertTrue(rt.isLive());
        for (int node : rt.plan().dataNodes().toArray()) {
            assertTrue(rt.binding().allowedMems().contains(node), () -> "data node not allowed: " + node);
        }
        rt.plan()
                .workerCpus()
                .values()
                .forEach(cpus -> assertTrue(
                        rt.binding().allowedCpus().containsAll(cpus), () -> "worker CPUs not allowed: " + cpus));
    }

    @Test
    void snapshotRuntimeDescribesTheOtherMachineAndRefusesToAllocate() throws Exception {
        Path root = Path.of(getClass().getResource("/machines/two-node-server").toURI());
        NumaRuntime rt = NumaRuntime.fromSnapshot(SystemRoot.at(root), PolicySupport.none("snapshot"));
        assertFalse(rt.isLive());
        assertEquals(2, rt.topology().nodeCount());
        NumacubeException e = assertThrows(NumacubeException.class, rt::openMemory);
        assertTrue(e.getMessage().contains("snapshot"), e.getMessage());
    }

    @Test
    void machineReadingListsEveryNodeWithWhatTheProcessMayUse() throws Exception {
        Path root =
                Path.of(getClass().getResource("/machines/two-node-memory-only").toURI());
        MachineReading m = NumaRuntime.fromSnapshot(SystemRoot.at(root), PolicySupport.none("snapshot"))
                .readMachine();
        assertEquals("0-2", m.topology().nodeIds().toList());
        assertEquals("0-3", m.allowedCpusOf(0).toList());
        assertEquals("", m.allowedCpusOf(2).toList());
        assertTrue(m.memoryAllowed(2));
        assertEquals(64L << 30, m.topology().node(2).orElseThrow().memTotalBytes());
        assertEquals(14, m.topology().distance(0, 2));
    }

    @Test
    void machineReadingNarrowsToTheBindings() throws Exception {
        Path root = Path.of(
                getClass().getResource("/machines/two-node-cpunodebind0").toURI());
        MachineReading m = MachineReading.read(SystemRoot.at(root), java.util.Optional.empty());
        assertEquals(2, m.topology().nodeCount());
        assertTrue(m.allowedCpusOf(1).isEmpty(), () -> "node 1's CPUs allowed: " + m.allowedCpusOf(1));
        assertFalse(m.allowedCpusOf(0).isEmpty());
    }
}
