package io.numacube.numa;

import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntBinaryOperator;

/**
 * Which data nodes are short of memory, and where new data meant for a short node goes instead. Immutable: {@link
 * #next} answers the state after a reading of the nodes' available bytes.
 *
 * <p>Rules:
 * <ul>
 *   <li>a node becomes short when its available bytes drop below its low mark, and stays short until they are back at
 *       its high mark or more (hysteresis, so a node hovering about one mark does not flip at every reading); a node's
 *       marks are {@code lowBytes} and {@code highBytes}, or a 16th and a quarter of its memory when that is less (a
 *       1 GiB node: 64 and 256 MiB), so a small node can have room again;</li>
 *   <li>a node missing from a reading keeps its state (nothing says it changed); a reading of the whole machine only
 *       ({@link io.numacube.numa.topology.NodeAvailableMemory#MACHINE}) says nothing of any node;</li>
 *   <li>new data for a short data node goes to the nearest data node that is not short: the smallest distance, then
 *       the most available bytes, then the lowest id; when every data node is short it stays on its own node (nowhere
 *       is better, and a warning says so).</li>
 * </ul>
 *
 * @param lowBytes   a node below this many available bytes becomes short
 * @param highBytes  a short node has room again at this many available bytes or more
 * @param shortNodes the nodes short of memory now, ascending
 * @param nodeTotalBytes each node's memory, where known (for the marks of small nodes)
 */
public record MemoryRoom(
        long lowBytes, long highBytes, SortedSet<Integer> shortNodes, Map<Integer, Long> nodeTotalBytes) {

    /** 256 MiB: below this a node is short of memory (a table's partition is often larger). */
    public static final long DEFAULT_LOW_BYTES = 256L << 20;

    /** 1 GiB: a short node has room again once this much is available (four times the low mark). */
    public static final long DEFAULT_HIGH_BYTES = 1L << 30;

    public MemoryRoom {
        if (lowBytes < 0 || highBytes <= lowBytes) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a node's memory marks need 0 <= low < high: lowBytes=" + lowBytes + " highBytes=" + highBytes);
        }
        shortNodes = Collections.unmodifiableSortedSet(new TreeSet<>(shortNodes));
        nodeTotalBytes = Map.copyOf(nodeTotalBytes);
    }

    /** No node short yet, with the given marks, the same for every node. */
    public static MemoryRoom of(long lowBytes, long highBytes) {
        return new MemoryRoom(lowBytes, highBytes, new TreeSet<>(), Map.of());
    }

    /** This state with each node's memory known: the marks of a small node scale with it. */
    public MemoryRoom withNodeTotals(Map<Integer, Long> totalBytesByNode) {
        return new MemoryRoom(lowBytes, highBytes, shortNodes, totalBytesByNode);
    }

    /** The available bytes below which {@code node} is short. */
    public long lowFor(int node) {
        Long total = nodeTotalBytes.get(node);
        return total == null || total <= 0 ? lowBytes : Math.min(lowBytes, total / 16);
    }

    /** The available bytes from which a short {@code node} has room again. */
    public long highFor(int node) {
        Long total = nodeTotalBytes.get(node);
        return total == null || total <= 0 ? highBytes : Math.max(lowFor(node) + 1, Math.min(highBytes, total / 4));
    }

    /** The state after a reading: per node, the bytes it can give a new allocation. */
    public MemoryRoom next(Map<Integer, Long> availableBytesByNode) {
        SortedSet<Integer> now = new TreeSet<>(shortNodes);
        for (Map.Entry<Integer, Long> e : availableBytesByNode.entrySet()) {
            int node = e.getKey();
            long available = e.getValue();
            if (node < 0) {
                continue;
            }
            if (available < lowFor(node)) {
                now.add(node);
            } else if (available >= highFor(node)) {
                now.remove(node);
            }
        }
        return new MemoryRoom(lowBytes, highBytes, now, nodeTotalBytes);
    }

    /** The nodes short now that were not in {@code before}. */
    public SortedSet<Integer> becameShortSince(MemoryRoom before) {
        SortedSet<Integer> out = new TreeSet<>(shortNodes);
        out.removeAll(before.shortNodes);
        return out;
    }

    /** The nodes short in {@code before} that have room again now. */
    public SortedSet<Integer> hasRoomAgainSince(MemoryRoom before) {
        SortedSet<Integer> out = new TreeSet<>(before.shortNodes);
        out.removeAll(shortNodes);
        return out;
    }

    /**
     * For each short node of {@code dataNodes} that has somewhere better, the data node its new data goes to instead
     * (rules above); short nodes with nowhere better are left out.
     *
     * @param availableBytesByNode the last reading, for ties of distance (a node missing counts as 0 bytes)
     * @param distance             the node distance table (10 for the same node); a distance that throws counts as
     *                             the farthest
     */
    public SortedMap<Integer, Integer> redirects(
            List<Integer> dataNodes, IntBinaryOperator distance, Map<Integer, Long> availableBytesByNode) {
        List<Integer> roomy = new ArrayList<>();
        for (int n : dataNodes) {
            if (!shortNodes.contains(n)) {
                roomy.add(n);
            }
        }
        SortedMap<Integer, Integer> out = new TreeMap<>();
        if (roomy.isEmpty()) {
            return out;
        }
        for (int n : dataNodes) {
            if (shortNodes.contains(n)) {
                out.put(n, nearest(n, roomy, distance, availableBytesByNode));
            }
        }
        return out;
    }

    private static int nearest(
            int from, List<Integer> candidates, IntBinaryOperator distance, Map<Integer, Long> available) {
        int best = -1;
        int bestDistance = Integer.MAX_VALUE;
        long bestRoom = Long.MIN_VALUE;
        for (int c : candidates) {
            int d;
            try {
                d = distance.applyAsInt(from, c);
            } catch (RuntimeException e) {
                d = Integer.MAX_VALUE - 1;
            }
            long room = available.getOrDefault(c, 0L);
            boolean better = best < 0
                    || d < bestDistance
                    || (d == bestDistance && room > bestRoom)
                    || (d == bestDistance && room == bestRoom && c < best);
            if (better) {
                best = c;
                bestDistance = d;
                bestRoom = room;
            }
        }
        return best;
    }
}
