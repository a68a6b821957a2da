package io.numacube.engine.storage;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The rows of one table version that a DELETE or an upsert removed: per partition id, a bit per row (bit {@code r &
 * 63} of word {@code r >>> 6}) and how many are set. Partitions stay as they are (immutable, shared between versions);
 * every scan skips the rows set here, and merging partitions drops them. Immutable: a later delete makes a new instance
 * that copies the words of the partitions it touches and shares the others.
 */
public final class DeletedRows {

    /** No row deleted. */
    public static final DeletedRows NONE = new DeletedRows(Map.of(), Map.of());

    private final Map<Integer, long[]> bits;
    private final Map<Integer, Integer> counts;
    private final long total;

    private DeletedRows(Map<Integer, long[]> bits, Map<Integer, Integer> counts) {
        this.bits = Map.copyOf(bits);
        this.counts = Map.copyOf(counts);
        long t = 0;
        for (int c : this.counts.values()) {
            t += c;
        }
        this.total = t;
    }

    /** The deleted-row bits of partition {@code partitionId}, or null when none of its rows is deleted. Do not modify. */
    public long[] of(int partitionId) {
        return bits.get(partitionId);
    }

    /** Whether row {@code row} of partition {@code partitionId} is deleted. */
    public boolean isDeleted(int partitionId, int row) {
        long[] b = bits.get(partitionId);
        return b != null && isSet(b, row);
    }

    /** Bit {@code row} of {@code bits}. */
    public static boolean isSet(long[] bits, int row) {
        return (bits[row >>> 6] & (1L << row)) != 0;
    }

    /** Deleted rows of partition {@code partitionId}. */
    public int count(int partitionId) {
        return counts.getOrDefault(partitionId, 0);
    }

    /** Deleted rows in all. */
    public long total() {
        return total;
    }

    /** Whether any row in {@code [from, to)} of partition {@code partitionId} is deleted. */
    public boolean anyIn(int partitionId, int from, int to) {
        long[] b = bits.get(partitionId);
        if (b == null) {
            return false;
        }
        for (int w = from >>> 6; w <= (to - 1) >>> 6; w++) {
            long word = b[w];
            if (w == from >>> 6) {
                word &= -1L << from;
            }
            if (w == (to - 1) >>> 6 && (to & 63) != 0) {
                word &= -1L >>> (64 - (to & 63));
            }
            if (word != 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * These rows and also {@code more} (per partition id, rows to delete; a partition of {@code rows.get(id)} rows),
     * counting each row once.
     */
    public DeletedRows plus(Map<Integer, int[]> more, Map<Integer, Integer> rows) {
        Map<Integer, long[]> b = new HashMap<>(bits);
        Map<Integer, Integer> c = new HashMap<>(counts);
        for (Map.Entry<Integer, int[]> e : more.entrySet()) {
            int id = e.getKey();
            long[] old = bits.get(id);
            long[] words = old == null ? new long[(rows.get(id) + 63) >>> 6] : old.clone();
            int n = c.getOrDefault(id, 0);
            for (int r : e.getValue()) {
                if (!isSet(words, r)) {
                    words[r >>> 6] |= 1L << r;
                    n++;
                }
            }
            b.put(id, words);
            c.put(id, n);
        }
        return new DeletedRows(b, c);
    }

    /** These rows with partition ids renamed: {@code newId.get(old)} (copies of the partitions, as relocated). */
    public DeletedRows renumbered(Map<Integer, Integer> newId) {
        Map<Integer, long[]> b = new HashMap<>();
        Map<Integer, Integer> c = new HashMap<>();
        bits.forEach((id, words) -> b.put(newId.get(id), words));
        counts.forEach((id, n) -> c.put(newId.get(id), n));
        return new DeletedRows(b, c);
    }

    /** These rows restricted to the partitions of {@code ids} (the others were merged away). */
    public DeletedRows retain(Set<Integer> ids) {
        if (ids.containsAll(bits.keySet())) {
            return this;
        }
        Map<Integer, long[]> b = new HashMap<>(bits);
        Map<Integer, Integer> c = new HashMap<>(counts);
        b.keySet().retainAll(ids);
        c.keySet().retainAll(ids);
        return new DeletedRows(b, c);
    }
}
