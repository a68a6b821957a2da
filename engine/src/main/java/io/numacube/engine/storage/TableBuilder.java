package io.numacube.engine.storage;

import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.memory.PlacementRequest;
import io.numacube.numa.topology.NodeSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Builds a {@link FactTable}: gives each partition a data node (largest partition first to the node with the fewest
 * bytes so far), decides its memory node and placement request from the {@link Placement}, and has the filler
 * workers of the memory node (of the home node for interleaved memory; the calling thread for OS_DEFAULT) allocate,
 * fill and zone-map it, so first-touch placement is right too. Atomic: if any partition fails, every block allocated
 * so far is freed after all fills have stopped, and the first failure is rethrown.
 *
 * <p>Stateless; thread-safe.
 */
public final class TableBuilder {

    private TableBuilder() {}

    /**
     * The rows one partition will hold, and what it holds.
     *
     * @param label words for the contents ({@code rows 0..99}, {@code desk=DESK-01})
     * @param rows  number of rows, ≥ 0
     */
    public record PartitionSpec(String label, int rows) {}

    /**
     * Which nodes hold data and which worker node fills and reads each, and where new data meant for a data node short
     * of memory goes instead.
     *
     * @param dataNodes  nodes that may hold partitions, ascending
     * @param fillerNode for each data node, the worker node whose workers write and read it
     * @param redirects  for a data node short of memory, the data node its new partitions are placed on instead
     *                   ({@link io.numacube.numa.MemoryRoom}); every target is a data node
     */
    public record NodeLayout(
            List<Integer> dataNodes, Map<Integer, Integer> fillerNode, Map<Integer, Integer> redirects) {
        public NodeLayout {
            dataNodes = List.copyOf(dataNodes);
            fillerNode = Map.copyOf(fillerNode);
            redirects = Map.copyOf(redirects);
            for (Map.Entry<Integer, Integer> e : redirects.entrySet()) {
                if (!dataNodes.contains(e.getValue()) || !dataNodes.contains(e.getKey())) {
                    throw new NumacubeException(
                            NumacubeException.Kind.INTERNAL,
                            "a redirect must be between data nodes: from=" + e.getKey() + " to=" + e.getValue()
                                    + " dataNodes=" + dataNodes);
                }
            }
        }

        /** A layout with no node short of memory. */
        public NodeLayout(List<Integer> dataNodes, Map<Integer, Integer> fillerNode) {
            this(dataNodes, fillerNode, Map.of());
        }

        /** This layout with {@code next} as its redirects, those between its data nodes (others are dropped). */
        public NodeLayout withRedirects(Map<Integer, Integer> next) {
            Map<Integer, Integer> kept = new java.util.HashMap<>();
            next.forEach((from, to) -> {
                if (dataNodes.contains(from) && dataNodes.contains(to)) {
                    kept.put(from, to);
                }
            });
            return new NodeLayout(dataNodes, fillerNode, kept);
        }

        /** The node new memory meant for {@code node} is placed on: its redirect, else itself (-1 stays -1). */
        public int placedOn(int node) {
            return redirects.getOrDefault(node, node);
        }

        /**
         * The index in {@link #dataNodes} of the node that {@code p} was placed for (its memory node when that is a data
         * node filled by {@code p}'s home, else the first data node filled by its home), or -1.
         */
        public int indexOf(Partition p) {
            int m = dataNodes.indexOf(p.memoryNode());
            if (m >= 0 && fillerNode.get(p.memoryNode()) == p.homeNode()) {
                return m;
            }
            for (int i = 0; i < dataNodes.size(); i++) {
                if (fillerNode.get(dataNodes.get(i)) == p.homeNode()) {
                    return i;
                }
            }
            return -1;
        }

        int filler(int dataNode) {
            Integer f = fillerNode.get(dataNode);
            if (f == null) {
                throw new NumacubeException(
                        NumacubeException.Kind.INTERNAL,
                        "data node without filler: node=" + dataNode + " fillers=" + fillerNode);
            }
            return f;
        }
    }

