package io.numacube.engine.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.schema.ColumnType;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Dictionary#subsetOfKept} against {@link Dictionary#subset}, the codes mapped as the key compaction maps them. */
class DictionarySubsetOfKeptTest {

    @Test
    void givesTheSubsetsValuesNullAndCodes() {
        Random r = new Random(21);
        for (int round = 0; round < 400; round++) {
            int size = r.nextInt(300);
            boolean withNull = r.nextBoolean();
            boolean strings = r.nextInt(3) == 0;
            Dictionary d = strings ? strings(size, withNull) : longs(r, size, withNull);
            boolean[] keep = new boolean[d.size()];
            int density = 1 + r.nextInt(8);
            for (int c = 0; c < keep.length; c++) {
                keep[c] = r.nextInt(density) == 0;
            }
            int[] below = new int[keep.length + 1];
            for (int c = 0; c < keep.length; c++) {
                below[c + 1] = below[c] + (keep[c] ? 1 : 0);
            }
            int[] newCode = new int[d.size()];
            Dictionary expected = d.subset(keep, newCode);
            int[] map = new int[d.size()];
            Dictionary got = d.subsetOfKept(keep, below[keep.length], map);
            String where = "round " + round + " size " + d.size() + " null " + withNull;
            assertEquals(expected.size(), got.size(), where);
            assertEquals(expected.nullCode(), got.nullCode(), where);
            assertTrue(expected.sameValues(got), where);
            for (int c = 0; c < got.size(); c++) {
                assertEquals(expected.value(c), got.value(c), where + " code " + c);
            }
            int[] expectedMap = new int[d.size()];
            for (int c = 0; c < d.size(); c++) {
                expectedMap[c] = Math.max(0, newCode[c]);
            }
            assertArrayEquals(expectedMap, map, where);
            int[] keptCodes = new int[below[keep.length] + 1];
            d.subsetOfKept(keep, below[keep.length], new int[d.size()], keptCodes);
            for (int c = 0; c < d.size(); c++) {
                if (keep[c]) {
                    assertEquals(c, keptCodes[newCode[c]], where + " kept code of " + newCode[c]);
                }
            }
        }
    }

    @Test
    void refusesMarksThatDoNotCoverEveryCode() {
        Dictionary d = Dictionary.ofLongs(ColumnType.INT, new long[] {1, 2, 3}, false);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> d.subsetOfKept(new boolean[2], 0, new int[3]));
        assertEquals(
                "subsetOfKept needs NULL last and a mark per code: size=3 nullCode=-1 marks=2 kept=0", e.getMessage());
    }

    @Test
    void refusesAKeptCountOtherThanTheMarks() {
        Dictionary d = Dictionary.ofLongs(ColumnType.INT, new long[] {1, 2, 3}, false);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> d.subsetOfKept(new boolean[] {true, true, true}, 1, new int[3]));
        assertEquals("subsetOfKept: the marks count other than kept: kept=1 marked=3", e.getMessage());
    }

    private static Dictionary longs(Random r, int size, boolean withNull) {
        long[] v = new long[size];
        long x = r.nextInt(100) - 50;
        for (int i = 0; i < size; i++) {
            x += 1 + r.nextInt(5);
            v[i] = x;
        }
        return Dictionary.ofLongs(ColumnType.INT, v, withNull);
    }

    private static Dictionary strings(int size, boolean withNull) {
        String[] v = new String[size];
        for (int i = 0; i < size; i++) {
            v[i] = String.format("s%05d", i);
        }
        return Dictionary.ofStrings(v, withNull);
    }
}
