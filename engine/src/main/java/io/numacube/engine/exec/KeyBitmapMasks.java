package io.numacube.engine.exec;

import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.workers.WorkerPool;

/**
 * Marks the codes of a key set's members in a per-code mask by a bit per value over the keys' range, for {@link
 * KeySetMasks}: the keys set their bits, then each code whose value lies in the keys' range tests its bit, branch-free,
 * by ranges of the codes on the query's workers. It stands in for a search per key ({@link
 * Dictionary#codesOfAscending}), whose branches mispredict, where the keys are dense enough among the codes: the codes
 * in the keys' range at most {@value #MAX_CODES_PER_KEY} a key, the range at most {@value #MAX_BITS_PER_CODE} bits a
 * code of the dictionary. TPC-H Q4: 52,523 order keys over a range of 6M values, among 1.5M codes of {@code
 * o_orderkey}. The mask's NULL code (last, where a searchable dictionary has one) is never touched. Stateless.
 */
final class KeyBitmapMasks {

    /** The system property that, {@code false}, finds the codes by a search per key (an A/B of one process). */
    static final String PROPERTY = "numacube.keyBitmapMask";

    /** The most codes in the keys' range, per key, for which a test of every one is chosen. */
    static final int MAX_CODES_PER_KEY = 64;

    /** The most bits of the keys' range per code of the dictionary (the bitmap at most an eighth of its values). */
    static final int MAX_BITS_PER_CODE = 8;

    private KeyBitmapMasks() {}

    /**
     * Sets {@code m[code] = member} for each code of {@code d} whose value is one of {@code keys} (distinct,
     * ascending), and {@code m[code] = !member} for each other code whose value lies between the least and greatest
     * key; returns false, touching nothing, where the keys are not dense enough or the switch is off. Only for a
     * {@link Dictionary#searchable() searchable} dictionary whose mask holds {@code !member} outside that range.
     */
    static boolean set(boolean[] m, Dictionary d, long[] keys, boolean member, WorkerPool pool) {
        if (keys.length == 0 || "false".equals(System.getProperty(PROPERTY))) {
            return false;
        }
        long least = keys[0];
        long greatest = keys[keys.length - 1];
        long span = greatest - least;
        int end = d.nullCode() < 0 ? d.size() : d.size() - 1;
        if (span < 0 || span >= (long) MAX_BITS_PER_CODE * Math.max(end, 64)) {
            return false;
        }
        int from = firstAtLeast(d, end, least);
        int to = firstAbove(d, end, greatest);
        if (to - from > (long) MAX_CODES_PER_KEY * keys.length) {
            return false;
        }
        long[] bits = new long[(int) (span >>> 6) + 1];
        for (long k : keys) {
            long offset = k - least;
            bits[(int) (offset >>> 6)] |= 1L << offset;
        }
        int n = to - from;
        if (pool != null && pool.workerCount() >= 2 && n >= 2 * WorkerChunks.MIN_ITEMS) {
            WorkerChunks.map(pool, n, (a, b) -> {
                test(m, d, bits, least, member, from + a, from + b);
                return null;
            });
        } else {
            test(m, d, bits, least, member, from, to);
        }
        return true;
    }

    private static void test(boolean[] m, Dictionary d, long[] bits, long least, boolean member, int from, int to) {
        for (int code = from; code < to; code++) {
            long offset = d.longValue(code) - least;
            m[code] = (((bits[(int) (offset >>> 6)] >>> offset) & 1L) != 0) == member;
        }
    }

    /** The first code of {@code [0, end)} whose value is at least {@code v} ({@code end} where none is). */
    private static int firstAtLeast(Dictionary d, int end, long v) {
        int lo = 0;
        int hi = end;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (d.longValue(mid) < v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The first code of {@code [0, end)} whose value is above {@code v} ({@code end} where none is). */
    private static int firstAbove(Dictionary d, int end, long v) {
        int lo = 0;
        int hi = end;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (d.longValue(mid) <= v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
