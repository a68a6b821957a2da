package io.numacube.engine.exec;

/**
 * Sorts result row numbers held in an {@code int[]} by an order on rows, without boxing them: a stable merge sort of
 * the whole array, and the first {@code n} rows through a bounded binary heap. The order must be total where the
 * caller relies on a unique answer (ORDER BY's orders break ties by row number); the merge sort is stable anyway.
 * Stateless.
 */
final class RowSort {

    private RowSort() {}

    /** Runs shorter than this are sorted by insertion. */
    private static final int INSERTION_RUN = 24;

    /** A total or partial order on row numbers: negative where {@code x} comes before {@code y}. */
    @FunctionalInterface
    interface RowOrder {
        int compare(int x, int y);
    }

    /** Sorts {@code rows} in place by {@code order}, equal rows kept in their input order. */
    static void sort(int[] rows, RowOrder order) {
        if (rows.length < 2) {
            return;
        }
        int[] scratch = rows.clone();
        mergeSort(scratch, rows, 0, rows.length, order);
    }

    /** Sorts {@code to[from, until)} by {@code order}; {@code from} holds the same values as {@code to} there. */
    private static void mergeSort(int[] src, int[] dst, int from, int until, RowOrder order) {
        if (until - from < INSERTION_RUN) {
            insertionSort(dst, from, until, order);
            return;
        }
        int mid = (from + until) >>> 1;
        mergeSort(dst, src, from, mid, order);
        mergeSort(dst, src, mid, until, order);
        if (order.compare(src[mid - 1], src[mid]) <= 0) {
            System.arraycopy(src, from, dst, from, until - from);
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
