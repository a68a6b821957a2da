package io.numacube.cli.cube;

import io.numacube.cli.output.Units;
import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.binding.CgroupMemoryLimit;
import io.numacube.numa.binding.CgroupMemoryLimitReader;
import io.numacube.numa.topology.NodeAvailableMemory;
import io.numacube.numa.topology.SystemRoot;
import io.numacube.numa.topology.TopologyReader;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the process may still take, read before a load or generation starts, so that data that cannot fit is refused
 * with one line naming the need and the limit, instead of the kernel's OOM killer ending the process without a word
 * (exit 137) or the JVM running out of heap half way. The limits: each NUMA node's available memory
 * ({@link NodeAvailableMemory}), the cgroup's ({@link CgroupMemoryLimit}), the JVM heap (which stages CSV rows) and
 * {@code --max-memory}. Needs are lower bounds (a measure takes 8 bytes, a dimension code at least 1, a staged value at
 * least 4), so a refusal is certain to be right; a load that passes may still need more. Immutable.
 *
 * @param nodes         the nodes with memory; empty when the topology could not be read (then no node is checked)
 * @param cgroup        the cgroup's limit, if one is set
 * @param heapFreeBytes what the JVM heap can still grow to hold (max heap less what is in use)
 * @param maxHeapBytes  the JVM's max heap
 * @param maxMemory     {@code --max-memory}, or null
 */
public record MemoryBudget(
        List<NodeAvailableMemory> nodes,
        Optional<CgroupMemoryLimit> cgroup,
        long heapFreeBytes,
        long maxHeapBytes,
        Long maxMemory) {

    /** Bytes of a placed measure value (LONG, DOUBLE). */
    public static final int MEASURE_BYTES = 8;
    /** The fewest bytes of a placed dimension code. */
    public static final int MIN_CODE_BYTES = 1;
    /** The fewest heap bytes of a staged CSV value (an int code; measures take 8). */
    public static final int MIN_STAGED_BYTES = 4;

    public MemoryBudget {
        nodes = List.copyOf(nodes);
    }

    /** The budget of this process now. */
    public static MemoryBudget detect(Long maxMemory) {
        SystemRoot root = SystemRoot.live();
        List<NodeAvailableMemory> nodes;
        try {
            nodes = NodeAvailableMemory.read(root, TopologyReader.read(root));
        } catch (RuntimeException unreadable) {
            // no topology, no node check: the other limits still hold
            nodes = List.of();
        }
        Runtime rt = Runtime.getRuntime();
        long used = rt.totalMemory() - rt.freeMemory();
        return new MemoryBudget(
                nodes, CgroupMemoryLimitReader.read(root), rt.maxMemory() - used, rt.maxMemory(), maxMemory);
    }

    /**
     * Refuses work that cannot fit.
     *
     * @param what         what is to be loaded, for the message, e.g. "1,000,000,000 generated trades"
     * @param placedBytes  native bytes the placed columns will take at least, spread evenly over {@code dataNodes}
     * @param stagingBytes heap bytes staging will take at least (0 for generated data)
     * @param dataNodes    the nodes the data is placed on
     * @param remedy       what the user can do besides freeing memory, e.g. "generate fewer rows"
     * @throws NumacubeException INVALID_INPUT naming the need, the limit and what to do
     */
    public void check(String what, long placedBytes, long stagingBytes, List<Integer> dataNodes, String remedy) {
        long total = placedBytes + stagingBytes;
        String need = "needs at least " + Units.bytes(total)
                + (stagingBytes > 0
                        ? " (" + Units.bytes(placedBytes) + " placed + " + Units.bytes(stagingBytes)
                                + " of JVM heap to stage it)"
                        : " placed");
        if (maxMemory != null && total > maxMemory) {
            throw refuse(
                    what + " " + need + ", more than --max-memory " + Units.bytes(maxMemory),
                    remedy + " or raise --max-memory");
        }
        if (stagingBytes > heapFreeBytes) {
            throw refuse(
                    what + " needs at least " + Units.bytes(stagingBytes) + " of JVM heap to stage it, the heap "
                            + "has " + Units.bytes(heapFreeBytes) + " free (max " + Units.bytes(maxHeapBytes) + ")",
                    remedy
                            + " or give the JVM more heap, e.g. NUMACUBE_JAVA_OPTS=-Xmx"
                            + Math.max(1, (stagingBytes + maxHeapBytes - heapFreeBytes) * 2 >> 30) + "g");
        }
        if (cgroup.isPresent() && total > cgroup.get().availableBytes()) {
            CgroupMemoryLimit c = cgroup.get();
            throw refuse(
                    what + " " + need + ", the cgroup allows " + Units.bytes(c.availableBytes()) + " more (limit "
                            + Units.bytes(c.limitBytes()) + " in " + c.file()
                            + (c.usageBytes() >= 0 ? ", " + Units.bytes(c.usageBytes()) + " in use" : "") + ")",
                    remedy + " or raise the cgroup's limit");
        }
        checkNodes(what, placedBytes, dataNodes, remedy);
    }

    private void checkNodes(String what, long placedBytes, List<Integer> dataNodes, String remedy) {
        if (nodes.isEmpty() || dataNodes.isEmpty()) {
            return;
        }
        List<NodeAvailableMemory> targets =
                nodes.stream().filter(n -> dataNodes.contains(n.node())).toList();
        if (targets.size() != dataNodes.size()) {
            // simulated or unknown nodes: all of the machine's memory is one pool
            long available = nodes.stream()
                    .mapToLong(NodeAvailableMemory::availableBytes)
                    .sum();
            if (placedBytes > available) {
                throw refuse(
                        what + " needs at least " + Units.bytes(placedBytes) + " placed, the machine has "
                                + Units.bytes(available) + " available ("
                                + nodes.getFirst().source() + ")",
                        remedy + " or free memory");
            }
            return;
        }
        long share = placedBytes / targets.size();
        for (NodeAvailableMemory n : targets) {
            if (share > n.availableBytes()) {
                throw refuse(
                        what + " needs at least " + Units.bytes(share) + " placed on node " + n.node()
                                + (targets.size() > 1
                                        ? " (its share of " + Units.bytes(placedBytes) + " over " + targets.size()
                                                + " nodes)"
                                        : "")
                                + ", node " + n.node() + " has " + Units.bytes(n.availableBytes()) + " available ("
                                + Units.bytes(n.freeBytes()) + " free, the rest page "
                                + "cache; " + n.source() + ")",
                        remedy + " or free memory");
            }
        }
    }

    private static NumacubeException refuse(String fact, String remedy) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT, "not enough memory: " + fact + " — " + remedy);
    }

    /** A row count for messages: {@code 1,000,000,000}. */
    public static String rows(long rows) {
        return String.format(Locale.ROOT, "%,d", rows);
    }
}
