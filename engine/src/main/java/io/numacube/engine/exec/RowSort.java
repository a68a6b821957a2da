package io.numacube.engine.exec;

/**
 * Sorts result row numbers held in an {@code int[]} by an order on rows, without boxing them: a stable merge sort of
 * the whole array, and the first {@code n} rows through a bounded binary heap. The order must be total where the
 * caller relies on a unique answer (ORDER BY's orders break ties by row number); the merge sort is stable anyway.
 * Stateless.
 */
final class RowSort {

    private RowSort() {}

    /** Natural runs shorter than this are extended to it by insertion. */
    private static final int MIN_RUN = 32;

    /** A total or partial order on row numbers: negative where {@code x} comes before {@code y}. */
    @FunctionalInterface
    interface RowOrder {
        int compare(int x, int y);
    }

    /**
     * Sorts {@code rows} in place by {@code order}, equal rows kept in their input order: a natural merge sort (runs
     * already in order, or strictly against it and reversed, are found first, so rows that arrive nearly sorted, as
     * groups by their keys do, cost about one comparison each), runs shorter than {@link #MIN_RUN} extended by
     * insertion, then merged pairwise.
     */
    static void sort(int[] rows, RowOrder order) {
        int n = rows.length;
        if (n < 2) {
            return;
        }
        int[] starts = new int[n / MIN_RUN + 2];
        int runs = 0;
        for (int from = 0; from < n; ) {
            int until = runEnd(rows, from, order);
            int wanted = Math.min(n, from + MIN_RUN);
            if (until < wanted) {
                insertionSort(rows, from, wanted, order);
                until = wanted;
            }
            starts[runs++] = from;
            from = until;
        }
        starts[runs] = n;
        int[] src = rows;
        int[] dst = new int[n];
        while (runs > 1) {
            int merged = 0;
            for (int r = 0; r < runs; r += 2) {
                int from = starts[r];
                int mid = starts[Math.min(r + 1, runs)];
                int until = starts[Math.min(r + 2, runs)];
                merge(src, dst, from, mid, until, order);
                starts[merged++] = from;
            }
            starts[merged] = n;
            runs = merged;
            int[] t = src;
            src = dst;
            dst = t;
        }
        if (src != rows) {
            System.arraycopy(src, 0, rows, 0, n);
        }
    }

    /** The end of the run that starts at {@code from}: rows in order, or strictly against it (then reversed). */
    private static int runEnd(int[] a, int from, RowOrder order) {
        int end = from + 1;
        if (end == a.length) {
            return end;
        }
        if (order.compare(a[end], a[from]) < 0) {
            while (end + 1 < a.length && order.compare(a[end + 1], a[end]) < 0) {
                end++;
            }
            reverse(a, from, end);
        } else {
            while (end + 1 < a.length && order.compare(a[end + 1], a[end]) >= 0) {
                end++;
            }
        }
        return end + 1;
    }

    private static void reverse(int[] a, int from, int last) {
        for (int i = from, j = last; i < j; i++, j--) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    /**
     * Merges the sorted {@code src[from, mid)} and {@code src[mid, until)} into {@code dst[from, until)}, stably; two
     * runs that do not overlap (the second wholly before the first, as groups ordered against their keys' order come)
     * are copied in one step each.
     */
    private static void merge(int[] src, int[] dst, int from, int mid, int until, RowOrder order) {
        if (mid == until || order.compare(src[mid - 1], src[mid]) <= 0) {
            System.arraycopy(src, from, dst, from, until - from);
            return;
        }
        if (order.compare(src[until - 1], src[from]) < 0) {
            System.arraycopy(src, mid, dst, from, until - mid);
            System.arraycopy(src, from, dst, from + until - mid, mid - from);
            return;
        }
        int i = from;
        int j = mid;
        for (int k = from; k < until; k++) {
            if (j >= until || i < mid && order.compare(src[i], src[j]) <= 0) {
                dst[k] = src[i++];
            } else {
                dst[k] = src[j++];
            }
        }
    }

    private static void insertionSort(int[] a, int from, int until, RowOrder order) {
        for (int i = from + 1; i < until; i++) {
            int v = a[i];
            int j = i - 1;
            while (j >= from && order.compare(a[j], v) > 0) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = v;
        }
    }

    /**
     * The first {@code n} of {@code rows} by {@code order} (a total order), sorted: a max-heap of the best {@code n}
     * seen so far, whose top a later row replaces where it comes before it.
     */
    static int[] first(int[] rows, RowOrder order, int n) {
        if (n <= 0) {
            return new int[0];
        }
        if (n >= rows.length) {
            int[] all = rows.clone();
            sort(all, order);
            return all;
        }
        int[] heap = new int[n];
        int size = 0;
        for (int r : rows) {
            if (size < n) {
                heap[size] = r;
                siftUp(heap, size++, order);
            } else if (order.compare(r, heap[0]) < 0) {
                heap[0] = r;
                siftDown(heap, n, order);
            }
        }
        sort(heap, order);
        return heap;
    }

    private static void siftUp(int[] heap, int at, RowOrder order) {
        int v = heap[at];
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (order.compare(heap[parent], v) >= 0) {
                break;
            }
            heap[at] = heap[parent];
            at = parent;
        }
        heap[at] = v;
    }

    private static void siftDown(int[] heap, int size, RowOrder order) {
        int v = heap[0];
        int at = 0;
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && order.compare(heap[child + 1], heap[child]) > 0) {
                child++;
            }
            if (order.compare(heap[child], v) <= 0) {
                break;
            }
            heap[at] = heap[child];
            at = child;
        }
        heap[at] = v;
    }
}
