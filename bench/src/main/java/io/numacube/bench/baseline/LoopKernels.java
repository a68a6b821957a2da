package io.numacube.bench.baseline;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Tight aggregation kernels over off-heap columns, the way PERF-FACTS found fastest: int index over windows of at
 * most {@link #WINDOW} rows taken with {@code asSlice}, layouts in static final constants, branch-free filters.
 * Each kernel adds the rows {@code [from, to)} into caller-owned accumulators (one set per thread).
 *
 * <p>Stateless; thread-safe as long as each thread passes its own accumulators.
 */
public final class LoopKernels {

    /** Rows per asSlice window: an int index inside it. */
    public static final int WINDOW = 1 << 20;

    static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT;
    static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE;

    private LoopKernels() {}

    /** Scan-sum: {@code sums[key[i]] += value[i]} over byte keys (Q1's kernel). */
    public static void sumByByteKey(MemorySegment key, MemorySegment value, long from, long to, double[] sums) {
        for (long w = from; w < to; w += WINDOW) {
            int n = (int) Math.min(WINDOW, to - w);
            MemorySegment k = key.asSlice(w, n);
            MemorySegment v = value.asSlice(w * 8, n * 8L);
            for (int i = 0; i < n; i++) {
                sums[k.get(BYTE, i)] += v.getAtIndex(DOUBLE, i);
            }
        }
    }

    /** Two byte keys: {@code sums[k1[i] * width2 + k2[i]] += value[i]} (Q2's kernel, before the FX roll-up). */
    public static void sumByTwoByteKeys(
            MemorySegment k1, MemorySegment k2, int width2, MemorySegment value, long from, long to, double[] sums) {
        for (long w = from; w < to; w += WINDOW) {
            int n = (int) Math.min(WINDOW, to - w);
            MemorySegment a = k1.asSlice(w, n);
            MemorySegment b = k2.asSlice(w, n);
            MemorySegment v = value.asSlice(w * 8, n * 8L);
            for (int i = 0; i < n; i++) {
                sums[a.get(BYTE, i) * width2 + b.get(BYTE, i)] += v.getAtIndex(DOUBLE, i);
            }
        }
    }

    /**
     * Filtered scan, branch-free: rows whose unsigned byte {@code day} is in {@code [dayFrom, dayTo]} and whose byte
     * {@code k1} is in {@code k1Mask} (bit k set = keep key k, keys below 64) add {@code value} at
     * {@code k1 * width2 + k2}; other rows add 0 (Q3's kernel).
     */
    public static void filteredSumByTwoByteKeys(
            MemorySegment day,
            int dayFrom,
            int dayTo,
            MemorySegment k1,
            long k1Mask,
            MemorySegment k2,
            int width2,
            MemorySegment value,
            long from,
            long to,
            double[] sums) {
        int span = dayTo - dayFrom;
        for (long w = from; w < to; w += WINDOW) {
            int n = (int) Math.min(WINDOW, to - w);
            MemorySegment d = day.asSlice(w, n);
            MemorySegment a = k1.asSlice(w, n);
            MemorySegment b = k2.asSlice(w, n);
            MemorySegment v = value.asSlice(w * 8, n * 8L);
            for (int i = 0; i < n; i++) {
                int key = a.get(BYTE, i);
                long inDays = Integer.compareUnsigned((d.get(BYTE, i) & 0xff) - dayFrom, span) <= 0 ? 1 : 0;
                long keep = inDays & (k1Mask >>> key);
                double x = v.getAtIndex(DOUBLE, i);
                sums[key * width2 + b.get(BYTE, i)] += (keep & 1) != 0 ? x : 0.0;
            }
        }
    }

    /**
     * Filtered dense group-by, branch-free: rows whose unsigned byte {@code day} is in {@code [dayFrom, dayTo]} add
     * {@code value} at {@code k1 * width2 + k2} (short {@code k1}, byte {@code k2}) and count there; other rows add 0
     * and count 0 (Q6's kernel over book and currency codes, before the book and FX roll-up).
     */
    public static void filteredSumCountByShortAndByteKeys(
            MemorySegment day,
            int dayFrom,
            int dayTo,
            MemorySegment k1,
            MemorySegment k2,
            int width2,
            MemorySegment value,
            long from,
            long to,
            double[] sums,
            long[] counts) {
        int span = dayTo - dayFrom;
        for (long w = from; w < to; w += WINDOW) {
            int n = (int) Math.min(WINDOW, to - w);
            MemorySegment d = day.asSlice(w, n);
            MemorySegment a = k1.asSlice(w * 2, n * 2L);
            MemorySegment b = k2.asSlice(w, n);
            MemorySegment v = value.asSlice(w * 8, n * 8L);
            for (int i = 0; i < n; i++) {
                int keep = Integer.compareUnsigned((d.get(BYTE, i) & 0xff) - dayFrom, span) <= 0 ? 1 : 0;
                int g = a.getAtIndex(SHORT, i) * width2 + b.get(BYTE, i);
                double x = v.getAtIndex(DOUBLE, i);
                sums[g] += keep != 0 ? x : 0.0;
                counts[g] += keep;
            }
        }
    }

    /**
     * Dense group-by over a short key and an unsigned byte key: {@code sums[k1 * width2 + k2] += value; counts[...]++}
     * (Q4's kernel over book and day codes, 250k groups).
     */
    public static void denseSumCountByShortAndByteKeys(
            MemorySegment k1,
            MemorySegment k2,
            int width2,
            MemorySegment value,
            long from,
            long to,
            double[] sums,
            long[] counts) {
        for (long w = from; w < to; w += WINDOW) {
            int n = (int) Math.min(WINDOW, to - w);
            MemorySegment a = k1.asSlice(w * 2, n * 2L);
            MemorySegment b = k2.asSlice(w, n);
            MemorySegment v = value.asSlice(w * 8, n * 8L);
            for (int i = 0; i < n; i++) {
                int g = a.getAtIndex(SHORT, i) * width2 + (b.get(BYTE, i) & 0xff);
                sums[g] += v.getAtIndex(DOUBLE, i);
                counts[g]++;
            }
        }
    }

    /**
     * Dense group-by over one short key with two measures: {@code sumA[k] += a; sumB[k] += b; counts[k]++}
     * (Q5's kernel: SUM(notional), AVG(pnl)).
     */
    public static void denseTwoSumsCountByShortKey(
            MemorySegment key,
            MemorySegment a,
            MemorySegment b,
            long from,
            long to,
            double[] sumA,
            double[] sumB,
            long[] counts) {
        for (long w = from; w < to; w += WINDOW) {
            int n = (int) Math.min(WINDOW, to - w);
            MemorySegment k = key.asSlice(w * 2, n * 2L);
            MemorySegment x = a.asSlice(w * 8, n * 8L);
            MemorySegment y = b.asSlice(w * 8, n * 8L);
            for (int i = 0; i < n; i++) {
                int g = k.getAtIndex(SHORT, i);
                sumA[g] += x.getAtIndex(DOUBLE, i);
                sumB[g] += y.getAtIndex(DOUBLE, i);
                counts[g]++;
            }
        }
    }

    /**
     * Hash group-by (open addressing, linear probing) over a composite key of two shorts, for group spaces too large
     * or too sparse for a dense array, over a short key and an unsigned byte key: {@code table} holds
     * {@code key + 1} (0 = empty) in a power-of-two sized array.
     */
    public static void hashSumByShortAndByteKeys(
            MemorySegment k1, MemorySegment k2, MemorySegment value, long from, long to, HashAccumulator table) {
        for (long w = from; w < to; w += WINDOW) {
            int n = (int) Math.min(WINDOW, to - w);
            MemorySegment a = k1.asSlice(w * 2, n * 2L);
            MemorySegment b = k2.asSlice(w, n);
            MemorySegment v = value.asSlice(w * 8, n * 8L);
            for (int i = 0; i < n; i++) {
                int key = (a.getAtIndex(SHORT, i) << 8) | (b.get(BYTE, i) & 0xff);
                table.add(key, v.getAtIndex(DOUBLE, i));
            }
        }
    }

    /**
     * A single-threaded open-addressing sum/count table keyed by int; grows at 50% load. Not thread-safe: one per
     * thread, merged afterwards.
     */
    public static final class HashAccumulator {
        private int[] keys;
        private double[] sums;
        private long[] counts;
        private int size;
        private int mask;

        public HashAccumulator(int expectedGroups) {
            int cap = Integer.highestOneBit(Math.max(16, expectedGroups * 2 - 1)) << 1;
            keys = new int[cap];
            sums = new double[cap];
            counts = new long[cap];
            mask = cap - 1;
        }

        public void add(int key, double value) {
            int stored = key + 1;
            int h = mix(stored) & mask;
            while (true) {
                int k = keys[h];
                if (k == stored) {
                    sums[h] += value;
                    counts[h]++;
                    return;
                }
                if (k == 0) {
                    keys[h] = stored;
                    sums[h] = value;
                    counts[h] = 1;
                    if (++size * 2 > keys.length) {
                        grow();
                    }
                    return;
                }
                h = (h + 1) & mask;
            }
        }

        public int size() {
            return size;
        }

        /** Empties the table, keeping its capacity. */
        public void clear() {
            java.util.Arrays.fill(keys, 0);
            size = 0;
        }

        /** Visits every group: key, sum, count. */
        public void forEach(GroupVisitor visitor) {
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] != 0) {
                    visitor.visit(keys[i] - 1, sums[i], counts[i]);
                }
            }
        }

        /** Receives groups. */
        @FunctionalInterface
        public interface GroupVisitor {
            void visit(int key, double sum, long count);
        }

        private void grow() {
            int[] oldKeys = keys;
            double[] oldSums = sums;
            long[] oldCounts = counts;
            keys = new int[oldKeys.length * 2];
            sums = new double[keys.length];
            counts = new long[keys.length];
            mask = keys.length - 1;
            size = 0;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != 0) {
                    int h = mix(oldKeys[i]) & mask;
                    while (keys[h] != 0) {
                        h = (h + 1) & mask;
                    }
                    keys[h] = oldKeys[i];
                    sums[h] = oldSums[i];
                    counts[h] = oldCounts[i];
                    size++;
                }
            }
        }

        private static int mix(int x) {
            int h = x * 0x9E3779B9;
            return h ^ (h >>> 16);
        }
    }
}
