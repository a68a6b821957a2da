package io.numacube.numa.binding;

import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeAvailableMemory;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.SystemRoot;
import io.numacube.numa.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a {@link BindingWatcher} sees at one reading: where the process may run and allocate, its cgroup cpuset, and
 * the memory each node can give. Immutable.
 *
 * <p>Two states have the {@link #sameBindings same bindings} when the allowed CPUs, the allowed memory nodes and the
 * cgroup cpuset (version, path, cpus, mems) are equal; free memory changes all the time and is carried along, never
 * compared.
 *
 * @param allowedCpus          the CPUs the reading thread may run on (sched_getaffinity, else Cpus_allowed_list)
 * @param allowedMems          the nodes it may allocate on (get_mempolicy MEMS_ALLOWED, else Mems_allowed_list)
 * @param cpuset               the cgroup v2 or v1 cpuset's effective cpus and mems, when the controller is there
 * @param availableBytesByNode per node with memory, the bytes it can give a new allocation ({@link
 *                             NodeAvailableMemory}); key {@link NodeAvailableMemory#MACHINE} when the nodes' figures
 *                             do not describe the machine
 */
public record BindingState(
        CpuSet allowedCpus,
        NodeSet allowedMems,
        Optional<CgroupCpuset> cpuset,
        SortedMap<Integer, Long> availableBytesByNode) {

    public BindingState {
        Objects.requireNonNull(allowedCpus, "allowedCpus must not be null");
        Objects.requireNonNull(allowedMems, "allowedMems must not be null");
        Objects.requireNonNull(cpuset, "cpuset must not be null");
        availableBytesByNode = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(availableBytesByNode));
    }

    /** Reads the state under {@code root} (the kernel is asked only when the root is live), on the calling thread. */
    public static BindingState read(SystemRoot root, Optional<io.numacube.numa.kernel.NumaKernel> kernel, Topology t) {
        ProcessBinding b = ProcessBindingReader.read(root, kernel);
        return of(b, NodeAvailableMemory.read(root, t));
    }

    /** The state of a binding already read and the nodes' memory. */
    public static BindingState of(ProcessBinding binding, List<NodeAvailableMemory> memory) {
        Map<Integer, Long> free = new TreeMap<>();
        for (NodeAvailableMemory m : memory) {
            free.put(m.node(), m.availableBytes());
        }
        return new BindingState(binding.allowedCpus(), binding.allowedMems(), binding.cpuset(), new TreeMap<>(free));
    }

    /** True when CPUs, memory nodes and cpuset are the same as {@code other}'s (free memory is not compared). */
    public boolean sameBindings(BindingState other) {
        return allowedCpus.equals(other.allowedCpus)
                && allowedMems.equals(other.allowedMems)
                && cpuset.equals(other.cpuset);
    }

    /**
     * What changed from {@code before} to this state, in words: {@code cpus 0-3 -> 2-3, mems 0-1 -> 1}, then the
     * cgroup whose cpuset made the change, {@code (cgroup v2 /a)}, or what changed in the cpuset beyond the process's
     * own sets ({@code cgroup v2 /a cpus 0-7 -> 0-3}); {@code no change} when the bindings are the same.
     */
    public String describeChangeFrom(BindingState before) {
        List<String> parts = new ArrayList<>();
        if (!allowedCpus.equals(before.allowedCpus)) {
            parts.add("cpus " + before.allowedCpus.toList() + " -> " + allowedCpus.toList());
        }
        if (!allowedMems.equals(before.allowedMems)) {
            parts.add("mems " + before.allowedMems.toList() + " -> " + allowedMems.toList());
        }
        String suffix = "";
        if (!cpuset.equals(before.cpuset)) {
            if (cpuset.isPresent()
                    && before.cpuset.isPresent()
                    && cpuset.get().version() == before.cpuset.get().version()
                    && cpuset.get().path().equals(before.cpuset.get().path())) {
                CgroupCpuset was = before.cpuset.get();
                CgroupCpuset now = cpuset.get();
                String where = "cgroup v" + now.version() + " " + now.path();
                List<String> own = new ArrayList<>();
                // the cpuset's change, where it is not the process's own change said above
                if (!was.cpus().equals(now.cpus())
                        && !(was.cpus().equals(before.allowedCpus) && now.cpus().equals(allowedCpus))) {
                    own.add("cpus " + was.cpus().toList() + " -> " + now.cpus().toList());
                }
                if (!was.mems().equals(now.mems())
                        && !(was.mems().equals(before.allowedMems) && now.mems().equals(allowedMems))) {
                    own.add("mems " + was.mems().toList() + " -> " + now.mems().toList());
                }
                if (own.isEmpty()) {
                    suffix = " (" + where + ")";
                } else {
                    parts.add(where + " " + String.join(", ", own));
                }
            } else {
                String was = before.cpuset.map(BindingState::describe).orElse("none");
                String now = cpuset.map(BindingState::describe).orElse("none");
                parts.add("cgroup cpuset " + was + " -> " + now);
            }
        }
        return parts.isEmpty() ? "no change" : String.join(", ", parts) + suffix;
    }

    private static String describe(CgroupCpuset c) {
        return "v" + c.version() + " " + c.path() + " cpus=" + c.cpus().toList() + " mems="
                + c.mems().toList();
    }
}
