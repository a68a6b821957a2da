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
}
