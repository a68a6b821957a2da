package io.numacube.engine.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link RowSort} against the JDK's stable sort of boxed rows ({@code Stream.sorted}): sizes around the insertion
 * runs and the heap's bounds, few and many distinct keys (ties must keep the input order), already sorted and reversed
 * input, row numbers not in order, and the first n for n of 0, 1, some, all and more than all.
 */
class RowSortTest {

    private static int[] expected(int[] rows, Comparator<Integer> order, int n) {
        return Arrays.stream(rows)
                .boxed()
                .sorted(order)
                .limit(n)
                .mapToInt(Integer::intValue)
                .toArray();
    }

    private static void check(int[] rows, long[] keys) {
        Comparator<Integer> partial = Comparator.comparingLong(r -> keys[r]);
        RowSort.RowOrder byKey = (x, y) -> Long.compare(keys[x], keys[y]);
        int[] sorted = rows.clone();
        RowSort.sort(sorted, byKey);
        assertArrayEquals(expected(rows, partial, rows.length), sorted, "stable sort of " + rows.length);
        RowSort.RowOrder total = (x, y) -> {
            int c = Long.compare(keys[y], keys[x]);
            return c != 0 ? c : Integer.compare(x, y);
        };
        Comparator<Integer> totalBoxed = (x, y) -> total.compare(x, y);
        for (int n : new int[] {0, 1, 3, rows.length / 4, rows.length - 1, rows.length, rows.length + 5}) {
            if (n < 0) {
                continue;
            }
            int[] first = RowSort.first(rows, total, n);
            assertArrayEquals(expected(rows, totalBoxed, n), first, "first " + n + " of " + rows.length);
        }
    }

    @Test
    void sortsLikeAStableSortOfBoxedRows() {
        Random random = new Random(42);
        for (int size : new int[] {0, 1, 2, 23, 24, 25, 47, 48, 100, 1000, 20_000}) {
            for (int distinct : new int[] {1, 3, 1000, Integer.MAX_VALUE}) {
                long[] keys = new long[size];
                for (int r = 0; r < size; r++) {
                    keys[r] = distinct == Integer.MAX_VALUE ? random.nextLong() : random.nextInt(distinct) - 1;
                }
                int[] rows = IntStream.range(0, size).toArray();
                check(rows, keys);
                int[] shuffled = rows.clone();
                for (int i = size - 1; i > 0; i--) {
                    int j = random.nextInt(i + 1);
                    int t = shuffled[i];
                    shuffled[i] = shuffled[j];
                    shuffled[j] = t;
                }
                check(shuffled, keys);
            }
        }
    }

    @Test
    void sortedAndReversedInput() {
        int size = 5000;
        long[] ascending = keys(size, false);
        long[] descending = keys(size, true);
        int[] rows = IntStream.range(0, size).toArray();
        check(rows, ascending);
        check(rows, descending);
        int[] sorted = rows.clone();
        RowSort.sort(sorted, (x, y) -> Long.compare(descending[x], descending[y]));
        assertEquals(size - 1, sorted[0]);
        assertEquals(0, sorted[size - 1]);
    }

    private static long[] keys(int size, boolean reversed) {
        long[] keys = new long[size];
        for (int r = 0; r < size; r++) {
            keys[r] = reversed ? size - r : r;
        }
        return keys;
    }
}
