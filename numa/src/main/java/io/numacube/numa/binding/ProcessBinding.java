package io.numacube.numa.binding;

import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import java.util.List;
import java.util.Optional;

/**
 * Where this process (its reading thread) may run and allocate, as the kernel enforces it. Immutable; read once.
 *
 * @param allowedCpus  CPUs the thread may run on (sched_getaffinity, else Cpus_allowed_list)
 * @param allowedMems  nodes it may allocate on (get_mempolicy MEMS_ALLOWED, else Mems_allowed_list)
 * @param policy       its memory policy (get_mempolicy), {@link MemoryPolicy.Mode#UNKNOWN} where refused
 * @param cpuset       the cgroup cpuset, when the cpuset controller is there
 * @param balancing    automatic NUMA balancing
 * @param notes        how each fact was read, and what could not be read, one readable line each
 */
public record ProcessBinding(
        CpuSet allowedCpus,
        NodeSet allowedMems,
        MemoryPolicy policy,
        Optional<CgroupCpuset> cpuset,
        NumaBalancing balancing,
        List<String> notes) {

    public ProcessBinding {
        notes = List.copyOf(notes);
    }
}
