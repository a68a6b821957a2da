package io.numacube.numa.binding;

import static io.numacube.numa.testing.Machines.machine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.kernel.Errno;
import io.numacube.numa.kernel.MemPolicyConstants;
import io.numacube.numa.kernel.RawMemoryPolicy;
import io.numacube.numa.testing.FakeNumaKernel;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.SystemRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessBindingReaderTest {

    @TempDir
    Path tmp;

    @Test
    void readsAllowedCpusAndMemsFromStatusWithoutKernel() {
        ProcessBinding b = ProcessBindingReader.read(machine("two-node-server"), Optional.empty());
        assertEquals("0-31", b.allowedCpus().toList());
        assertEquals("0-1", b.allowedMems().toList());
        assertEquals(MemoryPolicy.Mode.UNKNOWN, b.policy().mode());
        assertEquals(NumaBalancing.ON, b.balancing());
        assertTrue(
                b.notes().stream().anyMatch(n -> n.contains("allowed CPUs 0-31 from /proc/self/status")),
                b.notes().toString());
    }

    @Test
    void neverAsksTheKernelAboutASnapshot() {
        FakeNumaKernel k = new FakeNumaKernel();
        k.affinity = CpuSet.of(0);
        ProcessBinding b = ProcessBindingReader.read(machine("cgroup-v1-docker"), Optional.of(k));
        assertTrue(k.calls.isEmpty(), k.calls.toString());
        assertEquals("0-3", b.allowedCpus().toList());
        assertEquals("0", b.allowedMems().toList());
        assertTrue(
                b.notes().stream().anyMatch(n -> n.contains("kernel not asked")),
                b.notes().toString());
    }

    @Test
    void asksTheKernelOnTheLiveMachine() {
        FakeNumaKernel k = new FakeNumaKernel();
        k.affinity = CpuSet.of(0);
        k.memsAllowed = NodeSet.of(0);
        k.policy = new RawMemoryPolicy(
                MemPolicyConstants.MPOL_INTERLEAVE, MemPolicyConstants.MPOL_F_STATIC_NODES, NodeSet.of(0));
        ProcessBinding b = ProcessBindingReader.read(SystemRoot.live(), Optional.of(k));
        assertEquals(CpuSet.of(0), b.allowedCpus());
        assertEquals(MemoryPolicy.Mode.INTERLEAVE, b.policy().mode());
        assertTrue(b.policy().staticNodes());
        assertFalse(b.policy().relativeNodes());
        assertEquals("interleave=static:0", b.policy().toString());
        assertTrue(k.calls.contains("sched_getaffinity") && k.calls.contains("get_mempolicy"), k.calls.toString());
    }

    @Test
    void recordsUnknownPolicyAndErrnoWhenGetMempolicyIsRefused() {
        FakeNumaKernel k = new FakeNumaKernel();
        k.refuse.put("get_mempolicy", Errno.EPERM);
        k.refuse.put("get_mempolicy(MPOL_F_MEMS_ALLOWED)", Errno.EPERM);
        ProcessBinding b = ProcessBindingReader.read(SystemRoot.live(), Optional.of(k));
        assertEquals(MemoryPolicy.unknown(), b.policy());
        assertTrue(
                b.notes().stream().anyMatch(n -> n.contains("get_mempolicy refused with errno=EPERM(1)")),
                b.notes().toString());
        assertFalse(b.allowedMems().isEmpty(), "falls back to the status file");
        assertTrue(
                b.notes().stream().anyMatch(n -> n.contains("allowed memory nodes") && n.contains("status")),
                b.notes().toString());
    }

    @Test
    void fallsBackToTheStatusFileWhenAffinityIsRefused() {
        FakeNumaKernel k = new FakeNumaKernel();
        k.refuse.put("sched_getaffinity", Errno.EPERM);
        ProcessBinding b = ProcessBindingReader.read(SystemRoot.live(), Optional.of(k));
        assertFalse(b.allowedCpus().isEmpty());
        assertTrue(
                b.notes().stream().anyMatch(n -> n.startsWith("sched_getaffinity refused")),
                b.notes().toString());
        assertTrue(
                b.notes().stream().anyMatch(n -> n.startsWith("allowed CPUs") && n.contains("/status")),
                b.notes().toString());
    }

    @Test
    void readsRelativeNodesFlagAndModeNumbers() {
        FakeNumaKernel k = new FakeNumaKernel();
        k.policy = new RawMemoryPolicy(
                MemPolicyConstants.MPOL_BIND, MemPolicyConstants.MPOL_F_RELATIVE_NODES, NodeSet.of(0));
        ProcessBinding b = ProcessBindingReader.read(SystemRoot.live(), Optional.of(k));
        assertEquals(MemoryPolicy.Mode.BIND, b.policy().mode());
        assertTrue(b.policy().relativeNodes());
        k.policy = new RawMemoryPolicy(42, 0, NodeSet.empty());
        assertEquals(
                MemoryPolicy.Mode.UNKNOWN,
                ProcessBindingReader.read(SystemRoot.live(), Optional.of(k))
                        .policy()
                        .mode());
    }

    @Test
    void readsCgroupV1CpusetFromCombinedControllerLine() throws IOException {
        ProcessBinding b = ProcessBindingReader.read(machine("cgroup-v1-docker"), Optional.empty());
        CgroupCpuset c = b.cpuset().orElseThrow();
        assertEquals(1, c.version());
        assertEquals("/docker/abc123", c.path());
        assertEquals("0-3", c.cpus().toList());
        assertEquals("0", c.mems().toList());

        Path root = tmp.resolve("v1");
        write(root, "/proc/self/cgroup", "5:cpuset,cpu,cpuacct:/job7\n");
        write(root, "/sys/fs/cgroup/cpuset/job7/cpuset.cpus", "2-3\n");
        write(root, "/sys/fs/cgroup/cpuset/job7/cpuset.mems", "1\n");
        CgroupCpuset legacy = ProcessBindingReader.read(SystemRoot.at(root), Optional.empty())
                .cpuset()
                .orElseThrow();
        assertEquals("2-3", legacy.cpus().toList());
        assertEquals("1", legacy.mems().toList());
    }

    @Test
    void walksUpToTheNearestCgroupV2AncestorWithCpusetFiles() {
        ProcessBinding b = ProcessBindingReader.read(machine("cgroup-v2-cpuset"), Optional.empty());
        CgroupCpuset c = b.cpuset().orElseThrow();
        assertEquals(2, c.version());
        assertEquals("/kubepods.slice/pod1234/cri-containerd-ffee.scope", c.path());
        assertEquals("8-15", c.cpus().toList());
        assertEquals("1", c.mems().toList());
        assertEquals(NumaBalancing.MEMORY_TIERING, b.balancing());
    }

    @Test
    void reportsNoCpusetWhenTheControllerIsOff() {
        ProcessBinding b = ProcessBindingReader.read(machine("laptop-one-node"), Optional.empty());
        assertTrue(b.cpuset().isEmpty());
        assertEquals(NumaBalancing.OFF, b.balancing());
        assertTrue(
                b.notes().stream().anyMatch(n -> n.contains("controller off")),
                b.notes().toString());
    }

    @Test
    void toleratesBrokenStatusCgroupAndBalancingFiles() {
        ProcessBinding b = ProcessBindingReader.read(machine("broken"), Optional.empty());
        assertEquals("0-3", b.allowedCpus().toList(), "from the Cpus_allowed hex mask");
        assertEquals(NodeSet.of(0), b.allowedMems());
        assertTrue(b.cpuset().isEmpty());
        assertEquals(NumaBalancing.UNKNOWN, b.balancing());
        assertTrue(
                b.notes().stream().anyMatch(n -> n.contains("outside this namespace")),
                b.notes().toString());
        assertTrue(
                b.notes().stream().anyMatch(n -> n.contains("text=\"yes\"")),
                b.notes().toString());
    }

    @Test
    void failsNamingFileAndFieldWhenAllowedListIsGarbage() throws IOException {
        Path root = tmp.resolve("bad");
        write(root, "/proc/self/status", "Cpus_allowed_list:\t0-3,zz\nMems_allowed_list:\t0\n");
        NumacubeException e = assertThrows(
                NumacubeException.class, () -> ProcessBindingReader.read(SystemRoot.at(root), Optional.empty()));
        assertTrue(e.getMessage().contains("file=/proc/self/status Cpus_allowed_list"), e.getMessage());
        assertTrue(e.getMessage().contains("text=\"0-3,zz\""), e.getMessage());
    }

    @Test
    void threadSetsNotYetUpdatedAfterACpusetChangeAreNarrowedToTheCpuset() throws IOException {
        Path root = tmp.resolve("midchange");
        write(root, "/proc/self/status", "Cpus_allowed_list:\t0-3\nMems_allowed_list:\t0-1\n");
        write(root, "/proc/self/cgroup", "0::/follow\n");
        write(root, "/sys/fs/cgroup/follow/cpuset.cpus.effective", "2-3\n");
        write(root, "/sys/fs/cgroup/follow/cpuset.mems.effective", "1\n");
        ProcessBinding b = ProcessBindingReader.read(SystemRoot.at(root), Optional.empty());
        assertEquals("2-3", b.allowedCpus().toList());
        assertEquals("1", b.allowedMems().toList());
        assertTrue(
                b.notes().stream().anyMatch(n -> n.contains("narrowed to 2-3")),
                b.notes().toString());

        write(root, "/sys/fs/cgroup/follow/cpuset.cpus.effective", "0-7\n");
        write(root, "/sys/fs/cgroup/follow/cpuset.mems.effective", "4\n");
        ProcessBinding wider = ProcessBindingReader.read(SystemRoot.at(root), Optional.empty());
        assertEquals("0-3", wider.allowedCpus().toList(), "a wider cpuset leaves the thread's set as it is");
        assertEquals("0-1", wider.allowedMems().toList(), "a disjoint one too");
    }

    @Test
    void fallsBackToOnlineCpusWhenStatusIsMissing() throws IOException {
        Path root = tmp.resolve("nostatus");
        write(root, "/sys/devices/system/cpu/online", "0-5\n");
        write(root, "/sys/devices/system/node/online", "0-1\n");
        ProcessBinding b = ProcessBindingReader.read(SystemRoot.at(root), Optional.empty());
        assertEquals("0-5", b.allowedCpus().toList());
        assertEquals("0-1", b.allowedMems().toList());
        assertEquals(NumaBalancing.UNKNOWN, b.balancing());
    }

    @Test
    void readsTheLiveProcessWithoutKernel() {
        ProcessBinding b = ProcessBindingReader.read(SystemRoot.live(), Optional.empty());
        assertFalse(b.allowedCpus().isEmpty());
        assertFalse(b.allowedMems().isEmpty());
        assertTrue(
                b.notes().stream().anyMatch(n -> n.contains("no native kernel access")),
                b.notes().toString());
    }

    private static void write(Path root, String abs, String text) throws IOException {
        Path p = root.resolve(abs.substring(1));
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }
}
