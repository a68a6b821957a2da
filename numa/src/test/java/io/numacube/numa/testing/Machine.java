package io.numacube.numa.testing;

import io.numacube.numa.binding.MemoryPolicy;
import io.numacube.numa.binding.NumaBalancing;
import io.numacube.numa.binding.ProcessBinding;
import io.numacube.numa.memory.PolicySupport;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.NumaNode;
import io.numacube.numa.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Small in-memory topologies, bindings as numactl would leave them, and policy-support variants for tests. */
public final class Machine {

    private Machine() {}

    /** {@code n} nodes with ids {@code firstId..}, 4 CPUs and 16 GiB each, distance 10 local and 21 remote. */
    public static Topology nodes(int firstId, int n) {
        List<NumaNode> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<Integer, Integer> d = new HashMap<>();
            for (int j = 0; j < n; j++) {
                d.put(firstId + j, i == j ? 10 : 21);
            }
            nodes.add(new NumaNode(firstId + i, CpuSet.parse((4 * i) + "-" + (4 * i + 3)), 16L << 30, 8L << 30, d));
        }
        return new Topology(nodes, CpuSet.parse("0-" + (4 * n - 1)), CpuSet.empty(), true, List.of());
    }

    /** The CPUs of {@code nodes} on {@code t}: what numactl --cpunodebind leaves as the affinity. */
    public static CpuSet cpusOf(Topology t, NodeSet nodes) {
        CpuSet c = CpuSet.empty();
        for (int n : nodes.toArray()) {
            c = c.or(t.node(n).orElseThrow().cpus());
        }
        return c;
    }

    public static ProcessBinding binding(CpuSet cpus, NodeSet mems, MemoryPolicy policy) {
        return new ProcessBinding(cpus, mems, policy, Optional.empty(), NumaBalancing.OFF, List.of());
    }

    /** numactl --cpunodebind={@code cpuNodes} plus a policy, on {@code t}, with no cpuset: all memory nodes allowed. */
    public static ProcessBinding numactl(Topology t, String cpuNodes, MemoryPolicy policy) {
        return binding(cpusOf(t, NodeSet.parse(cpuNodes)), t.nodesWithMemory(), policy);
    }

    public static MemoryPolicy policy(MemoryPolicy.Mode mode, String nodes) {
        return new MemoryPolicy(mode, NodeSet.parse(nodes), false, false);
    }

    /** Every call works. */
    public static PolicySupport full() {
        return new PolicySupport(true, true, true, true, true, true, Map.of());
    }

    /** A default Docker container: memory-policy calls refused with EPERM, affinity works. */
    public static PolicySupport container() {
        String eperm = "errno=EPERM(1) — seccomp without CAP_SYS_NICE";
        return new PolicySupport(
                true,
                false,
                false,
                false,
                false,
                true,
                Map.of(
                        "mbind",
                        "mbind " + eperm,
                        "set_mempolicy",
                        "set_mempolicy " + eperm,
                        "get_mempolicy",
                        "get_mempolicy " + eperm,
                        "move_pages",
                        "move_pages " + eperm));
    }
}
