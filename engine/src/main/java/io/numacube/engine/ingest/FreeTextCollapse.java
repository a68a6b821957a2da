package io.numacube.engine.ingest;

import io.numacube.engine.storage.DictionaryBuilder;
import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.engine.workers.WorkerPool;

/**
 * Removes the repeats of a free-text column's dictionary whose values were appended without lookup ({@link
 * DictionaryBuilder#appendWithoutLookup}): each value keeps the place of its first code, so the dictionary ends as
 * coding the values one by one would have left it, and the codes of the rows are mapped to it. The work is spread over
 * a pool's workers: the values are hashed in ranges, then each of several hash shards finds, for the values that fall
 * in it, the first code of an equal value, part by part of a few thousand values so that its lookups stay in cache;
 * only a pass that numbers the first codes in order runs on the calling thread (an array read and write per value, no
 * hashing or string comparison).
 *
 * <p>Stateless; the calling thread must not be one of the pool's workers, and nothing else may touch the builder or
 * the codes meanwhile.
 */
final class FreeTextCollapse {

    /** Values per range of a task that hashes or maps codes: fewer are not worth a task. */
    private static final int MIN_RANGE = 1 << 16;

    /** Values per part of a hash shard, looked up in a table of their own (a few tens of KB). */
    private static final int PART = 2048;

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
            } else if (first[i] == 0) {
                distinct[count] = values[i];
                remap[i] = count++;
            } else {
                remap[i] = remap[first[i] - 1];
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
     * For every value of hash shard {@code shard} (the top {@code shardBits} bits of its mixed hash) that repeats an
     * earlier value, the first code of that value + 1 into {@code first}; a value's first occurrence leaves its 0. The
     * shard's values, as (hash, code) pairs in code order, are spread by the next bits of the mixed hash into parts of
     * about {@link #PART} values (a stable counting sort), and each part is looked up in an open-addressing table of
     * its own, small enough to stay in cache: no lookup misses it, only the comparison of equal hashes reads values.
     */
    private static void firstCodes(
            String[] values, int[] hashes, int size, int nullCode, int shard, int shardBits, int[] first) {
        long[] pairs = shardPairs(hashes, size, nullCode, shard, shardBits);
        int partBits = Math.max(0, 32 - Integer.numberOfLeadingZeros((pairs.length - 1) / PART));
        int[] starts = new int[(1 << partBits) + 1];
        long[] parted = partsOf(pairs, shardBits, partBits, starts);
        int largest = 0;
        for (int p = 0; p < starts.length - 1; p++) {
            largest = Math.max(largest, starts[p + 1] - starts[p]);
        }
        // each part's table at most half full: its slots hold the hash (high half) and the first code + 1 (low half)
        long[] slots = new long[Math.max(16, Integer.highestOneBit(Math.max(1, largest)) * 4)];
        for (int p = 0; p < starts.length - 1; p++) {
            int mask = Math.max(16, Integer.highestOneBit(Math.max(1, starts[p + 1] - starts[p])) * 4) - 1;
            java.util.Arrays.fill(slots, 0, mask + 1, 0L);
            for (int k = starts[p]; k < starts[p + 1]; k++) {
                long pair = parted[k];
                int h = (int) (pair >>> 32);
                int i = (int) pair;
                int x = h * 0x9E3779B9;
                int slot = (x ^ (x >>> 16)) & mask;
                boolean repeat = false;
                for (long s = slots[slot]; s != 0; s = slots[slot]) {
                    if ((int) (s >>> 32) == h && values[(int) s - 1].equals(values[i])) {
                        first[i] = (int) s;
                        repeat = true;
                        break;
                    }
                    slot = (slot + 1) & mask;
                }
                if (!repeat) {
                    slots[slot] = (pair & 0xFFFF_FFFF_0000_0000L) | ((i + 1) & 0xFFFF_FFFFL);
                }
            }
        }
    }

    /**
     * The (hash, code) pairs of shard {@code shard}'s values (the null code's left out), in code order: one pass over
     * the hashes, into room for the shard's even share and an eighth more.
     */
    private static long[] shardPairs(int[] hashes, int size, int nullCode, int shard, int shardBits) {
        int share = size >>> shardBits;
        long[] pairs = new long[share + (share >>> 3) + 64];
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (i != nullCode && inShard(hashes[i], shard, shardBits)) {
                if (n == pairs.length) {
                    pairs = java.util.Arrays.copyOf(pairs, pairs.length * 2);
                }
                pairs[n++] = ((long) hashes[i] << 32) | i;
            }
        }
        return java.util.Arrays.copyOf(pairs, n);
    }

    private static boolean inShard(int hash, int shard, int shardBits) {
        return shardBits == 0 || (hash * 0x9E3779B9) >>> (32 - shardBits) == shard;
    }

    /**
     * {@code pairs} ordered by part (the {@code partBits} bits of the mixed hash below the shard's), code order kept
     * within a part; part {@code p} is {@code [starts[p], starts[p + 1])} of the result.
     */
    private static long[] partsOf(long[] pairs, int shardBits, int partBits, int[] starts) {
        if (partBits == 0) {
            starts[1] = pairs.length;
            return pairs;
        }
        int[] next = new int[starts.length];
        for (long pair : pairs) {
            next[partOf(pair, shardBits, partBits) + 1]++;
        }
        for (int p = 1; p < next.length; p++) {
            next[p] += next[p - 1];
        }
        System.arraycopy(next, 0, starts, 0, next.length);
        long[] parted = new long[pairs.length];
        for (long pair : pairs) {
            parted[next[partOf(pair, shardBits, partBits)]++] = pair;
        }
        return parted;
    }

    private static int partOf(long pair, int shardBits, int partBits) {
        return ((int) (pair >>> 32) * 0x9E3779B9) << shardBits >>> (32 - partBits);
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
