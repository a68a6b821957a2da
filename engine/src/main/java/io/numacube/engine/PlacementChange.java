package io.numacube.engine;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the cube did about one change of the machine it runs on ({@link Cube#followMachine}): the bindings seen, the
 * data nodes before and after, where the workers now run, the partitions moved and how it went. Immutable: the
 * lists and the map are copies, {@code cause} is never null, {@code workersResized} and {@code how} are never null
 * (empty when no worker count changed, when nothing moved).
 *
 * @param seenAt          when the change was read
 * @param bindings        what changed, e.g. {@code cpus 0-3 -> 2-3, mems 0-1 -> 1}
 * @param dataNodesBefore the nodes that held data before
 * @param dataNodesAfter  the nodes that hold data now (new data goes there too)
 * @param workerCpus      per worker node (the pool's groups), the CPUs its workers are pinned to now, as a list
 * @param partitionsMoved partitions moved to a new node and published
 * @param bytesMoved      their bytes
 * @param targetNodes     the nodes they went to
 * @param seconds         from the change being seen to the last partition published
 * @param percentOnTarget of the moved partitions' pages, the share on their new node (a page census; NaN when the
 *                        memory cannot tell, or nothing moved)
 * @param outcome         {@code done}, or {@code failed: ...} (the tables then stay as they were)
 * @param cause           what the cube followed: a change of the bindings, or of a node's free memory
 * @param workersResized  the worker nodes whose thread count changed ({@code n0 4->1, n1 0->4}); empty when none did
 * @param how             how the partitions moved: {@code moved in place} (mbind MPOL_MF_MOVE), {@code copied (not in
 *                        place: why)}, or both with their counts; empty when none moved
 * @param timings         where the {@code seconds} went, e.g. {@code copying 0.4 s, publishing 0.0 s, page census 0.1
 *                        s, workers re-pinned after 1.2 s}; empty when not measured
 */
public record PlacementChange(
        Instant seenAt,
        String bindings,
        List<Integer> dataNodesBefore,
        List<Integer> dataNodesAfter,
        Map<Integer, String> workerCpus,
        int partitionsMoved,
        long bytesMoved,
        List<Integer> targetNodes,
        double seconds,
        double percentOnTarget,
        String outcome,
        Cause cause,
        String workersResized,
        String how,
        String timings) {

    /** What a {@link PlacementChange} followed. */
    public enum Cause {
        /** The process's allowed CPUs or memory nodes changed ({@code bindings} says how). */
        BINDINGS,
        /** A node's free memory crossed a threshold ({@code bindings} says which node and how much is free). */
        MEMORY
    }

    public PlacementChange {
        java.util.Objects.requireNonNull(cause, "cause");
        workersResized = workersResized == null ? "" : workersResized;
        how = how == null ? "" : how;
        timings = timings == null ? "" : timings;
        dataNodesBefore = List.copyOf(dataNodesBefore);
        dataNodesAfter = List.copyOf(dataNodesAfter);
        workerCpus = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(workerCpus));
        targetNodes = List.copyOf(targetNodes);
    }

    /**
     * The one log line: {@code bindings changed: cpus 0-3 -> 2-3, mems 0-1 -> 1; moving 12 partitions, 3.1 GiB, to
     * node 1 ... done in 4.2 s, 99.8% of pages on node 1}.
     */
    public String logLine() {
        StringBuilder b = new StringBuilder(cause == Cause.MEMORY ? "memory: " : "bindings changed: ")
                .append(bindings)
                .append("; ");
        if (!workersResized.isEmpty()) {
            b.append("workers ").append(workersResized).append("; ");
        }
        if (partitionsMoved == 0) {
            b.append("data nodes ").append(dataNodesBefore).append(" -> ").append(dataNodesAfter);
            b.append(", workers ")
                    .append(workerCpus)
                    .append("; nothing to move ... ")
                    .append(outcome);
            return withTimings(b).toString();
        }
        String to = targetNodes.size() == 1 ? "node " + targetNodes.get(0) : "nodes " + targetNodes;
        b.append(String.format(
                java.util.Locale.ROOT,
                "moving %d partition%s, %s, to %s ... %s in %.1f s",
                partitionsMoved,
                partitionsMoved == 1 ? "" : "s",
                bytes(bytesMoved),
                to,
                outcome,
                seconds));
        if (!Double.isNaN(percentOnTarget)) {
            b.append(String.format(java.util.Locale.ROOT, ", %.1f%% of pages on %s", percentOnTarget, to));
        }
        if (!how.isEmpty()) {
            b.append("; ").append(how);
        }
        return withTimings(b).toString();
    }

    private StringBuilder withTimings(StringBuilder b) {
        return timings.isEmpty() ? b : b.append(" (").append(timings).append(')');
    }

    /**
     * What a change of the nodes' memory means, in words: {@code node 1 short of memory (200.0 MiB available, below
     * 256.0 MiB): new data for it goes to node 0}, or {@code ...: no data node has room, new data stays on it}, and
     * {@code node 1 has room again (2.0 GiB available, at least 1.0 GiB): data spreads back onto it}; joined by
     * {@code ; }.
     */
    public static String describeMemory(
            java.util.SortedSet<Integer> becameShort,
            java.util.SortedSet<Integer> roomAgain,
            Map<Integer, Long> available,
            io.numacube.numa.MemoryRoom room,
            Map<Integer, Integer> redirects) {
        List<String> parts = new java.util.ArrayList<>();
        for (int n : becameShort) {
            Integer to = redirects.get(n);
            parts.add("node " + n + " short of memory (" + bytes(available.getOrDefault(n, 0L)) + " available, below "
                    + bytes(room.lowFor(n)) + "): "
                    + (to == null
                            ? "no data node has room, new data stays on it"
                            : "new data for it goes to node " + to));
        }
        for (int n : roomAgain) {
            parts.add("node " + n + " has room again (" + bytes(available.getOrDefault(n, 0L)) + " available, at least "
                    + bytes(room.highFor(n)) + "): data spreads back onto it");
        }
        return String.join("; ", parts);
    }

    static String bytes(long n) {
        if (n >= 1L << 30) {
            return String.format(java.util.Locale.ROOT, "%.1f GiB", n / (double) (1L << 30));
        }
        if (n >= 1L << 20) {
            return String.format(java.util.Locale.ROOT, "%.1f MiB", n / (double) (1L << 20));
        }
        return String.format(java.util.Locale.ROOT, "%.1f KiB", n / 1024.0);
    }
}
