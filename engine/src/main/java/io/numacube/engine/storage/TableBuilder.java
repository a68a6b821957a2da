package io.numacube.engine.storage;

import io.numacube.engine.exec.ThreadWorkerPool;
import io.numacube.engine.exec.WorkerPool;
import io.numacube.engine.Placement;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.NumacubeException;
import io.numacube.numa.memory.PlacementRequest;
import io.numacube.numa.topology.NodeSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Builds a {@link FactTable}: assigns partitions to nodes balancing bytes, allocates each partition's block as the
 * placement mode asks, and has the home node's workers fill it (so first touch lands on the right node), then computes
 * zone maps. Atomic: if any fill fails, every block allocated so far is freed and the failure is rethrown.
 *
 * <p>Stateless; thread-safe.
 */
public final class TableBuilder {

    private TableBuilder() {
    }

    /** The rows one partition will hold, and what it holds. */
    public record PartitionSpec(String label, int rows) {
    }

    /** Fills one partition; called on a worker of the partition's home node (or the caller for OS_DEFAULT). */
    @FunctionalInterface
    public interface Filler {
        void fill(int partitionIndex, PartitionWriter writer) throws Exception;
    }

    public static FactTable build(TableSchema schema, Dictionary[] dictionaries, List<PartitionSpec> specs,
                                  String partitioning, Placement placement, int morselRows, ColumnMemory memory,
                                  WorkerPool pool, Filler filler) {
        CodeWidth[] widths = new CodeWidth[schema.size()];
        for (int c = 0; c < schema.size(); c++) {
            if (schema.column(c).isDimension()) {
                widths[c] = dictionaries[c].width();
            }
        }
        List<Integer> nodes = pool.nodes();
        int[] home = assignHomes(specs, schema, widths, nodes);
        Partition[] parts = new Partition[specs.size()];
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        try {
            for (int i = 0; i < specs.size(); i++) {
                int idx = i;
                int memNode = memoryNode(placement, home[i], nodes);
                PlacementRequest req = request(placement, memNode, nodes);
                long bytes = Partition.blockBytes(schema, widths, specs.get(i).rows());
                java.util.concurrent.Callable<Void> task = () -> {
                    NativeBlock block = memory.allocate(bytes, req);
                    Partition p;
                    try {
                        p = new Partition(idx, specs.get(idx).label(), home[idx], memNode, specs.get(idx).rows(),
                                morselRows, schema, widths, block);
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
                if (placement.kind() == Placement.Kind.OS_DEFAULT) {
                    CompletableFuture<Void> f = new CompletableFuture<>();
                    try {
                        f.complete(task.call());
                    } catch (Throwable t) {
                        f.completeExceptionally(t);
                    }
                    futures.add(f);
                } else {
                    futures.add(pool.submit(home[i], task));
                }
            }
            ThreadWorkerPool.awaitAll(futures);
        } catch (RuntimeException | Error e) {
            for (CompletableFuture<Void> f : futures) {
                f.exceptionally(t -> null).join();
            }
            synchronized (parts) {
                for (Partition p : parts) {
                    if (p != null) {
                        p.close();
                    }
                }
            }
            throw e;
        }
        synchronized (parts) {
            return new FactTable(schema, dictionaries, List.of(parts), partitioning, placement, memory);
        }
    }

    /** Longest-processing-time-first: biggest partition to the node with the fewest bytes so far. */
    static int[] assignHomes(List<PartitionSpec> specs, TableSchema schema, CodeWidth[] widths, List<Integer> nodes) {
        Integer[] order = new Integer[specs.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, Comparator.comparingInt((Integer i) -> specs.get(i).rows()).reversed()
                .thenComparingInt(i -> i));
        long[] load = new long[nodes.size()];
        int[] home = new int[specs.size()];
        for (int i : order) {
            int best = 0;
            for (int n = 1; n < load.length; n++) {
                if (load[n] < load[best]) {
                    best = n;
                }
            }
            home[i] = nodes.get(best);
            load[best] += Partition.blockBytes(schema, widths, specs.get(i).rows());
        }
        return home;
    }

    static int memoryNode(Placement placement, int home, List<Integer> nodes) {
        return switch (placement.kind()) {
            case NODE_LOCAL -> home;
            case ONE_NODE -> placement.node();
            case REMOTE -> nodes.size() < 2 ? home : nodes.get((nodes.indexOf(home) + 1) % nodes.size());
            case INTERLEAVE, OS_DEFAULT -> -1;
        };
    }

    static PlacementRequest request(Placement placement, int memNode, List<Integer> nodes) {
        return switch (placement.kind()) {
            case NODE_LOCAL, ONE_NODE, REMOTE -> PlacementRequest.bind(memNode);
            case INTERLEAVE -> PlacementRequest.interleave(NodeSet.of(nodes.stream().mapToInt(Integer::intValue)
                    .toArray()));
            case OS_DEFAULT -> PlacementRequest.osDefault();
        };
    }

    /** Cuts {@code rows} into row-range partitions of at most {@code partitionRows} rows (at least one partition). */
    public static List<PartitionSpec> rowRanges(long rows, int partitionRows) {
        if (partitionRows < 1) {
            throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT, "partition rows must be ≥ 1: partitionRows="
                    + partitionRows);
        }
        List<PartitionSpec> specs = new ArrayList<>();
        long start = 0;
        do {
            int n = (int) Math.min(partitionRows, rows - start);
            specs.add(new PartitionSpec("rows " + start + ".." + (start + n - 1), n));
            start += n;
        } while (start < rows);
        return specs;
    }
}
