package io.numacube.engine;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One NUMA node of the machine the cube runs on, as read at the time of the call, with what this process may use of
 * it and what the cube put there. Every node of the machine has one, whether the cube uses it or not: a node left
 * empty or a memory-only node shows too. Immutable.
 *
 * @param node          the kernel's node id
 * @param cpus          the node's online CPUs as a list ({@code 0-7,16-23}); empty for a memory-only node
 * @param allowedCpus   those of {@code cpus} this process may run on (affinity, cgroup cpuset)
 * @param memTotalBytes the node's memory; 0 for a CPU-only node
 * @param memFreeBytes  its free memory when read
 * @param memoryAllowed whether this process may allocate on it (cpuset mems, {@code numactl --membind})
 * @param distances     SLIT distance from this node to each node id (10 = local); empty when the kernel gives none
 * @param holdsData     whether the cube places partitions on it (always false for a cube with simulated nodes, whose
 *                      nodes are no machine node)
 * @param workerThreads the cube's worker threads pinned to it (0 for a simulated cube)
 */
public record MachineNode(
        int node,
        String cpus,
        String allowedCpus,
        long memTotalBytes,
        long memFreeBytes,
        boolean memoryAllowed,
        SortedMap<Integer, Integer> distances,
        boolean holdsData,
        int workerThreads) {

    public MachineNode {
        distances = Collections.unmodifiableSortedMap(new TreeMap<>(distances));
    }
}
