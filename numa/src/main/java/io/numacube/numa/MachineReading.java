package io.numacube.numa;

import io.numacube.numa.binding.ProcessBinding;
import io.numacube.numa.binding.ProcessBindingReader;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.SystemRoot;
import io.numacube.numa.topology.Topology;
import io.numacube.numa.topology.TopologyReader;
import java.util.Objects;
import java.util.Optional;

/**
 * Every node of the machine as read at one moment (its CPUs, memory total and free, distances) and what this process
 * may use of it then: the CPUs it may run on and the nodes it may allocate on, as the kernel enforces them (cgroup
 * cpuset, {@code numactl}, {@code taskset}). Where {@link NumaRuntime} is read once, this is read on each call, so
 * that free memory and changed bindings show. Immutable.
 *
 * @param topology    the nodes as read now
 * @param allowedCpus the CPUs the reading thread may run on (read from an unpinned thread: the process's)
 * @param allowedMems the nodes it may allocate on
 */
public record MachineReading(Topology topology, CpuSet allowedCpus, NodeSet allowedMems) {

    public MachineReading {
        Objects.requireNonNull(topology, "topology must not be null");
        Objects.requireNonNull(allowedCpus, "allowedCpus must not be null");
        Objects.requireNonNull(allowedMems, "allowedMems must not be null");
    }

    /**
     * Reads the nodes and this thread's bindings under {@code root}; {@code kernel} is asked only for a live root.
     * Call it from a thread that is not pinned, or the allowed CPUs are that thread's.
     */
    public static MachineReading read(SystemRoot root, Optional<NumaKernel> kernel) {
        Topology topology = TopologyReader.read(root);
        ProcessBinding binding = ProcessBindingReader.read(root, root.isLive() ? kernel : Optional.empty());
        return new MachineReading(topology, binding.allowedCpus(), binding.allowedMems());
    }

    /** The CPUs of {@code node} this process may run on; empty for an unknown node or a memory-only one. */
    public CpuSet allowedCpusOf(int node) {
        return topology.node(node).map(n -> n.cpus().and(allowedCpus)).orElse(CpuSet.empty());
    }

    /** Whether this process may allocate memory on {@code node}. */
    public boolean memoryAllowed(int node) {
        return allowedMems.contains(node);
    }
}
