package io.numacube.numa.topology;

import static io.numacube.numa.testing.Machines.machine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.binding.ProcessBinding;
import io.numacube.numa.binding.ProcessBindingReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SnapshotWriterTest {

    @TempDir
    Path tmp;

    @Test
    void snapshotOfLiveMachineReadsBackToTheSameTopology() {
        Topology live = TopologyReader.read(SystemRoot.live());
        List<String> copied = SnapshotWriter.save(SystemRoot.live(), tmp);
        Topology saved = TopologyReader.read(SystemRoot.at(tmp));
        assertEquals(live.nodeIds(), saved.nodeIds());
        assertEquals(live.onlineCpus(), saved.onlineCpus());
        assertEquals(live.offlineCpus(), saved.offlineCpus());
        assertEquals(live.numaInSysfs(), saved.numaInSysfs());
        for (NumaNode n : live.nodes()) {
            NumaNode s = saved.node(n.id()).orElseThrow();
            assertEquals(n.cpus(), s.cpus());
            assertEquals(n.memTotalBytes(), s.memTotalBytes());
            assertEquals(n.distances(), s.distances());
        }
        assertTrue(copied.contains("/proc/self/status"), copied.toString());
        assertTrue(Files.exists(tmp.resolve(SnapshotWriter.MARKER)));
    }

    @Test
    void snapshotOfLiveMachineReadsBackToTheSameBinding() {
        SnapshotWriter.save(SystemRoot.live(), tmp);
        ProcessBinding live = ProcessBindingReader.read(SystemRoot.live(), Optional.empty());
        ProcessBinding saved = ProcessBindingReader.read(SystemRoot.at(tmp), Optional.empty());
        assertEquals(live.allowedMems(), saved.allowedMems());
        assertEquals(live.cpuset(), saved.cpuset());
        assertEquals(live.balancing(), saved.balancing());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "two-node-server",
                "four-node-sparse",
                "two-node-memory-only",
                "offline-cpus",
                "cgroup-v1-docker",
                "cgroup-v2-cpuset",
                "no-numa"
            })
    void snapshotOfAFixtureReproducesItsTopologyAndBinding(String name) {
        SystemRoot from = machine(name);
        SnapshotWriter.save(from, tmp);
        Topology a = TopologyReader.read(from);
        Topology b = TopologyReader.read(SystemRoot.at(tmp));
        assertEquals(a.nodes(), b.nodes());
        assertEquals(a.onlineCpus(), b.onlineCpus());
        assertEquals(a.offlineCpus(), b.offlineCpus());
        ProcessBinding pa = ProcessBindingReader.read(from, Optional.empty());
        ProcessBinding pb = ProcessBindingReader.read(SystemRoot.at(tmp), Optional.empty());
        assertEquals(pa.allowedCpus(), pb.allowedCpus());
        assertEquals(pa.allowedMems(), pb.allowedMems());
        assertEquals(pa.cpuset(), pb.cpuset());
        assertEquals(pa.balancing(), pb.balancing());
    }

    @Test
    void copiesOnlyTheFilesTheReadersUse() throws IOException {
        List<String> copied = SnapshotWriter.save(machine("cgroup-v2-cpuset"), tmp);
        assertFalse(copied.stream().anyMatch(p -> p.endsWith("cgroup.procs")), copied.toString());
        assertTrue(copied.contains("/sys/fs/cgroup/kubepods.slice/pod1234/cpuset.cpus.effective"), copied.toString());
        assertTrue(copied.contains("/sys/devices/system/node/node1/distance"), copied.toString());
        String marker = Files.readString(tmp.resolve(SnapshotWriter.MARKER));
        assertTrue(marker.contains("date=") && marker.contains("host="), marker);
        assertTrue(marker.contains("files=" + copied.size()), marker);
    }
}
