package io.numacube.numa.binding;

import static io.numacube.numa.testing.Machines.machine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.topology.SystemRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupMemoryLimitReaderTest {

    @Test
    void v2TakesTheTightestMemoryMaxFromTheCgroupUpToTheRoot() {
        // pod1234/cri-containerd-ffee.scope: 4 GiB (1 GiB used); pod1234: max; kubepods.slice: 8 GiB
        CgroupMemoryLimit l =
                CgroupMemoryLimitReader.read(machine("cgroup-v2-cpuset")).orElseThrow();
        assertEquals(
                new CgroupMemoryLimit(
                        2,
                        "/kubepods.slice/pod1234/cri-containerd-ffee.scope",
                        4L << 30,
                        1L << 30,
                        "/sys/fs/cgroup/kubepods.slice/pod1234/cri-containerd-ffee.scope/memory.max"),
                l);
        assertEquals(3L << 30, l.availableBytes());
    }

    @Test
    void v1ReadsLimitInBytesAndTakesThePageRoundedTwoToTheSixtyThreeAsNoLimit() {
        CgroupMemoryLimit l =
                CgroupMemoryLimitReader.read(machine("cgroup-v1-docker")).orElseThrow();
        assertEquals(
                new CgroupMemoryLimit(
                        1,
                        "/docker/abc123",
                        2L << 30,
                        512L << 20,
                        "/sys/fs/cgroup/memory/docker/abc123/memory.limit_in_bytes"),
                l);
        assertEquals(1536L << 20, l.availableBytes());
    }

    @Test
    void noLimitWhenNoCgroupSetsOne() {
        assertEquals(Optional.empty(), CgroupMemoryLimitReader.read(machine("two-node-server")));
    }

    @Test
    void inACgroupNamespaceTheRootOfTheHierarchyIsStillRead(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("proc/self"));
        Files.writeString(dir.resolve("proc/self/cgroup"), "0::/not/mounted/here\n");
        Files.createDirectories(dir.resolve("sys/fs/cgroup"));
        Files.writeString(dir.resolve("sys/fs/cgroup/memory.max"), "1048576\n");
        CgroupMemoryLimit l = CgroupMemoryLimitReader.read(SystemRoot.at(dir)).orElseThrow();
        assertEquals(1L << 20, l.limitBytes());
        assertEquals(-1, l.usageBytes());
        assertTrue(l.file().endsWith("/sys/fs/cgroup/memory.max"), l.file());
    }
}
