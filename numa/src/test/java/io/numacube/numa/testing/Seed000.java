package io.numacube.numa.testing;

import io.numacube.numa.binding.MemoryPolicy;
import io.numacube.numa.binding.MemoryPolicy.Mode;
import io.numacube.numa.binding.ProcessBinding;
import io.numacube.numa.jvm.JvmNumaAdvice.Prediction;
import io.numacube.numa.memory.PlacementMode;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.Topology;
import java.util.List;

/**
 * The rows of the JDK-8346834 table (shared/seeds/000): numactl CPU node binding × membind / interleave / localalloc
 * / preferred; single node, node mismatch, multi-node match, unbound. "single node" runs on 2 nodes bound to node 0;
 * "node mismatch" for localalloc and preferred runs on 4 nodes bound to nodes 0-1 (memory stays on all 4).
 *
 * @param name             the row, as numactl options
 * @param topology         the machine
 * @param binding          what numactl leaves
 * @param dataNodes        numacube's data nodes (the same with and without mbind)
 * @param workerNodes      numacube's worker nodes
 * @param firstTouchMode   numacube's placement when mbind is refused but threads can be pinned
 * @param jdk25            UseNUMA on JDK 25 ("After Patch")
 * @param jdk24            UseNUMA on JDK 24 ("Before Patch")
 */
public record Seed000(
        String name,
        Topology topology,
        ProcessBinding binding,
        NodeSet dataNodes,
        NodeSet workerNodes,
        PlacementMode firstTouchMode,
        Prediction jdk25,
        Prediction jdk24) {

    @Override
    public String toString() {
        return name;
    }

    public static List<Seed000> rows() {
        Topology two = Machine.nodes(0, 2);
        Topology four = Machine.nodes(0, 4);
        MemoryPolicy local = Machine.policy(Mode.LOCAL, "");
        Prediction on = Prediction.ON;
        Prediction off = Prediction.OFF;
        PlacementMode ft = PlacementMode.FIRST_TOUCH;
        PlacementMode os = PlacementMode.OS_DEFAULT;
        return List.of(
                row("-N0 -m0 (single node)", two, "0", Machine.policy(Mode.BIND, "0"), "0", "0", ft, off, off),
                row("-N0 -m0,1 (node mismatch)", two, "0", Machine.policy(Mode.BIND, "0-1"), "0", "0", ft, off, on),
                row(
                        "-N0,1 -m0,1 (multi node match)",
                        two,
                        "0-1",
                        Machine.policy(Mode.BIND, "0-1"),
                        "0-1",
                        "0-1",
                        ft,
                        on,
                        on),
                row("unbound", two, "0-1", MemoryPolicy.defaultPolicy(), "0-1", "0-1", ft, on, on),
                row("-N0 -i0 (single node)", two, "0", Machine.policy(Mode.INTERLEAVE, "0"), "0", "0", ft, off, on),
                row(
                        "-N0 -i0,1 (node mismatch)",
                        two,
                        "0",
                        Machine.policy(Mode.INTERLEAVE, "0-1"),
                        "0",
                        "0",
                        os,
                        off,
                        on),
                row(
                        "-N0,1 -i0,1 (multi node)",
                        two,
                        "0-1",
                        Machine.policy(Mode.INTERLEAVE, "0-1"),
                        "0-1",
                        "0-1",
                        os,
                        on,
                        on),
                row("-N0 --localalloc (single node)", two, "0", local, "0", "0", ft, off, on),
                row("-N0,1 --localalloc on 4 nodes (node mismatch)", four, "0-1", local, "0-1", "0-1", ft, off, on),
                row("-N0,1 --localalloc (multi node)", two, "0-1", local, "0-1", "0-1", ft, on, on),
                row(
                        "-N0 --preferred=0 (single node)",
                        two,
                        "0",
                        Machine.policy(Mode.PREFERRED, "0"),
                        "0",
                        "0",
                        ft,
                        off,
                        on),
                row(
                        "-N0,1 --preferred=0 on 4 nodes (node mismatch)",
                        four,
                        "0-1",
                        Machine.policy(Mode.PREFERRED, "0"),
                        "0-1",
                        "0-1",
                        os,
                        off,
                        on),
                row(
                        "-N0,1 --preferred=0 (multi node)",
                        two,
                        "0-1",
                        Machine.policy(Mode.PREFERRED, "0"),
                        "0-1",
                        "0-1",
                        os,
                        on,
                        on),
                row(
                        "--preferred=0 (no CPU binding, multi node)",
                        two,
                        "0-1",
                        Machine.policy(Mode.PREFERRED, "0"),
                        "0-1",
                        "0-1",
                        os,
                        on,
                        on));
    }

    private static Seed000 row(
            String name,
            Topology t,
            String cpuNodes,
            MemoryPolicy p,
            String data,
            String workers,
            PlacementMode firstTouch,
            Prediction jdk25,
            Prediction jdk24) {
        return new Seed000(
                name,
                t,
                Machine.numactl(t, cpuNodes, p),
                NodeSet.parse(data),
                NodeSet.parse(workers),
                firstTouch,
                jdk25,
                jdk24);
    }
}
