package io.numacube.engine.schema;

/**
 * Sorts a range of {@code long} keys ascending (signed) and moves a parallel {@code int} array along with them: a
 * three-way quicksort (runs of equal keys are common in {@link TextSort}'s windows), insertion sort for short ranges,
 * heapsort once the partitions go too deep, so O(n log n) at worst. Not stable. Stateless.
 */
public final class PairQuicksort {

    private static final int SMALL = 24;

    private PairQuicksort() {}

    /** Sorts {@code keys[from..to)} and applies the same moves to {@code values[from..to)}. */
    public static void sort(long[] keys, int[] values, int from, int to) {
        sort(keys, values, from, to, 2 * (32 - Integer.numberOfLeadingZeros(to - from + 1)));
    }

    /** As {@link #sort(long[], int[], int, int)}, going over to heapsort after {@code depthLeft} partitions. */
    static void sort(long[] keys, int[] values, int lo, int hi, int depthLeft) {
        while (hi - lo > SMALL) {
            if (depthLeft-- == 0) {
                heapsort(keys, values, lo, hi);
                return;
            }
            long pivot = medianOfThree(keys[lo], keys[(lo + hi) >>> 1], keys[hi - 1]);
            int lt = lo;
            int gt = hi;
            int i = lo;
            while (i < gt) {
                long k = keys[i];
                if (k < pivot) {
                    swap(keys, values, lt++, i++);
                } else if (k > pivot) {
                    swap(keys, values, i, --gt);
                } else {
                    i++;
                }
            }
            if (lt - lo < hi - gt) {
                sort(keys, values, lo, lt, depthLeft);
                lo = gt;
            } else {
                sort(keys, values, gt, hi, depthLeft);
                hi = lt;
            }
        }
        insertionSort(keys, values, lo, hi);
    }

    private static long medianOfThree(long a, long b, long c) {
        return a < b ? (b < c ? b : Math.max(a, c)) : (a < c ? a : Math.max(b, c));
    }

    private static void insertionSort(long[] keys, int[] values, int lo, int hi) {
        for (int i = lo + 1; i < hi; i++) {
            long k = keys[i];
            int v = values[i];
            int j = i - 1;
            while (j >= lo && keys[j] > k) {
                keys[j + 1] = keys[j];
                values[j + 1] = values[j];
                j--;
            }
            keys[j + 1] = k;
            values[j + 1] = v;
        }
    }

    private static void heapsort(long[] keys, int[] values, int lo, int hi) {
        int n = hi - lo;
        for (int i = n / 2 - 1; i >= 0; i--) {
            siftDown(keys, values, lo, i, n);
        }
        for (int last = n - 1; last > 0; last--) {
            swap(keys, values, lo, lo + last);
            siftDown(keys, values, lo, 0, last);
        }
    }

    private static void siftDown(long[] keys, int[] values, int lo, int root, int n) {
        while (2 * root + 1 < n) {
            int child = 2 * root + 1;
            if (child + 1 < n && keys[lo + child + 1] > keys[lo + child]) {
                child++;
            }
            if (keys[lo + root] >= keys[lo + child]) {
                return;
            }
            swap(keys, values, lo + root, lo + child);
            root = child;
        }
    }

    private static void swap(long[] keys, int[] values, int i, int j) {
        long k = keys[i];
        keys[i] = keys[j];
        keys[j] = k;
        int v = values[i];
        values[i] = values[j];
        values[j] = v;
    }
}
