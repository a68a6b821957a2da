package io.numacube.engine.schema;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;

/** {@link PairQuicksort} against {@link Arrays#sort(long[])}, with each value still beside its key. */
class PairQuicksortTest {

    private static final int DEEP = Integer.MAX_VALUE;

    @Test
    void sortsKeysAndCarriesValues() {
        Random r = new Random(9);
        int n = 10_000;
        check(n, i -> r.nextLong(), DEEP);
        check(n, i -> r.nextInt(5), DEEP);
        check(n, i -> i, DEEP);
        check(n, i -> n - i, DEEP);
        check(n, i -> Math.min(i, n - i), DEEP);
        check(n, i -> 7, DEEP);
        check(n, i -> i % 2 == 0 ? Long.MIN_VALUE : Long.MAX_VALUE, DEEP);
    }

    @Test
    void heapsortTakesOverWhenPartitionsGoTooDeep() {
        Random r = new Random(10);
        check(5_000, i -> r.nextLong(), 0);
        check(5_000, i -> r.nextInt(3), 0);
        check(5_000, i -> i, 1);
    }

    @Test
    void sortsOnlyTheRange() {
        long[] keys = {9, 5, 3, 1, 0};
        int[] values = {0, 1, 2, 3, 4};
        PairQuicksort.sort(keys, values, 1, 4);
        assertArrayEquals(new long[] {9, 1, 3, 5, 0}, keys);
        assertArrayEquals(new int[] {0, 3, 2, 1, 4}, values);
    }

    private static void check(int n, IntToLongFunction key, int depthLeft) {
        long[] keys = new long[n];
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            keys[i] = key.applyAsLong(i);
            values[i] = i;
        }
        long[] original = keys.clone();
        PairQuicksort.sort(keys, values, 0, n, depthLeft);
        long[] expected = original.clone();
        Arrays.sort(expected);
        assertArrayEquals(expected, keys);
        boolean[] seen = new boolean[n];
        for (int i = 0; i < n; i++) {
            assertEquals(original[values[i]], keys[i]);
            seen[values[i]] = true;
        }
        for (boolean s : seen) {
            assertTrue(s);
        }
    }
}
