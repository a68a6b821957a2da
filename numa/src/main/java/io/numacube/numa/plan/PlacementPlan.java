package io.numacube.numa.plan;

import io.numacube.numa.memory.PlacementMode;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Which nodes numacube uses for data and for workers, how it places memory, and why. Immutable.
 *
 * <p>Invariants: every data node is a node this process may allocate on; every worker node has at least one CPU this
 * process may run on, and {@code workerCpus} holds only such CPUs; {@code fillerNode} maps every data node to the
 * worker node that fills and reads it (itself, or the nearest worker node for a memory-only node).
 *
 * @param dataNodes        nodes that hold partitions
 * @param workerNodes      nodes that run workers
 * @param workerCpus       for each worker node, the allowed CPUs its workers are pinned to
 * @param fillerNode       for each data node, the worker node whose workers write and read it
 * @param mode             how memory is placed: BIND where mbind works, FIRST_TOUCH where it is refused, OS_DEFAULT
 *                         where threads cannot even be pinned
 * @param everyAccessRemote true when no worker node has allowed memory (CPUs on node 0, memory only on node 1)
 * @param reasons          one human line per decision
 */
public record PlacementPlan(
        NodeSet dataNodes,
        NodeSet workerNodes,
        SortedMap<Integer, CpuSet> workerCpus,
        SortedMap<Integer, Integer> fillerNode,
        PlacementMode mode,
        boolean everyAccessRemote,
        List<String> reasons) {

    public PlacementPlan {
        workerCpus = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(workerCpus));
        fillerNode = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(fillerNode));
        reasons = List.copyOf(reasons);
    }

    public static PlacementPlan of(
            NodeSet dataNodes,
            NodeSet workerNodes,
            Map<Integer, CpuSet> workerCpus,
            Map<Integer, Integer> fillerNode,
            PlacementMode mode,
            boolean everyAccessRemote,
            List<String> reasons) {
        return new PlacementPlan(
                dataNodes,
                workerNodes,
                new TreeMap<>(workerCpus),
                new TreeMap<>(fillerNode),
                mode,
                everyAccessRemote,
                reasons);
    }
}
