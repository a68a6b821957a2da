package io.numacube.engine.ingest;

import io.numacube.engine.storage.DictionaryBuilder;
import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.engine.workers.WorkerPool;

/**
 * Removes the repeats of a free-text column's dictionary whose values were appended without lookup ({@link
 * DictionaryBuilder#appendWithoutLookup}): each value keeps the place of its first code, so the dictionary ends as
 * coding the values one by one would have left it, and the codes of the rows are mapped to it. The work is spread over
 * a pool's workers: the values are hashed in ranges, then each of several hash shards finds, for the values that fall
 * in it, the first code of an equal value; only a pass that numbers the first codes in order runs on the calling
 * thread (an array read and write per value, no hashing or string comparison).
 *
 * <p>Stateless; the calling thread must not be one of the pool's workers, and nothing else may touch the builder or
 * the codes meanwhile.
 */
final class FreeTextCollapse {

    /** Values per range of a task that hashes or maps codes: fewer are not worth a task. */
    private static final int MIN_RANGE = 1 << 16;

    private FreeTextCollapse() {}

    /**
     * Collapses {@code builder}'s repeats and maps {@code codes[0, rows)} to the collapsed codes.
     *
     * @param pool the workers, or null to do it all on the calling thread
     */
    static void collapse(DictionaryBuilder builder, int[] codes, int rows, WorkerPool pool) {
        String[] values = builder.valuesByCode();
        int size = builder.size();
        int nullCode = builder.nullCodeIfAny();
        int tasks = pool == null ? 1 : Math.max(1, pool.workerCount());
        int[] hashes = new int[size];
        inRanges(pool, size, tasks, (from, to) -> {
            for (int i = from; i < to; i++) {
                hashes[i] = i == nullCode ? 0 : values[i].hashCode();
            }
        });
        // a few shards per worker, so that one slow worker holds up little and each shard's table is smaller
        int shardBits = pool == null ? 0 : 32 - Integer.numberOfLeadingZeros(tasks * 4 - 1);
        int[] first = new int[size];
        ThreadWorkerPool.runEach(
                pool, 1 << shardBits, shard -> firstCodes(values, hashes, size, nullCode, shard, shardBits, first));
        int[] remap = new int[size];
        String[] distinct = new String[Math.max(16, size)];
        int count = 0;
        int newNull = -1;
        for (int i = 0; i < size; i++) {
            if (i == nullCode) {
                newNull = count;
                remap[i] = count++;
            } else if (first[i] == i) {
                distinct[count] = values[i];
                remap[i] = count++;
            } else {
                remap[i] = remap[first[i]];
            }
        }
        builder.collapseTo(distinct, count, newNull);
        inRanges(pool, rows, tasks, (from, to) -> {
            for (int r = from; r < to; r++) {
                codes[r] = remap[codes[r]];
            }
        });
    }

    /**
     * For every value of hash shard {@code shard} (the top {@code shardBits} bits of its mixed hash), the first code
     * of an equal value into {@code first}: an open-addressing table of slots holding the hash (high half) and the
     * first code + 1 (low half).
     */
    private static void firstCodes(
            String[] values, int[] hashes, int size, int nullCode, int shard, int shardBits, int[] first) {
        // room for the shard's share of the values at most half full: the table never grows for evenly spread hashes
        long[] slots = new long[Math.max(1024, Integer.highestOneBit(Math.max(1, (size >>> shardBits))) * 4)];
        int count = 0;
        for (int i = 0; i < size; i++) {
            int x = hashes[i] * 0x9E3779B9;
            if (i == nullCode || (shardBits > 0 && x >>> (32 - shardBits) != shard)) {
                continue;
            }
            int mask = slots.length - 1;
            int slot = (x ^ (x >>> 16)) & mask;
            int found = i;
            for (long s = slots[slot]; s != 0; s = slots[slot]) {
                int c = (int) s - 1;
                if ((int) (s >>> 32) == hashes[i] && values[c].equals(values[i])) {
                    found = c;
                    break;
                }
                slot = (slot + 1) & mask;
            }
            first[i] = found;
            if (found == i) {
                slots[slot] = ((long) hashes[i] << 32) | ((i + 1) & 0xFFFF_FFFFL);
                if (++count * 2 > slots.length) {
                    slots = grown(slots);
                }
            }
        }
    }

    private static long[] grown(long[] old) {
        long[] slots = new long[old.length * 2];
        int mask = slots.length - 1;
        for (long s : old) {
            if (s != 0) {
                int x = (int) (s >>> 32) * 0x9E3779B9;
                int slot = (x ^ (x >>> 16)) & mask;
                while (slots[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                slots[slot] = s;
            }
        }
        return slots;
    }

    /** A range body: indexes {@code [from, to)}. */
    private interface Range {
        void run(int from, int to);
    }

    /** Runs {@code body} over {@code [0, n)} cut into at most {@code tasks} ranges of at least {@link #MIN_RANGE}. */
    private static void inRanges(WorkerPool pool, int n, int tasks, Range body) {
        int ranges = Math.max(1, Math.min(tasks, n / MIN_RANGE));
        ThreadWorkerPool.runEach(
                pool, ranges, k -> body.run((int) ((long) n * k / ranges), (int) ((long) n * (k + 1) / ranges)));
    }
}
