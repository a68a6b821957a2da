package io.numacube.numa.topology;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One NUMA node as the kernel describes it. Immutable.
 *
 * @param id             the kernel's node id (ids may be sparse: 4-7 only is legal)
 * @param cpus           the node's online CPUs; empty for a memory-only node (CXL, memory expander)
 * @param memTotalBytes  the node's memory; 0 for a CPU-only node
 * @param memFreeBytes   free memory when read
 * @param distances      SLIT distance from this node to each node id (10 = local); empty when unknown
 */
public record NumaNode(
        int id, CpuSet cpus, long memTotalBytes, long memFreeBytes, SortedMap<Integer, Integer> distances) {

    public NumaNode {
        distances = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(distances));
    }

    public NumaNode(int id, CpuSet cpus, long memTotalBytes, long memFreeBytes, Map<Integer, Integer> distances) {
        this(id, cpus, memTotalBytes, memFreeBytes, new TreeMap<>(distances));
    }

    public boolean hasCpus() {
        return !cpus.isEmpty();
    }

    public boolean hasMemory() {
        return memTotalBytes > 0;
    }

    /** Distance to {@code other}, or -1 when the kernel gave none. */
    public int distanceTo(int other) {
        return distances.getOrDefault(other, -1);
    }
}
