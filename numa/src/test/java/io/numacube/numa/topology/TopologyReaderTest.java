package io.numacube.numa.topology;

import static io.numacube.numa.testing.Machines.machine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TopologyReaderTest {

    private static final long GIB = 1L << 30;

    @TempDir
    Path tmp;

    @Test
    void readsOneNodeLaptop() {
        Topology t = TopologyReader.read(machine("laptop-one-node"));
        assertEquals(1, t.nodeCount());
        NumaNode n = t.node(0).orElseThrow();
        assertEquals("0-7", n.cpus().toList());
        assertEquals(16 * GIB, n.memTotalBytes());
        assertEquals(12 * GIB, n.memFreeBytes());
        assertEquals(10, n.distanceTo(0));
        assertTrue(t.numaInSysfs());
        assertEquals("0-7", t.onlineCpus().toList());
        assertTrue(t.offlineCpus().isEmpty());
        assertTrue(t.notes().isEmpty(), t.notes().toString());
    }

    @Test
    void readsTwoNodeServerWithInterleavedCpuNumbering() {
        Topology t = TopologyReader.read(machine("two-node-server"));
        assertEquals(NodeSet.parse("0-1"), t.nodeIds());
        assertEquals("0-7,16-23", t.node(0).orElseThrow().cpus().toList());
        assertEquals("8-15,24-31", t.node(1).orElseThrow().cpus().toList());
        assertEquals(21, t.distance(0, 1));
        assertEquals(21, t.distance(1, 0));
        assertEquals(10, t.distance(1, 1));
        assertEquals(1, t.nodeOfCpu(24).getAsInt());
        assertEquals(NodeSet.parse("0-1"), t.nodesOf(CpuSet.of(3, 30)));
        assertEquals(50 * GIB, t.node(1).orElseThrow().memFreeBytes());
    }

    @Test
    void mapsDistancePositionsToSparseNodeIds() {
        Topology t = TopologyReader.read(machine("four-node-sparse"));
        assertEquals("4-7", t.nodeIds().toList());
        assertEquals(16, t.distance(4, 5));
        assertEquals(32, t.distance(4, 6));
        assertEquals(16, t.distance(7, 6));
        assertEquals(-1, t.node(4).orElseThrow().distanceTo(0));
        assertEquals(6, t.nodeOfCpu(9).getAsInt());
        assertEquals(5, t.nearest(4, NodeSet.parse("5-7")).getAsInt());
    }

    @Test
    void readsMemoryOnlyNodeAsNodeWithoutCpus() {
        Topology t = TopologyReader.read(machine("two-node-memory-only"));
        assertEquals(3, t.nodeCount());
        assertEquals(NodeSet.of(2), t.memoryOnlyNodes());
        assertEquals(NodeSet.parse("0-1"), t.nodesWithCpus());
        assertEquals(NodeSet.parse("0-2"), t.nodesWithMemory());
        assertEquals(64 * GIB, t.node(2).orElseThrow().memTotalBytes());
        assertEquals(0, t.nearest(2, t.nodesWithCpus()).getAsInt());
    }

    @Test
    void readsCpuOnlyNodeAsNodeWithoutMemory() {
        Topology t = TopologyReader.read(machine("cpu-only-node"));
        assertEquals(NodeSet.of(1), t.cpuOnlyNodes());
        assertFalse(t.node(1).orElseThrow().hasMemory());
        assertEquals("4-7", t.node(1).orElseThrow().cpus().toList());
    }

    @Test
    void reportsPresentButOfflineCpus() {
        Topology t = TopologyReader.read(machine("offline-cpus"));
        assertEquals("0-5", t.onlineCpus().toList());
        assertEquals("6-7", t.offlineCpus().toList());
        assertTrue(
                t.notes().stream().anyMatch(n -> n.contains("6-7") && n.contains("offline")),
                t.notes().toString());
    }

    @Test
    void synthesisesOneNodeWhenSysfsHasNoNodeDirectory() {
        Topology t = TopologyReader.read(machine("no-numa"));
        assertFalse(t.numaInSysfs());
        assertEquals(1, t.nodeCount());
        NumaNode n = t.node(0).orElseThrow();
        assertEquals("0-3", n.cpus().toList());
        assertEquals(8_000_000L * 1024, n.memTotalBytes());
        assertEquals(6_000_000L * 1024, n.memFreeBytes());
        assertTrue(
                t.notes().stream().anyMatch(s -> s.contains("synthetic node 0")),
                t.notes().toString());
    }

    @Test
    void toleratesBrokenTreeWithNotes() {
        Topology t = TopologyReader.read(machine("broken"));
        assertEquals(NodeSet.parse("0-1"), t.nodeIds(), "node9x is not a node directory");
        assertEquals("0-3", t.node(0).orElseThrow().cpus().toList());
        assertTrue(t.node(1).orElseThrow().cpus().isEmpty());
        assertFalse(t.node(1).orElseThrow().hasMemory());
        assertTrue(t.node(0).orElseThrow().distances().isEmpty());
        assertTrue(t.node(1).orElseThrow().distances().isEmpty());
        assertEquals(20, t.distance(0, 1), "kernel default when unknown");
        List<String> notes = t.notes();
        assertTrue(
                notes.stream().anyMatch(n -> n.contains("online does not parse") && n.contains("garbage")),
                notes.toString());
        assertTrue(notes.stream().anyMatch(n -> n.contains("node1/meminfo has no MemTotal")), notes.toString());
        assertTrue(notes.stream().anyMatch(n -> n.contains("node0/distance") && n.contains("abc")), notes.toString());
        assertTrue(notes.stream().anyMatch(n -> n.contains("node1/distance has 3 distances for 2")), notes.toString());
    }

    @Test
    void fallsBackToNodeDirectoriesWhenOnlineListIsMissing() throws IOException {
        Path root = copyOf("four-node-sparse");
        Files.delete(root.resolve("sys/devices/system/node/online"));
        Topology t = TopologyReader.read(SystemRoot.at(root));
        assertEquals("4-7", t.nodeIds().toList());
        assertEquals(16, t.distance(6, 7));
    }

    @ParameterizedTest
    @ValueSource(strings = {"zero-three", "0-3x", "3-0", "0-99999999"})
    void failsNamingTheFileWhenANodeCpulistIsGarbage(String garbage) throws IOException {
        Path root = copyOf("two-node-server");
        Files.writeString(root.resolve("sys/devices/system/node/node1/cpulist"), garbage + "\n");
        NumacubeException e = assertThrows(NumacubeException.class, () -> TopologyReader.read(SystemRoot.at(root)));
        assertTrue(e.getMessage().contains("file=/sys/devices/system/node/node1/cpulist"), e.getMessage());
        assertTrue(e.getMessage().contains("text=\"" + garbage + "\""), e.getMessage());
    }

    @Test
    void failsNamingTheLineWhenMemTotalIsGarbage() throws IOException {
        Path root = copyOf("two-node-server");
        Files.writeString(root.resolve("sys/devices/system/node/node0/meminfo"), "Node 0 MemTotal: lots kB\n");
        NumacubeException e = assertThrows(NumacubeException.class, () -> TopologyReader.read(SystemRoot.at(root)));
        assertTrue(e.getMessage().contains("file=/sys/devices/system/node/node0/meminfo"), e.getMessage());
        assertTrue(e.getMessage().contains("line=\"Node 0 MemTotal: lots kB\""), e.getMessage());
    }

    @Test
    void failsWhenMemTotalOverflows() throws IOException {
        Path root = copyOf("two-node-server");
        Files.writeString(
                root.resolve("sys/devices/system/node/node0/meminfo"), "Node 0 MemTotal: 9223372036854775807 kB\n");
        NumacubeException e = assertThrows(NumacubeException.class, () -> TopologyReader.read(SystemRoot.at(root)));
        assertTrue(e.getMessage().contains("too large"), e.getMessage());
    }

    @Test
    void failsWhenTwoNodesClaimTheSameCpu() throws IOException {
        Path root = copyOf("two-node-server");
        Files.writeString(root.resolve("sys/devices/system/node/node1/cpulist"), "7-15\n");
        NumacubeException e = assertThrows(NumacubeException.class, () -> TopologyReader.read(SystemRoot.at(root)));
        assertTrue(e.getMessage().contains("cpus=7") && e.getMessage().contains("node=1"), e.getMessage());
    }

    @Test
    void dropsOfflineCpusFromNodeCpulists() throws IOException {
        Path root = copyOf("offline-cpus");
        Files.writeString(root.resolve("sys/devices/system/node/node1/cpulist"), "4-7\n");
        Topology t = TopologyReader.read(SystemRoot.at(root));
        assertEquals("4-5", t.node(1).orElseThrow().cpus().toList());
    }

    @Test
    void treatsEmptyOnlineNodeListAsNoListAndKeepsReading() throws IOException {
        Path root = copyOf("two-node-server");
        Files.writeString(root.resolve("sys/devices/system/node/online"), "\n");
        Topology t = TopologyReader.read(SystemRoot.at(root));
        assertEquals(NodeSet.parse("0-1"), t.nodeIds());
        assertTrue(
                t.notes().stream().anyMatch(n -> n.contains("online is empty")),
                t.notes().toString());
    }

    @Test
    void synthesisesOneNodeWhenNodeDirectoryIsEmpty() throws IOException {
        Path root = copyOf("no-numa");
        Files.createDirectories(root.resolve("sys/devices/system/node"));
        Topology t = TopologyReader.read(SystemRoot.at(root));
        assertEquals(1, t.nodeCount());
        assertEquals("0-3", t.node(0).orElseThrow().cpus().toList());
    }

    @Test
    void readsTheLiveMachineWithoutError() {
        Topology t = TopologyReader.read(SystemRoot.live());
        assertTrue(t.nodeCount() >= 1);
        assertFalse(t.onlineCpus().isEmpty());
        assertTrue(t.nodesOf(t.onlineCpus()).size() >= 1 || !t.numaInSysfs());
    }

    private Path copyOf(String name) throws IOException {
        Path from = machine(name).root();
        Path to = tmp.resolve(name);
        try (var s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return to;
    }
}
