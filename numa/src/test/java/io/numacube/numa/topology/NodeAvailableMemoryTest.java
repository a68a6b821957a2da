package io.numacube.numa.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeAvailableMemoryTest {

    @Test
    void addsDroppableFilePagesToMemFree(@TempDir Path dir) throws Exception {
        Path node = Files.createDirectories(dir.resolve("sys/devices/system/node/node0"));
        Files.writeString(dir.resolve("sys/devices/system/node/online"), "0\n");
        Files.writeString(dir.resolve("sys/devices/system/node/possible"), "0\n");
        Files.writeString(node.resolve("cpulist"), "0-1\n");
        Files.writeString(node.resolve("distance"), "10\n");
        Files.writeString(node.resolve("meminfo"), """
                Node 0 MemTotal:       1000 kB
                Node 0 MemFree:         100 kB
                Node 0 FilePages:       600 kB
                Node 0 Shmem:            50 kB
                """);
        Files.createDirectories(dir.resolve("sys/devices/system/cpu"));
        Files.writeString(dir.resolve("sys/devices/system/cpu/online"), "0-1\n");
        SystemRoot root = SystemRoot.at(dir);
        List<NodeAvailableMemory> m = NodeAvailableMemory.read(root, TopologyReader.read(root));
        assertEquals(
                List.of(new NodeAvailableMemory(0, 100 * 1024, 650 * 1024, "/sys/devices/system/node/node0/meminfo")),
                m);
        // a sandbox whose node is smaller than the machine: the machine's MemAvailable, as one pool
        Files.createDirectories(dir.resolve("proc"));
        Files.writeString(dir.resolve("proc/meminfo"), "MemTotal: 4000 kB\nMemFree: 3000 kB\nMemAvailable: 3500 kB\n");
        assertEquals(
                List.of(new NodeAvailableMemory(
                        NodeAvailableMemory.MACHINE,
                        3000 * 1024,
                        3500 * 1024,
                        "/proc/meminfo; the nodes' meminfo add up to less than the machine's")),
                NodeAvailableMemory.read(root, TopologyReader.read(root)));
    }
}
