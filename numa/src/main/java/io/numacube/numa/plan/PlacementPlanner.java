package io.numacube.numa.plan;

import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.binding.MemoryPolicy;
import io.numacube.numa.binding.ProcessBinding;
import io.numacube.numa.memory.PlacementMode;
import io.numacube.numa.memory.PolicySupport;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.NumaNode;
import io.numacube.numa.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Decides which nodes hold data and run workers, and how memory is placed ({@link PlacementPlan}).
 *
 * <p>Where the JDK switches NUMA off when the nodes of the allowed CPUs and the allowed memory nodes differ
 * (JDK-8346834), the planner uses the nodes where they meet. Rules, in order:
 * <ol>
 *   <li><b>CPU nodes</b> = the nodes owning an allowed, online CPU. <b>Memory nodes</b> = allowed memory nodes that
 *       have memory; under a BIND (membind) policy, only its nodes among them (unless its nodes are relative to the
 *       cpuset, MPOL_F_RELATIVE_NODES). INTERLEAVE, PREFERRED, PREFERRED_MANY
 *       and LOCAL do not restrict where memory may be allocated, only where the default lands, so the memory nodes
 *       stay the allowed ones. An unknown policy (get_mempolicy refused) is taken as not restricting.</li>
 *   <li><b>Worker nodes</b> = CPU nodes; each worker node's CPUs = its CPUs &cap; allowed CPUs.</li>
 *   <li><b>Data nodes</b> = CPU nodes &cap; memory nodes when that is not empty ("CPUs and memory meet on nodes
 *       X"); memory nodes without an allowed CPU are left out so that every access stays local, except memory-only
 *       nodes (no CPUs at all), which are added when mbind works. First touch cannot reach a memory-only node (no
 *       CPU can fault a page there), so without mbind they are left out.</li>
 *   <li>When CPU nodes and memory nodes do not meet (CPUs on node 0, memory only on node 1): with mbind the data
 *       nodes are the memory nodes; without it the kernel puts first-touched pages on the memory node nearest to
 *       the touching CPU, so the data nodes are, per worker node, its nearest memory node.
 *       {@code everyAccessRemote} is set and numacube carries on.</li>
 *   <li><b>Filler node</b> of a data node: itself when it is a worker node, else the nearest worker node by SLIT
 *       distance (ties: lowest id).</li>
 *   <li><b>Mode</b>: BIND when mbind works; else FIRST_TOUCH when threads can be pinned, unless the process policy
 *       is INTERLEAVE or PREFERRED over nodes other than the one data node (it, not the touching CPU, decides where
 *       first-touched pages land): then OS_DEFAULT; else OS_DEFAULT (placement best effort: threads cannot be
 *       pinned).</li>
 * </ol>
 * The plan never names a worker node the process may not run on, nor a data node it may not allocate on. Each
 * decision adds one human line to {@link PlacementPlan#reasons()}.
 *
 * <p>Stateless and thread-safe: a pure function of its arguments.
 */
public final class PlacementPlanner {

    private PlacementPlanner() {}

    /**
     * Plans placement for a process with binding {@code b} on topology {@code t}, given which calls work ({@code s}).
     *
     * @throws NumacubeException (INVALID_INPUT) when no allowed CPU is on any node of {@code t}: the binding was read
     *                           on another machine than the topology
     */
    public static PlacementPlan plan(Topology t, ProcessBinding b, PolicySupport s) {
        List<String> reasons = new ArrayList<>();
        CpuSet allowedCpus =
                t.onlineCpus().isEmpty() ? b.allowedCpus() : b.allowedCpus().and(t.onlineCpus());
        NodeSet cpuNodes = cpuNodes(t, b, allowedCpus);
        NodeSet memNodes = memoryNodes(t, b, reasons);
        MemoryPolicy policy = b.policy();

        NodeSet meet = cpuNodes.and(memNodes);
        boolean everyAccessRemote = meet.isEmpty();
        NodeSet dataNodes = everyAccessRemote
                ? remoteDataNodes(t, s, cpuNodes, memNodes, reasons)
                : meetingDataNodes(t, s, cpuNodes, memNodes, meet, reasons);

        Map<Integer, CpuSet> workerCpus = workerCpus(t, cpuNodes, allowedCpus);
        Map<Integer, Integer> filler = new TreeMap<>();
        for (int d : dataNodes.toArray()) {
            filler.put(d, cpuNodes.contains(d) ? d : t.nearest(d, cpuNodes).orElseThrow());
        }
        NodeSet cpuOnlyWorkers = cpuNodes.andNot(t.nodesWithMemory());
        if (!cpuOnlyWorkers.isEmpty()) {
            reasons.add("worker nodes " + cpuOnlyWorkers + " have no memory: their workers read data held on other "
                    + "nodes");
        }

        PlacementMode mode = mode(policy, dataNodes, s, reasons);
        if (dataNodes.size() == 1 && cpuNodes.equals(dataNodes)) {
            int n = dataNodes.toArray()[0];
            reasons.add(
                    0,
                    t.nodeCount() == 1
                            ? "one-node machine: node " + n + " holds the data and runs the workers"
                            : "bound to node " + n + " only: the allowed CPUs " + allowedCpus
                                    + " and memory meet there alone");
        }
        reasons.add("workers on nodes " + cpuNodes + ": "
                + workerCpus.entrySet().stream()
                        .map(e -> "node " + e.getKey() + " cpus " + e.getValue())
                        .collect(Collectors.joining(", ")));
        return PlacementPlan.of(dataNodes, cpuNodes, workerCpus, filler, mode, everyAccessRemote, reasons);
    }

    /** The nodes owning an allowed, online CPU; none means the binding does not belong to this topology. */
    private static NodeSet cpuNodes(Topology t, ProcessBinding b, CpuSet allowedCpus) {
        NodeSet cpuNodes = t.nodesOf(allowedCpus).and(t.nodesWithCpus());
        if (cpuNodes.isEmpty()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "no allowed CPU is on a node: allowedCpus=" + b.allowedCpus() + " onlineCpus=" + t.onlineCpus()
                            + " nodes=" + t.nodeIds()
                            + " — were the topology and the binding read on the same machine?");
        }
        return cpuNodes;
    }

    /** Data nodes where CPU and memory nodes meet, plus memory-only nodes when mbind can reach them. */
    private static NodeSet meetingDataNodes(
            Topology t, PolicySupport s, NodeSet cpuNodes, NodeSet memNodes, NodeSet meet, List<String> reasons) {
        NodeSet dataNodes = meet;
        if (!(meet.size() == 1 && cpuNodes.equals(meet) && memNodes.equals(meet))) {
            reasons.add("CPUs and memory meet on nodes " + meet + " (CPU nodes " + cpuNodes + ", memory nodes "
                    + memNodes + ")");
        }
        NodeSet unreachable = memNodes.andNot(meet).andNot(t.memoryOnlyNodes());
        if (!unreachable.isEmpty()) {
            reasons.add("memory nodes " + unreachable + " left out: no allowed CPU there, every access would be "
                    + "remote (JDK 25 turns UseNUMA off on such a mismatch; numacube uses nodes " + meet + ")");
        }
        NodeSet memoryOnly = memNodes.and(t.memoryOnlyNodes());
        if (!memoryOnly.isEmpty()) {
            if (s.mbind()) {
                dataNodes = dataNodes.or(memoryOnly);
                reasons.add("memory-only nodes " + memoryOnly + " hold data too (mbind), each filled by its "
                        + "nearest worker node");
            } else {
                reasons.add("memory-only nodes " + memoryOnly + " left out: first touch cannot place pages on a "
                        + "node without CPUs and mbind is unavailable" + refusal(s, "mbind"));
            }
        }
        return dataNodes;
    }

    /** Data nodes when CPU and memory nodes do not meet: the memory nodes under mbind, else where first touch lands. */
    private static NodeSet remoteDataNodes(
            Topology t, PolicySupport s, NodeSet cpuNodes, NodeSet memNodes, List<String> reasons) {
        NodeSet dataNodes;
        if (s.mbind()) {
            dataNodes = memNodes;
        } else {
            dataNodes = NodeSet.of(cpuNodes.stream()
                    .map(w -> t.nearest(w, memNodes).orElseThrow())
                    .distinct()
                    .toArray());
        }
        reasons.add("every access is remote: allowed CPUs are on nodes " + cpuNodes
                + ", allowed memory only on nodes " + memNodes + "; carrying on with data on nodes " + dataNodes
                + (s.mbind() ? "" : " (nearest memory node of each worker node, where first touch lands)"));
        return dataNodes;
    }

    private static Map<Integer, CpuSet> workerCpus(Topology t, NodeSet cpuNodes, CpuSet allowedCpus) {
        Map<Integer, CpuSet> workerCpus = new TreeMap<>();
        for (int w : cpuNodes.toArray()) {
            workerCpus.put(
                    w, t.node(w).map(NumaNode::cpus).orElse(CpuSet.empty()).and(allowedCpus));
        }
        return workerCpus;
    }

    private static NodeSet memoryNodes(Topology t, ProcessBinding b, List<String> reasons) {
        NodeSet allowed = b.allowedMems();
        NodeSet withMemory = t.nodesWithMemory();
        NodeSet mem = allowed.and(withMemory);
        if (mem.isEmpty()) {
            NodeSet known = allowed.and(t.nodeIds());
            if (!known.isEmpty()) {
                reasons.add("no allowed memory node reports memory (allowed " + allowed + ", with memory " + withMemory
                        + "): using the allowed nodes " + known + " as they are");
                mem = known;
            } else {
                NodeSet all = withMemory.isEmpty() ? t.nodeIds() : withMemory;
                reasons.add("allowed memory nodes " + allowed + " match no node of the topology " + t.nodeIds()
                        + ": assuming nodes " + all);
                mem = all;
            }
        }
        MemoryPolicy p = b.policy();
        if (p.mode() == MemoryPolicy.Mode.BIND && p.relativeNodes()) {
            reasons.add("membind with relative node numbers (" + p + ") names nodes relative to the cpuset: "
                    + "memory nodes taken from the allowed nodes " + mem);
        } else if (p.mode() == MemoryPolicy.Mode.BIND && !p.nodes().isEmpty()) {
            NodeSet bound = mem.and(p.nodes());
            if (bound.isEmpty()) {
                reasons.add("membind nodes " + p.nodes() + " share no node with allowed memory " + mem
                        + ": using the allowed memory nodes");
            } else {
                if (!bound.equals(mem)) {
                    reasons.add("membind to nodes " + p.nodes() + ": memory nodes limited to " + bound);
                }
                mem = bound;
            }
        }
        return mem;
    }

    private static PlacementMode mode(MemoryPolicy policy, NodeSet dataNodes, PolicySupport s, List<String> reasons) {
        boolean steering = steersFirstTouch(policy, dataNodes);
        if (s.mbind()) {
            reasons.add("placement BIND: mbind each segment to its node");
            if (!s.affinity()) {
                reasons.add("threads cannot be pinned" + refusal(s, "sched_setaffinity")
                        + ": workers run wherever the kernel puts them, data stays on its nodes");
            }
            if (steering || policy.mode() == MemoryPolicy.Mode.LOCAL) {
                reasons.add("the process policy " + policy + " is overridden per segment by numacube's own mbind");
            }
            return PlacementMode.BIND;
        }
        if (s.affinity()) {
            if (steering) {
                String lands = policy.mode() == MemoryPolicy.Mode.INTERLEAVE
                                || policy.mode() == MemoryPolicy.Mode.WEIGHTED_INTERLEAVE
                        ? "interleaved over nodes "
                        : "on the preferred nodes ";
                reasons.add("placement OS_DEFAULT: mbind unavailable" + refusal(s, "mbind") + " and under first "
                        + "touch the process policy " + policy + " decides: pages land " + lands + policy.nodes()
                        + ", not on the touching worker's node");
                return PlacementMode.OS_DEFAULT;
            }
            reasons.add("placement FIRST_TOUCH: mbind unavailable" + refusal(s, "mbind")
                    + "; pinned workers write each partition first");
            if (policy.mode() == MemoryPolicy.Mode.UNKNOWN) {
                reasons.add("the process memory policy is unknown: if it is interleave or preferred, it decides "
                        + "where first-touched pages land");
            }
            return PlacementMode.FIRST_TOUCH;
        }
        reasons.add("placement OS_DEFAULT: neither mbind nor thread pinning works"
                + refusal(s, s.nativeAccess() ? "sched_setaffinity" : "native")
                + "; data and worker nodes are best effort, the kernel decides where threads run and pages land");
        return PlacementMode.OS_DEFAULT;
    }

    /** True when the process policy, not the touching CPU, decides where first-touched pages of the data go. */
    private static boolean steersFirstTouch(MemoryPolicy p, NodeSet dataNodes) {
        return switch (p.mode()) {
            case INTERLEAVE, WEIGHTED_INTERLEAVE, PREFERRED, PREFERRED_MANY ->
                !(p.nodes().isEmpty() || (dataNodes.size() == 1 && p.nodes().equals(dataNodes)));
            default -> false;
        };
    }

    private static String refusal(PolicySupport s, String call) {
        String r = s.refusals().get(call);
        return r == null ? "" : " (" + r + ")";
    }
}
