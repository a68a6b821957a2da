package io.numacube.engine;

import io.numacube.numa.topology.CpuSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When the VM's follow check ({@link FollowMachineVmMain}) counts a cube as having followed its cgroup: the reason it
 * has not yet, as one line, or the empty string once it has. Two states:
 * <ul>
 *   <li>{@link #onNode narrowed to one node}: every partition recorded on that node with at least {@value #MIN_PCT} %
 *       of its pages there, every worker thread allowed that node's CPUs only;</li>
 *   <li>{@link #spread spread again} over several data nodes: every partition recorded on one of them with at least
 *       {@value #MIN_PCT} % of its pages there, each table of several partitions on every data node with its bytes
 *       per node apart by no more than its largest partition (the balance the cube's move plan stops at, as a load
 *       spreads a table), and each worker allowed its own node's CPUs only, workers on every data node.</li>
 * </ul>
 * and the parts they are made of ({@link #onDataNodes}, {@link #holding}, {@link #workersOnTheirNodes}), for a cgroup
 * that takes a memory-only node away and gives it back. Stateless; the inputs are read by the caller.
 */
final class FollowConvergence {

    /** The share of a partition's pages that must be on its recorded node. */
    static final double MIN_PCT = 99.0;

    private static final Pattern WORKER = Pattern.compile("numacube-n(\\d+)-w\\d+");

    /** A worker thread: its name ({@code numacube-n1-w0}) and its {@code Cpus_allowed_list}. */
    record Worker(String name, String cpus) {

        /** The node whose queue the worker serves, from its name; -1 for another name. */
        int node() {
            Matcher m = WORKER.matcher(name);
            return m.matches() ? Integer.parseInt(m.group(1)) : -1;
        }
    }

    private FollowConvergence() {}

    /** Why the cube is not all on {@code node} (data and workers) yet; empty when it is. */
    static String onNode(List<PartitionInfo> partitions, List<Worker> workers, int node, CpuSet nodeCpus) {
        if (partitions.isEmpty()) {
            return "no partitions";
        }
        for (PartitionInfo p : partitions) {
            if (p.memoryNode() != node || !(p.pagesOnNodePct() >= MIN_PCT)) {
                return "partition " + p.table() + "/" + p.partitionId() + " memory_node=" + p.memoryNode() + " pct="
                        + p.pagesOnNodePct();
            }
        }
        if (workers.isEmpty()) {
            return "no worker threads";
        }
        for (Worker w : workers) {
            if (!nodeCpus.containsAll(CpuSet.parse(w.cpus()))) {
                return "worker " + w.name() + " cpus=" + w.cpus();
            }
        }
        return "";
    }

    /** Why the cube is not spread over the nodes of {@code cpusByNode} (data and workers) yet; empty when it is. */
    static String spread(List<PartitionInfo> partitions, List<Worker> workers, Map<Integer, CpuSet> cpusByNode) {
        String why = onDataNodes(partitions, cpusByNode.keySet());
        if (!why.isEmpty()) {
            return why;
        }
        Map<String, Map<Integer, Long>> bytes = new TreeMap<>();
        Map<String, Long> largest = new TreeMap<>();
        Map<String, Integer> count = new TreeMap<>();
        for (PartitionInfo p : partitions) {
            bytes.computeIfAbsent(p.table(), t -> new TreeMap<>()).merge(p.memoryNode(), p.bytes(), Long::sum);
            largest.merge(p.table(), p.bytes(), Math::max);
            count.merge(p.table(), 1, Integer::sum);
        }
        for (Map.Entry<String, Map<Integer, Long>> t : bytes.entrySet()) {
            if (count.get(t.getKey()) < cpusByNode.size()) {
                continue;
            }
            long lo = Long.MAX_VALUE;
            long hi = 0;
            for (int node : cpusByNode.keySet()) {
                long b = t.getValue().getOrDefault(node, 0L);
                lo = Math.min(lo, b);
                hi = Math.max(hi, b);
            }
            if (lo == 0 || hi - lo > largest.get(t.getKey())) {
                return "table " + t.getKey() + " bytes per node " + t.getValue() + ", largest partition "
                        + largest.get(t.getKey());
            }
        }
        return workersOnTheirNodes(workers, cpusByNode);
    }

    /** Why some partition is not recorded on one of {@code dataNodes} with {@value #MIN_PCT} % of its pages there. */
    static String onDataNodes(List<PartitionInfo> partitions, Set<Integer> dataNodes) {
        if (partitions.isEmpty()) {
            return "no partitions";
        }
        for (PartitionInfo p : partitions) {
            if (!dataNodes.contains(p.memoryNode()) || !(p.pagesOnNodePct() >= MIN_PCT)) {
                return "partition " + p.table() + "/" + p.partitionId() + " memory_node=" + p.memoryNode() + " pct="
                        + p.pagesOnNodePct();
            }
        }
        return "";
    }

    /** Why {@code table} has no partition on some node of {@code nodes}; empty when it has one on each. */
    static String holding(List<PartitionInfo> partitions, String table, Set<Integer> nodes) {
        Set<Integer> held = new TreeSet<>();
        for (PartitionInfo p : partitions) {
            if (p.table().equals(table)) {
                held.add(p.memoryNode());
            }
        }
        return held.containsAll(nodes) ? "" : "table " + table + " on nodes " + held + ", not on all of " + nodes;
    }

    /** Why some worker may run off its own node's CPUs, or a node of {@code cpusByNode} has no worker; else empty. */
    static String workersOnTheirNodes(List<Worker> workers, Map<Integer, CpuSet> cpusByNode) {
        Map<Integer, Integer> perNode = new TreeMap<>();
        for (Worker w : workers) {
            CpuSet own = cpusByNode.get(w.node());
            if (own != null && !own.containsAll(CpuSet.parse(w.cpus()))) {
                return "worker " + w.name() + " cpus=" + w.cpus() + " (its node's: " + own.toList() + ")";
            }
            perNode.merge(w.node(), 1, Integer::sum);
        }
        for (int node : cpusByNode.keySet()) {
            if (!perNode.containsKey(node)) {
                return "no worker of node " + node + " (workers per node " + perNode + ")";
            }
        }
        return "";
    }
}
