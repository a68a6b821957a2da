package io.numacube.numa.topology;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The machine's NUMA topology as read from sysfs/procfs: online nodes (sparse ids allowed), their CPUs, memory and
 * distances, and the CPUs that are offline. Immutable; the facts are those of the moment it was read.
 *
 * <p>Invariants: {@code nodes} are sorted by id, ids unique; a CPU belongs to at most one node; every node id has a
 * distance entry to every node id when {@code distances} are known.
 *
 * @param nodes        online nodes, by id
 * @param onlineCpus   CPUs online now
 * @param offlineCpus  CPUs present (possible) but offline
 * @param numaInSysfs  false when the kernel exposes no /sys/devices/system/node (built without NUMA, non-Linux):
 *                     then there is one synthetic node 0
 * @param notes        what was odd or missing while reading, one readable line each
 */
public record Topology(
        List<NumaNode> nodes, CpuSet onlineCpus, CpuSet offlineCpus, boolean numaInSysfs, List<String> notes) {

    public Topology {
        nodes = List.copyOf(nodes);
        notes = List.copyOf(notes);
    }

    public NodeSet nodeIds() {
        return NodeSet.of(nodes.stream().mapToInt(NumaNode::id).toArray());
    }

    public Optional<NumaNode> node(int id) {
        return nodes.stream().filter(n -> n.id() == id).findFirst();
    }

    public OptionalInt nodeOfCpu(int cpu) {
        return nodes.stream()
                .filter(n -> n.cpus().contains(cpu))
                .mapToInt(NumaNode::id)
                .findFirst();
    }

    public NodeSet nodesWithCpus() {
        return NodeSet.of(
                nodes.stream().filter(NumaNode::hasCpus).mapToInt(NumaNode::id).toArray());
    }

    public NodeSet nodesWithMemory() {
        return NodeSet.of(nodes.stream()
                .filter(NumaNode::hasMemory)
                .mapToInt(NumaNode::id)
                .toArray());
    }

    public NodeSet memoryOnlyNodes() {
        return NodeSet.of(nodes.stream()
                .filter(n -> n.hasMemory() && !n.hasCpus())
                .mapToInt(NumaNode::id)
                .toArray());
    }

    public NodeSet cpuOnlyNodes() {
        return NodeSet.of(nodes.stream()
                .filter(n -> n.hasCpus() && !n.hasMemory())
                .mapToInt(NumaNode::id)
                .toArray());
    }

    /** The nodes owning any CPU of {@code cpus}. */
    public NodeSet nodesOf(CpuSet cpus) {
        return NodeSet.of(nodes.stream()
                .filter(n -> n.cpus().intersects(cpus))
                .mapToInt(NumaNode::id)
                .toArray());
    }

    /** SLIT distance from a to b; 10 for a == b when unknown, 20 for a != b when unknown (the kernel's defaults). */
    public int distance(int a, int b) {
        int d = node(a).map(n -> n.distanceTo(b)).orElse(-1);
        return d > 0 ? d : (a == b ? 10 : 20);
    }

    /** Among {@code candidates}, the node nearest to {@code from} (ties: lowest id); empty if none. */
    public OptionalInt nearest(int from, NodeSet candidates) {
        return candidates.stream()
                .boxed()
                .min(java.util.Comparator.<Integer>comparingInt(c -> distance(from, c))
                        .thenComparingInt(c -> c))
                .map(OptionalInt::of)
                .orElse(OptionalInt.empty());
    }

    public int nodeCount() {
        return nodes.size();
    }
}
