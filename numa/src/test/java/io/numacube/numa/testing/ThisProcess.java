package io.numacube.numa.testing;

import io.numacube.numa.binding.ProcessBinding;
import io.numacube.numa.binding.ProcessBindingReader;
import io.numacube.numa.kernel.NumaKernels;
import io.numacube.numa.memory.PolicyProbe;
import io.numacube.numa.memory.PolicySupport;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.SystemRoot;
import io.numacube.numa.topology.Topology;
import io.numacube.numa.topology.TopologyReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;

/**
 * This test process as the project's readers see it, for tests on the real kernel that must pass on any host: one
 * node, several sockets, or a default Docker container whose seccomp profile refuses the memory-policy calls with
 * EPERM. Topology and binding are read once, from the first calling thread (tests call it unpinned).
 */
public final class ThisProcess {

    /** The calls a container's seccomp profile refuses, as {@link PolicySupport#refusals()} names them. */
    private static final Set<String> MEMORY_POLICY_CALLS =
            Set.of("mbind", "set_mempolicy", "get_mempolicy", "move_pages");

    private static final class Read {
        static final Topology TOPOLOGY = TopologyReader.read(SystemRoot.live());
        static final ProcessBinding BINDING = ProcessBindingReader.read(SystemRoot.live(), NumaKernels.load());
    }

    private ThisProcess() {}

    /**
     * The lowest node with memory on which this process may both run and allocate: where tests place memory and
     * expect to find it, and pin workers that must report it.
     */
    public static int homeNode() {
        Topology t = Read.TOPOLOGY;
        ProcessBinding b = Read.BINDING;
        NodeSet candidates = t.nodesOf(b.allowedCpus()).and(b.allowedMems()).and(t.nodesWithMemory());
        if (candidates.isEmpty()) {
            throw new AssertionError("no node with memory where this process may both run and allocate: allowedCpus="
                    + b.allowedCpus() + " allowedMems=" + b.allowedMems() + " nodes=" + t.nodes());
        }
        return candidates.stream().findFirst().getAsInt();
    }

    /** The CPUs of {@link #homeNode()} this process may run on. */
    public static CpuSet homeCpus() {
        return Read.TOPOLOGY.node(homeNode()).orElseThrow().cpus().and(Read.BINDING.allowedCpus());
    }

    /** The node that owns {@code cpu}, by the topology reader. */
    public static int nodeOfCpu(int cpu) {
        return Read.TOPOLOGY
                .nodeOfCpu(cpu)
                .orElseThrow(() -> new AssertionError("cpu " + cpu + " is on no node: " + Read.TOPOLOGY.nodes()));
    }

    /** Whether a seccomp filter is installed ({@code Seccomp: 2} in /proc/self/status), as in a Docker container. */
    public static boolean seccompFiltered() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("Seccomp:"))
                    .anyMatch(l -> l.substring("Seccomp:".length()).strip().equals("2"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * What {@link PolicyProbe#current()} found. Fails where it found anything refused but memory-policy calls under a
     * seccomp filter: outside one, a refusal is a bug, not a property of the host.
     */
    public static PolicySupport support() {
        PolicySupport s = PolicyProbe.current();
        boolean filtered = seccompFiltered();
        s.refusals().forEach((call, reason) -> {
            if (!filtered || !MEMORY_POLICY_CALLS.contains(call)) {
                throw new AssertionError(call + " refused "
                        + (filtered ? "though not a memory-policy call" : "without a seccomp filter") + ": " + reason);
            }
        });
        return s;
    }

    /** Skips the calling test, which needs {@code calls}, where one of them is refused here, saying which and why. */
    public static void assumeAllowed(String... calls) {
        PolicySupport s = support();
        for (String call : calls) {
            String refusal = s.refusals().get(call);
            Assumptions.assumeTrue(
                    refusal == null,
                    () -> "this test needs " + call + ", refused in this process " + "(seccomp filter): " + refusal);
        }
    }
}