    /** Writes every row of one partition; called on a filler worker (or the caller for OS_DEFAULT). */
    @FunctionalInterface
    public interface Filler {
        void fill(int partitionIndex, PartitionWriter writer) throws Exception;
    }

    public static FactTable build(
            TableSchema schema,
            Dictionary[] dictionaries,
            List<PartitionSpec> specs,
            String partitioning,
            Placement placement,
            NodeLayout layout,
            int morselRows,
            ColumnMemory memory,
            WorkerPool pool,
            Filler filler) {
        return build(
                schema, dictionaries, null, specs, partitioning, placement, layout, morselRows, memory, pool, filler);
    }

    /**
     * @param nullBits per column, whether a measure column gets null bits (may hold NULL: the filler calls {@link
     *     PartitionWriter#setNull}); null when none does
     */
    public static FactTable build(
            TableSchema schema,
            Dictionary[] dictionaries,
            boolean[] nullBits,
            List<PartitionSpec> specs,
            String partitioning,
            Placement placement,
            NodeLayout layout,
            int morselRows,
            ColumnMemory memory,
            WorkerPool pool,
            Filler filler) {
        CodeWidth[] widths = codeWidths(schema, dictionaries);
        requireOneNodeIsDataNode(placement, layout.dataNodes());
        int[] dataNode = assignDataNodes(specs, schema, widths, nullBits, layout.dataNodes());
        List<Partition> filled = place(
                schema,
                widths,
                nullBits,
                specs,
                dataNode,
                0,
                new PlacementTarget(placement, layout, morselRows, memory, pool),
                filler,
                false);
        return new FactTable(
                schema,
                dictionaries,
                filled,
                partitioning,
                placement,
                memory,
                nullBits,
                new CodedColumns(),
                DeletedRows.NONE);
    }

    /**
     * Builds partitions {@code firstId, firstId + 1, ...} for {@code specs}, spec {@code i} on data node {@code
     * dataNode[i]}, with code widths from {@code dictionaries}: the partitions of rows appended to a table (the caller
     * lists them in the table's next version, which owns them). Atomic like {@link #build}.
     */
    public static List<Partition> buildPartitions(
            TableSchema schema,
            Dictionary[] dictionaries,
            boolean[] nullBits,
            List<PartitionSpec> specs,
            int[] dataNode,
            int firstId,
            PlacementTarget target,
            Filler filler) {
        requireOneNodeIsDataNode(target.placement(), target.layout().dataNodes());
        return place(
                schema,
                codeWidths(schema, dictionaries),
                nullBits,
                specs,
                dataNode,
                firstId,
                target,
                filler,
                fillsOnCaller(specs, target.pool()));
    }

    /** The most rows of appended partitions that the calling thread fills itself where placement gains nothing. */
    static final long MAX_ROWS_FILLED_ON_CALLER = 1L << 16;

    /**
     * Whether appended partitions are filled on the calling thread rather than queued to a worker: where the pool has
     * one node (no placement to win by filling there) and the rows are few (a write's batch), so that a write does not
     * wait behind the queries' morsels queued to the same workers.
     */
    static boolean fillsOnCaller(List<PartitionSpec> specs, WorkerPool pool) {
        long rows = 0;
        for (PartitionSpec s : specs) {
            rows += s.rows();
        }
        return pool.nodes().size() == 1 && rows <= MAX_ROWS_FILLED_ON_CALLER;
    }

