package io.numacube.engine.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.schema.ColumnType;
import java.util.Arrays;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@link Dictionary#codesOfAscending} against a binary search per value. */
class DictionaryCodesOfAscendingTest {

    @Test
    void findsEveryValuesCodeAsABinarySearchDoes() {
        Random r = new Random(16);
        for (int round = 0; round < 300; round++) {
            TreeSet<Long> distinct = new TreeSet<>();
            long v = r.nextInt(50) - 25;
            int size = r.nextInt(400);
            for (int i = 0; i < size; i++) {
                // dense runs (a subquery's order keys) and gaps; every third dictionary without a gap (TPC-H's keys)
                v += round % 3 != 0 && r.nextInt(4) == 0 ? 1 + r.nextInt(100) : 1;
                distinct.add(v);
            }
            long[] sorted = distinct.stream().mapToLong(Long::longValue).toArray();
            boolean withNull = r.nextBoolean();
            Dictionary d = Dictionary.ofLongs(ColumnType.INT, sorted, withNull);
            assertTrue(d.searchable());
            long[] values = values(r, sorted);
            int[] out = new int[values.length];
            d.codesOfAscending(values, values.length, out);
            for (int i = 0; i < values.length; i++) {
                int at = Arrays.binarySearch(sorted, values[i]);
                assertEquals(at >= 0 ? at : -1, out[i], "value " + values[i] + " at " + i + " of round " + round);
            }
            // a range of the values, looked up on its own, finds the same codes
            int from = values.length == 0 ? 0 : r.nextInt(values.length);
            int to = from + r.nextInt(values.length - from + 1);
            int[] part = new int[to - from];
            d.codesOfAscending(values, from, to, part);
            assertArrayEquals(Arrays.copyOfRange(out, from, to), part, "range " + from + ".." + to);
        }
    }

    @Test
    void findsNoCodeForValuesBeyondAGaplessDictionaryEvenAtTheEndsOfLong() {
        long top = Long.MAX_VALUE;
        Dictionary high = Dictionary.ofLongs(ColumnType.TIMESTAMP, new long[] {top - 2, top - 1, top}, true);
        long[] values = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, top - 3, top - 2, top};
        int[] out = new int[values.length];
        high.codesOfAscending(values, values.length, out);
        assertArrayEquals(new int[] {-1, -1, -1, -1, -1, 0, 2}, out);
        Dictionary low =
                Dictionary.ofLongs(ColumnType.TIMESTAMP, new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1}, false);
        long[] lowValues = {Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MIN_VALUE + 2, 0, top};
        int[] lowOut = new int[lowValues.length];
        low.codesOfAscending(lowValues, lowValues.length, lowOut);
        assertArrayEquals(new int[] {0, 1, -1, -1, -1}, lowOut);
    }

    /** Ascending values, with repeats, values between and beyond the dictionary's, and runs of its own values. */
    private static long[] values(Random r, long[] sorted) {
        int n = r.nextInt(500);
        long[] values = new long[n];
        long lo = sorted.length == 0 ? 0 : sorted[0] - 3;
        long hi = sorted.length == 0 ? 10 : sorted[sorted.length - 1] + 3;
        for (int i = 0; i < n; i++) {
            values[i] = r.nextInt(3) == 0 && sorted.length > 0
                    ? sorted[r.nextInt(sorted.length)]
                    : lo + (long) (r.nextDouble() * (hi - lo + 1));
        }
        Arrays.sort(values);
        return values;
    }
}
