package io.numacube.engine.schema;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link TextSort} against sorting the same strings with {@link TextOrder#compare(String, String)}. */
class TextSortTest {

    private static final String EMOJI = "\uD83D\uDE00";
    private static final String[] UNITS = {
        "",
        "\u0000",
        "a",
        "b",
        "z",
        "\u00E9",
        "\u07FF",
        "\uD7FF",
        "\uE000",
        "\uFFFF",
        "\uFFFD",
        EMOJI,
        "\uD800\uDC00",
        "\uDBFF\uDFFF"
    };

    @Test
    void emptyAndSingle() {
        assertSortsLikeTextOrder(List.of());
        assertSortsLikeTextOrder(List.of("x"));
    }

    @Test
    void prefixesOfEachOther() {
        List<String> values = new ArrayList<>();
        for (String base : List.of("", "a", "ab", "abc", "ab\u0000", "ab\u0000\u0000", "abcd", "abd", "aa")) {
            for (int i = 0; i < 6; i++) {
                values.add(base + "x".repeat(i));
                values.add(base + "\u0000".repeat(i));
            }
        }
        assertSortsLikeTextOrder(distinct(values));
    }

    @Test
    void supplementaryCharactersSortAfterPrivateUseAndFullWidthForms() {
        List<String> values = new ArrayList<>();
        Random r = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            values.add(randomString(r, UNITS, 7));
        }
        List<String> shuffled = distinct(values);
        assertSortsLikeTextOrder(shuffled);
        String[] strings = shuffled.toArray(String[]::new);
        int[] codes = identity(strings.length);
        TextSort.sort(strings, codes);
        String[] byCodePoints = strings.clone();
        Arrays.sort(
                byCodePoints,
                (a, b) ->
                        Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray()));
        assertArrayEquals(byCodePoints, byCode(strings, codes));
    }

    @Test
    void longSharedPrefixes() {
        Random r = new Random(11);
        List<String> values = new ArrayList<>();
        for (String prefix : List.of("p".repeat(1_000), "p".repeat(999) + EMOJI, "q".repeat(300))) {
            for (int i = 0; i < 300; i++) {
                values.add(prefix + randomString(r, UNITS, 5));
            }
        }
        assertSortsLikeTextOrder(distinct(values));
    }

    @Test
    void unpairedSurrogatesSortByTheUnitAsTextOrderDoes() {
        String[] units = {"a", "b", "\uD800", "\uDBFF", "\uDC00", "\uE000", "\uFFFF"};
        Random r = new Random(3);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            String s = (i % 2 == 0 ? "" : "shared prefix ") + randomString(r, units, 6);
            if (!hasSupplementary(s)) {
                values.add(s);
            }
        }
        assertSortsLikeTextOrder(distinct(values));
    }

    @Test
    void manyStringsFromASmallAlphabet() {
        Random r = new Random(42);
        String[] units = {"a", "b", "c", "\uE000", EMOJI, ""};
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            values.add(randomString(r, units, 4 + r.nextInt(20)));
        }
        assertSortsLikeTextOrder(distinct(values));
    }

    @Test
    void charsAroundTheNarrowWindowLimitAndWideCharsDeepInLongStrings() {
        Random r = new Random(13);
        String[] units = {"a", "b", "\u00FF", "\u0100", "\u01FE", "\u01FF", "\u0200", "\uFFFF", EMOJI};
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            String head = i % 3 == 0 ? "" : "abcdefghijklmnopqrstu".substring(0, r.nextInt(22));
            values.add(head + randomString(r, units, 1 + r.nextInt(12)));
        }
        assertSortsLikeTextOrder(distinct(values));
    }

    @Test
    void everyCharNextToItsNeighboursAndShorterStrings() {
        for (int[] chars : new int[][] {{0, 0x200}, {0, 0x300}, {0xD700, 0x10000}}) {
            List<String> values = new ArrayList<>(List.of("a", "b"));
            for (int c = chars[0]; c < chars[1]; c++) {
                values.add(String.valueOf((char) c));
                for (String p : List.of("a", "b")) {
                    values.add(p + (char) c);
                    values.add(p + (char) c + "a");
                }
            }
            assertSortsLikeTextOrder(values);
            assertSortsLikeTextOrder(values.reversed());
        }
    }

    @Test
    void duplicatesEndUpAdjacent() {
        Random r = new Random(5);
        String[] strings = new String[5_000];
        for (int i = 0; i < strings.length; i++) {
            strings[i] = randomString(r, new String[] {"a", "b", EMOJI}, 3);
        }
        int[] codes = identity(strings.length);
        TextSort.sort(strings, codes);
        String[] expected = strings.clone();
        Arrays.sort(expected, TextOrder::compare);
        assertArrayEquals(expected, byCode(strings, codes));
        int[] sortedCodes = codes.clone();
        Arrays.sort(sortedCodes);
        assertArrayEquals(identity(strings.length), sortedCodes);
    }

    @Test
    void codesMayLeaveOutSomeStrings() {
        String[] strings = {"d", null, "b", "c", "a", null};
        int[] codes = {0, 2, 3, 4};
        TextSort.sort(strings, codes);
        assertArrayEquals(new int[] {4, 2, 3, 0}, codes);
    }

    private static void assertSortsLikeTextOrder(List<String> values) {
        String[] strings = values.toArray(String[]::new);
        int[] codes = identity(strings.length);
        TextSort.sort(strings, codes);
        String[] expected = strings.clone();
        Arrays.sort(expected, TextOrder::compare);
        assertArrayEquals(expected, byCode(strings, codes));
    }

    private static String randomString(Random r, String[] units, int maxUnits) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(maxUnits + 1);
        for (int i = 0; i < n; i++) {
            sb.append(units[r.nextInt(units.length)]);
        }
        return sb.toString();
    }

    private static boolean hasSupplementary(String s) {
        return s.codePoints().anyMatch(Character::isSupplementaryCodePoint);
    }

    private static List<String> distinct(List<String> values) {
        List<String> out = new ArrayList<>(new LinkedHashSet<>(values));
        Collections.shuffle(out, new Random(1));
        return out;
    }

    private static int[] identity(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    private static String[] byCode(String[] strings, int[] codes) {
        String[] out = new String[codes.length];
        for (int i = 0; i < codes.length; i++) {
            out[i] = strings[codes[i]];
        }
        return out;
    }
}
