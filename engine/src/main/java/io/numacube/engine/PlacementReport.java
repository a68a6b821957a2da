package io.numacube.engine;

import io.numacube.engine.storage.ColumnMemory;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.MachineReading;
import io.numacube.numa.topology.NumaNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * The cube's reports of where its data and workers are: every partition with a page census of its memory ({@link
 * PartitionInfo}), how evenly a table is spread ({@link TableSkew}), every node of the machine with the cube's data
 * and workers on it ({@link MachineNode}), and the address ranges of the blocks held.
 *
 * <p>Each report reads only what it is given (a snapshot, a table, a reading of the machine) and changes nothing; the
 * caller ({@link Cube}) holds the snapshot open while it runs, so the partitions it reads stay allocated. Stateless,
 * so safe from any thread.
 */
final class PlacementReport {

    private PlacementReport() {}

    /**
     * Every partition of every table of {@code s}, tables by name, with its node and, with {@code censusPages}, the
     * share of its pages on that node (NaN without, or for an empty partition).
     */
    static List<PartitionInfo> partitions(CubeTables.Snapshot s, ColumnMemory memory, boolean censusPages) {
        List<PartitionInfo> out = new ArrayList<>();
        Map<String, FactTable> sorted = new TreeMap<>();
        s.versions().forEach(v -> sorted.put(CubeTables.key(v.table().schema().name()), v.table()));
        for (FactTable t : sorted.values()) {
            for (Partition p : t.partitions()) {
                int node = p.memoryNode() >= 0 ? p.memoryNode() : p.homeNode();
                OptionalDouble f =
                        !censusPages || p.rows() == 0 ? OptionalDouble.empty() : memory.fractionOnNode(p.block(), node);
                out.add(new PartitionInfo(
                        t.schema().name(),
                        p.id(),
                        p.label(),
                        p.homeNode(),
                        p.memoryNode(),
                        p.rows(),
                        p.byteSize(),
                        p.block().placementApplied(),
                        f.isPresent() ? 100.0 * f.getAsDouble() : Double.NaN));
            }
        }
        return out;
    }

    /** How evenly {@code t} is spread over its partitions and over {@code workerNodes} (its bytes by home node). */
    static TableSkew skew(FactTable t, List<Integer> workerNodes) {
        Map<Integer, Long> bytes = new TreeMap<>();
        for (int n : workerNodes) {
            bytes.put(n, 0L);
        }
        long total = 0;
        for (Partition p : t.partitions()) {
            bytes.merge(p.homeNode(), p.byteSize(), Long::sum);
            total += p.byteSize();
        }
        long max = bytes.values().stream().mapToLong(Long::longValue).max().orElse(0);
        double nodeSkew = total == 0 ? 0 : max / ((double) total / bytes.size());
        return new TableSkew(t.schema().name(), t.partitions().size(), t.skew(), bytes, nodeSkew);
    }

    /**
     * Every node of {@code m}, with whether it is one of {@code dataNodes} and the threads of {@code workers} on it
     * ({@code workers} null: none, as for a cube with simulated nodes).
     */
    static List<MachineNode> machine(MachineReading m, List<Integer> dataNodes, WorkerPool workers) {
        List<Integer> workerNodes = workers == null ? List.of() : workers.nodes();
        List<MachineNode> nodes = new ArrayList<>();
        for (NumaNode n : m.topology().nodes()) {
            int id = n.id();
            nodes.add(new MachineNode(
                    id,
                    n.cpus().toList(),
                    m.allowedCpusOf(id).toList(),
                    n.memTotalBytes(),
                    n.memFreeBytes(),
                    m.memoryAllowed(id),
                    n.distances(),
                    dataNodes.contains(id),
                    workerNodes.contains(id) ? workers.workersOn(id) : 0));
        }
        return nodes;
    }

    /** Addresses and sizes of every partition block and every block of query-time codes of {@code s}'s tables. */
    static List<long[]> blockRanges(CubeTables.Snapshot s) {
        List<long[]> out = new ArrayList<>();
        for (CubeTables.Version v : s.versions()) {
            FactTable t = v.table();
            for (Partition p : t.partitions()) {
                out.add(new long[] {p.block().address(), p.block().byteSize()});
            }
            for (var b : t.coded().blocks()) {
                out.add(new long[] {b.address(), b.byteSize()});
            }
        }
        return out;
    }
}
