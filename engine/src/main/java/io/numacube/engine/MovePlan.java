package io.numacube.engine;

import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntBinaryOperator;

/**
 * Which partitions move where when the data nodes change ({@link Cube#followMachine}). Two rules, per table:
 * <ol>
 *   <li>a partition whose memory node is no longer a data node goes to the nearest data node (by distance, then by
 *       id);</li>
 *   <li>data nodes that were not data nodes before (the cpuset widened again) get partitions from the fullest nodes
 *       of the table while a partition is smaller than the gap in bytes between the fullest node and the emptiest new
 *       one (the one closest to half the gap first): the table spreads again, as a load spreads it, and every move
 *       narrows the gap, so moves stop at a balance no later change with the same nodes undoes (no ping-pong); a
 *       gained node with a byte budget (a node that has room again after being short of memory) takes no more than
 *       its budget, across all tables.</li>
 * </ol>
 * Partitions without a memory node (interleaved, OS default) stay. Stateless.
 */
final class MovePlan {

    private MovePlan() {}

    /**
     * For each partition of {@code tables} to move, its new memory node.
     *
     * @param dataNodes the data nodes now, ascending
     * @param gained    those that data spreads onto (not data nodes before, or with room again)
     * @param budget    for some gained nodes, the bytes they may take at most (absent: no limit)
     */
    static Map<Partition, Integer> targets(
            Collection<FactTable> tables,
            List<Integer> dataNodes,
            Set<Integer> gained,
            Map<Integer, Long> budget,
            IntBinaryOperator distance) {
        Map<Integer, Long> left = new java.util.HashMap<>(budget);
        Map<Partition, Integer> out = new IdentityHashMap<>();
        for (FactTable t : tables) {
            Map<Integer, Long> bytes = new TreeMap<>();
            dataNodes.forEach(n -> bytes.put(n, 0L));
            Map<Partition, Integer> at = new IdentityHashMap<>();
            for (Partition p : t.partitions()) {
                int m = p.memoryNode();
                if (m < 0 || out.containsKey(p)) {
                    continue;
                }
                int node = dataNodes.contains(m) ? m : nearest(m, dataNodes, distance);
                if (node != m) {
                    out.put(p, node);
                }
                at.put(p, node);
                bytes.merge(node, p.byteSize(), Long::sum);
            }
            spread(t.partitions(), at, bytes, gained, left, out);
        }
        return out;
    }

    /** Rule 2: moves partitions of the fullest node onto the emptiest gained node while that narrows the gap. */
    private static void spread(
            List<Partition> partitions,
            Map<Partition, Integer> at,
            Map<Integer, Long> bytes,
            Set<Integer> gained,
            Map<Integer, Long> left,
            Map<Partition, Integer> out) {
        if (gained.isEmpty() || bytes.size() < 2) {
            return;
        }
        for (int step = 0; step < partitions.size(); step++) {
            int full = -1;
            int empty = -1;
            for (Map.Entry<Integer, Long> e : bytes.entrySet()) {
                if (full < 0 || e.getValue() > bytes.get(full)) {
                    full = e.getKey();
                }
                if (gained.contains(e.getKey()) && (empty < 0 || e.getValue() < bytes.get(empty))) {
                    empty = e.getKey();
                }
            }
            if (empty < 0 || full == empty) {
                return;
            }
            long gap = bytes.get(full) - bytes.get(empty);
            long room = left.getOrDefault(empty, Long.MAX_VALUE);
            Partition best = null;
            for (Partition p : partitions) {
                Integer node = at.get(p);
                if (node == null || node != full || p.byteSize() >= gap || p.byteSize() > room) {
                    continue;
                }
                if (best == null || Math.abs(2 * p.byteSize() - gap) < Math.abs(2 * best.byteSize() - gap)) {
                    best = p;
                }
            }
            if (best == null) {
                return;
            }
            at.put(best, empty);
            if (left.containsKey(empty)) {
                left.put(empty, room - best.byteSize());
            }
            bytes.merge(full, -best.byteSize(), Long::sum);
            bytes.merge(empty, best.byteSize(), Long::sum);
            if (best.memoryNode() == empty) {
                out.remove(best);
            } else {
                out.put(best, empty);
            }
        }
    }

    /** The node of {@code candidates} nearest to {@code from} (by distance, then the lowest id). */
    static int nearest(int from, List<Integer> candidates, IntBinaryOperator distance) {
        List<Integer> sorted = new ArrayList<>(candidates);
        sorted.sort(Integer::compare);
        int best = sorted.get(0);
        int bestDistance = Integer.MAX_VALUE;
        for (int c : sorted) {
            int d;
            try {
                d = distance.applyAsInt(from, c);
            } catch (RuntimeException e) {
                d = Integer.MAX_VALUE - 1;
            }
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        return best;
    }
}