    private static List<Partition> place(
            TableSchema schema,
            CodeWidth[] widths,
            boolean[] nullBits,
            List<PartitionSpec> specs,
            int[] dataNode,
            int firstId,
            PlacementTarget target,
            Filler filler,
            boolean onCaller) {
        Placement placement = target.placement();
        NodeLayout layout = target.layout();
        int morselRows = target.morselRows();
        ColumnMemory memory = target.memory();
        WorkerPool pool = target.pool();
        List<Integer> dataNodes = layout.dataNodes();
        Partition[] parts = new Partition[specs.size()];
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        try {
            for (int i = 0; i < specs.size(); i++) {
                int idx = i;
                // a data node short of memory: its new partitions go where the layout redirects them
                int memNode = layout.placedOn(memoryNode(placement, dataNode[i], dataNodes));
                int home = layout.filler(
                        placement.kind() == Placement.Kind.NODE_LOCAL && memNode >= 0 ? memNode : dataNode[i]);
                PlacementRequest req = request(placement, memNode, dataNodes);
                long bytes = Partition.blockBytes(
                        schema, widths, nullBits, specs.get(i).rows());
                Callable<Void> task = () -> {
                    NativeBlock block = memory.allocate(bytes, req);
                    Partition p;
                    try {
                        p = new Partition(
                                firstId + idx,
                                specs.get(idx).label(),
                                home,
                                memNode,
                                specs.get(idx).rows(),
                                morselRows,
                                schema,
                                widths,
                                nullBits,
                                block);
                    } catch (RuntimeException e) {
                        block.close();
                        throw e;
                    }
                    synchronized (parts) {
                        parts[idx] = p;
                    }
                    filler.fill(idx, new PartitionWriter(p));
                    p.computeZoneMaps();
                    return null;
                };
                if (onCaller || placement.kind() == Placement.Kind.OS_DEFAULT) {
                    futures.add(runHere(task));
                } else {
                    futures.add(pool.submit(memNode >= 0 ? layout.filler(memNode) : home, task));
                }
            }
            ThreadWorkerPool.awaitAll(futures);
        } catch (RuntimeException | Error e) {
            closeAfterFailure(futures, parts, e);
            throw e;
        }
        synchronized (parts) {
            return List.of(parts);
        }
    }

    private static CodeWidth[] codeWidths(TableSchema schema, Dictionary[] dictionaries) {
        CodeWidth[] widths = new CodeWidth[schema.size()];
        for (int c = 0; c < schema.size(); c++) {
            if (schema.column(c).isDimension()) {
                widths[c] = dictionaries[c].width();
            }
        }
        return widths;
    }

