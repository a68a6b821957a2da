package io.numacube.engine.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TextOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** First-seen coding and the sorted dictionary, against sorting the distinct values directly. */
class DictionaryBuilderTest {

    @Test
    void stringsGetFirstSeenCodesAndSortByTextOrderWithNullLast() {
        Random r = new Random(1);
        String[] words = {"", "a", "ab", "abc", "ab\u0000", "\uE000", "\uD83D\uDE00", "z", "\uFFFF"};
        DictionaryBuilder b = new DictionaryBuilder(ColumnType.STRING);
        List<String> firstSeen = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            if (i == 777) {
                assertEquals(firstSeen.size(), b.nullCode());
                firstSeen.add(null);
            }
            String s = words[r.nextInt(words.length)] + words[r.nextInt(words.length)] + r.nextInt(300);
            int code = b.codeOf(s);
            if (code == firstSeen.size()) {
                firstSeen.add(s);
            }
            assertEquals(s, firstSeen.get(code));
        }
        assertEquals(firstSeen.size(), b.size());
        DictionaryBuilder.Sorted sorted = b.buildSorted();
        String[] expected = firstSeen.stream()
                .filter(s -> s != null)
                .sorted(TextOrder::compare)
                .toArray(String[]::new);
        Dictionary d = sorted.dictionary();
        assertEquals(expected.length + 1, d.size());
        assertEquals(expected.length, d.nullCode());
        for (int k = 0; k < expected.length; k++) {
            assertEquals(expected[k], d.string(k));
        }
        for (int code = 0; code < firstSeen.size(); code++) {
            int to = sorted.remap()[code];
            assertEquals(firstSeen.get(code) == null, d.isNull(to));
            if (firstSeen.get(code) != null) {
                assertEquals(firstSeen.get(code), d.string(to));
            }
        }
    }

    @Test
    void stringsWithTheSameHashGetTheirOwnCodes() {
        DictionaryBuilder b = new DictionaryBuilder(ColumnType.STRING);
        assertEquals("Aa".hashCode(), "BB".hashCode());
        int aa = b.codeOf("Aa");
        int bb = b.codeOf("BB");
        assertNotEquals(aa, bb);
        for (int i = 0; i < 1_000; i++) {
            b.codeOf("k" + i);
        }
        assertEquals(aa, b.codeOf("Aa"));
        assertEquals(bb, b.codeOf("BB"));
        assertEquals(1_002, b.size());
    }

    @Test
    void longsSortNumericallyWithNullLast() {
        Random r = new Random(2);
        DictionaryBuilder b = new DictionaryBuilder(ColumnType.INT);
        List<Long> firstSeen = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            long v = i % 3 == 0 ? r.nextLong() : r.nextInt(2_000) - 1_000;
            if (b.codeOf(v) == firstSeen.size()) {
                firstSeen.add(v);
            }
            if (i == 5) {
                b.nullCode();
                firstSeen.add(null);
            }
        }
        DictionaryBuilder.Sorted sorted = b.buildSorted();
        long[] expected = firstSeen.stream()
                .filter(v -> v != null)
                .mapToLong(Long::longValue)
                .sorted()
                .toArray();
        Dictionary d = sorted.dictionary();
        assertEquals(expected.length, d.nullCode());
        for (int k = 0; k < expected.length; k++) {
            assertEquals(expected[k], d.longValue(k));
        }
        for (int code = 0; code < firstSeen.size(); code++) {
            int to = sorted.remap()[code];
            if (firstSeen.get(code) == null) {
                assertTrue(d.isNull(to));
            } else {
                assertEquals(firstSeen.get(code), d.longValue(to));
            }
        }
    }

    @Test
    void addAllKeepsTheOtherFirstSeenOrder() {
        DictionaryBuilder block = new DictionaryBuilder(ColumnType.STRING);
        for (String s : List.of("c", "a", "c", "b")) {
            block.codeOf(s);
        }
        block.nullCode();
        DictionaryBuilder all = new DictionaryBuilder(ColumnType.STRING);
        all.codeOf("b");
        int[] map = all.addAll(block);
        assertArrayEquals(new int[] {1, 2, 0, 3}, map);
        DictionaryBuilder.Sorted sorted = all.buildSorted();
        assertArrayEquals(new int[] {1, 2, 0, 3}, sorted.remap());
        assertTrue(sorted.dictionary().isNull(3));
    }

    @Test
    void integersGetFirstSeenCodesWhetherTheirRangeIsDenseSparseOrAtTheEndsOfLong() {
        // dense keys (held in a direct array), then keys that widen the range on both sides, then sparse and extreme
        // keys (which turn the map into a hash table): every value keeps its first code, as a HashMap would give it
        long seed = System.nanoTime();
        Random r = new Random(seed);
        DictionaryBuilder b = new DictionaryBuilder(ColumnType.INT);
        java.util.Map<Long, Integer> expected = new java.util.HashMap<>();
        List<Long> values = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            values.add(1000L + r.nextInt(5000));
        }
        for (int i = 0; i < 5_000; i++) {
            values.add(-3000L + r.nextInt(20_000));
        }
        for (int i = 0; i < 5_000; i++) {
            values.add(i % 3 == 0 ? r.nextLong() : 1000L + r.nextInt(5000));
        }
        values.addAll(List.of(Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, 0L, -1L));
        for (long v : values) {
            int code = b.codeOf(v);
            Integer before = expected.putIfAbsent(v, expected.size());
            assertEquals(before == null ? expected.size() - 1 : before, code, "value " + v + " seed=" + seed);
        }
        for (var e : expected.entrySet()) {
            assertEquals(e.getValue(), b.find(e.getKey()), "find " + e.getKey() + " seed=" + seed);
        }
        assertEquals(-1, b.find(123_456_789_012L), "seed=" + seed);
        DictionaryBuilder extremes = new DictionaryBuilder(ColumnType.INT);
        assertEquals(0, extremes.codeOf(Long.MAX_VALUE));
        assertEquals(1, extremes.codeOf(Long.MIN_VALUE));
        assertEquals(2, extremes.codeOf(0));
        assertEquals(0, extremes.codeOf(Long.MAX_VALUE));
        assertEquals(-1, extremes.find(Long.MAX_VALUE - 1));
    }
}