    private static void requireOneNodeIsDataNode(Placement placement, List<Integer> dataNodes) {
        if (placement.kind() == Placement.Kind.ONE_NODE && !dataNodes.contains(placement.node())) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "one_node placement needs a data node: node=" + placement.node() + " dataNodes=" + dataNodes
                            + " — pick one of the data nodes");
        }
    }

    /** Waits for every started fill to stop, then frees each partition built so far; close failures join {@code e}. */
    private static void closeAfterFailure(List<CompletableFuture<Void>> futures, Partition[] parts, Throwable e) {
        for (CompletableFuture<Void> f : futures) {
            f.exceptionally(t -> null).join();
        }
        synchronized (parts) {
            for (Partition p : parts) {
                if (p != null) {
                    try {
                        p.close();
                    } catch (RuntimeException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
            }
        }
    }

    /**
     * Copies {@code old} into new partitions placed as {@code placement} asks (same partitions, rows, dictionaries and
     * morsel size), filled by the new memory node's workers. {@code old} is left as it is; the caller frees it.
     */
    public static FactTable relocate(
            FactTable old, Placement placement, NodeLayout layout, ColumnMemory memory, WorkerPool pool) {
        List<PartitionSpec> specs = new ArrayList<>();
        for (Partition p : old.partitions()) {
            specs.add(new PartitionSpec(p.label(), p.rows()));
        }
        int morselRows =
                old.partitions().isEmpty() ? 1 << 16 : old.partitions().get(0).morselRows();
        java.util.Map<Integer, Integer> newId = new java.util.HashMap<>();
        for (int i = 0; i < old.partitions().size(); i++) {
            newId.put(old.partitions().get(i).id(), i);
        }
        FactTable t = build(
                old.schema(),
                old.dictionaries(),
                old.nullBits(),
                specs,
                old.partitioning(),
                placement,
                layout,
                morselRows,
                memory,
                pool,
                (i, w) -> {
                    Partition from = old.partitions().get(i);
                    for (int c = 0; c < old.schema().size(); c++) {
                        w.column(c).copyFrom(from.column(c));
                        if (w.nullBits(c) != null) {
                            w.nullBits(c).copyFrom(from.nullBitsForWriting(c));
                        }
                    }
                });
        return new FactTable(
                t.schema(),
                t.dictionaries(),
                t.partitions(),
                t.partitioning(),
                t.placement(),
                t.memory(),
                t.nullBits(),
                t.coded(),
                old.deleted().renumbered(newId));
    }

    private static CompletableFuture<Void> runHere(Callable<Void> task) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        try {
            f.complete(task.call());
        } catch (Throwable t) {
            f.completeExceptionally(t);
        }
        return f;
    }

    /** Longest-processing-time-first: biggest partition to the data node with the fewest bytes so far. */
    static int[] assignDataNodes(
            List<PartitionSpec> specs,
            TableSchema schema,
            CodeWidth[] widths,
            boolean[] nullBits,
            List<Integer> nodes) {
        Integer[] order = new Integer[specs.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(
                order,
                Comparator.comparingInt((Integer i) -> specs.get(i).rows())
                        .reversed()
                        .thenComparingInt(i -> i));
        long[] load = new long[nodes.size()];
        int[] out = new int[specs.size()];
        int next = 0;
        for (int i : order) {
            int best = next;
            for (int k = 1; k < load.length; k++) {
                int n = (next + k) % load.length;
                if (load[n] < load[best]) {
                    best = n;
                }
            }
            next = (best + 1) % load.length;
            out[i] = nodes.get(best);
            load[best] +=
                    Partition.blockBytes(schema, widths, nullBits, specs.get(i).rows());
        }
        return out;
    }

    static int memoryNode(Placement placement, int dataNode, List<Integer> nodes) {
        return switch (placement.kind()) {
            case NODE_LOCAL -> dataNode;
            case ONE_NODE -> placement.node();
            case REMOTE -> nodes.get((nodes.indexOf(dataNode) + 1) % nodes.size());
            case INTERLEAVE, OS_DEFAULT -> -1;
        };
    }

    static PlacementRequest request(Placement placement, int memNode, List<Integer> nodes) {
        return switch (placement.kind()) {
            case NODE_LOCAL, ONE_NODE, REMOTE -> PlacementRequest.bind(memNode);
            case INTERLEAVE ->
                PlacementRequest.interleave(
                        NodeSet.of(nodes.stream().mapToInt(Integer::intValue).toArray()));
            case OS_DEFAULT -> PlacementRequest.osDefault();
        };
    }

    /** Cuts {@code rows} into {@code count} near-equal consecutive ranges (at least one partition, none empty
     * unless rows is 0). */
    public static List<PartitionSpec> rowRanges(long rows, int count) {
        int n = (int) Math.max(1, Math.min(count, rows));
        if (rows / n > Integer.MAX_VALUE - 64) {
            n = (int) ((rows + Integer.MAX_VALUE - 65) / (Integer.MAX_VALUE - 64));
        }
        List<PartitionSpec> specs = new ArrayList<>();
        long start = 0;
        for (int p = 0; p < n; p++) {
            long end = rows * (p + 1) / n;
            specs.add(new PartitionSpec("rows " + start + ".." + (end - 1), (int) (end - start)));
            start = end;
        }
        return specs;
    }

    /** Starts of the ranges of {@link #rowRanges}: {@code starts[p]} is the first row of partition p. */
    public static long[] rowRangeStarts(List<PartitionSpec> specs) {
        long[] starts = new long[specs.size()];
        long s = 0;
        for (int p = 0; p < specs.size(); p++) {
            starts[p] = s;
            s += specs.get(p).rows();
        }
        return starts;
    }
}
