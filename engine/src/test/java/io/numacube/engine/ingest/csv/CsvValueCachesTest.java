package io.numacube.engine.ingest.csv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CsvValueCachesTest {

    private static final TableSchema T = new TableSchema(
            "t",
            List.of(
                    new ColumnSpec("id", ColumnType.LONG),
                    new ColumnSpec("cp", ColumnType.STRING),
                    new ColumnSpec("desk", ColumnType.STRING)));

    /** Counterparty names: many share their first 8 bytes, some are short, one differs from another by a NUL. */
    private static String name(int i) {
        return switch (i % 5) {
            case 0 -> "COUNTERPARTY-" + i;
            case 1 -> "CP-" + i;
            case 2 -> "c" + i;
            case 3 -> "AB" + "\0".repeat(i % 3);
            default -> "Zürich-" + i;
        };
    }

    /** A batch of {@code rows} rows drawn from values {@code [from, from + values)}, columns in {@code order}. */
    private static byte[] batch(long seed, int rows, int from, int values, List<String[]> expected, boolean swapped) {
        SplittableRandom r = new SplittableRandom(seed);
        StringBuilder csv = new StringBuilder(swapped ? "desk,id,cp\n" : "id,cp,desk\n");
        for (int i = 0; i < rows; i++) {
            String cp = name(from + r.nextInt(values));
            String desk = "D" + r.nextInt(7);
            String quoted = "\"" + cp + "\"";
            csv.append(swapped ? desk + "," + i + "," + quoted : i + "," + quoted + "," + desk)
                    .append('\n');
            expected.add(new String[] {cp, desk});
        }
        return csv.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static List<String[]> rows(TableStaging s) {
        List<String[]> out = new ArrayList<>();
        for (int row = 0; row < s.rows(); row++) {
            out.add(new String[] {
                s.dictionary(1).stringAt(s.codes(1)[row]), s.dictionary(2).stringAt(s.codes(2)[row])
            });
        }
        return out;
    }

    private static void assertRows(List<String[]> expected, TableStaging s) {
        List<String[]> got = rows(s);
        assertEquals(expected.size(), got.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), got.get(i), "row " + i);
        }
    }

    @Test
    void batchesStagedWithKeptValuesHoldTheRowsAndDictionariesOfFreshOnes() {
        CsvValueCaches kept = new CsvValueCaches(T);
        // small chunks, so that the chunked read (one cache set per chunk) is tested too
        for (long chunk : new long[] {0, 4096}) {
            CsvStagingLoader loader = new CsvStagingLoader(CsvOptions.DEFAULT, null, chunk);
            for (int b = 0; b < 6; b++) {
                List<String[]> expected = new ArrayList<>();
                // overlapping value ranges, in a new first-seen order each batch, the columns in another order in some
                byte[] csv = batch(b, 3000, b * 150, 600, expected, b % 2 == 1);
                TableStaging cached = loader.stage(csv, "batch " + b, T, kept).staging();
                TableStaging fresh = loader.stage(csv, "batch " + b, T).staging();
                assertRows(expected, cached);
                for (int c = 1; c <= 2; c++) {
                    assertEquals(
                            fresh.dictionary(c).size(), cached.dictionary(c).size());
                    for (int code = 0; code < fresh.dictionary(c).size(); code++) {
                        assertEquals(
                                fresh.dictionary(c).stringAt(code),
                                cached.dictionary(c).stringAt(code));
                    }
                    assertArrayEquals(
                            java.util.Arrays.copyOf(fresh.codes(c), fresh.rows()),
                            java.util.Arrays.copyOf(cached.codes(c), cached.rows()));
                }
            }
        }
    }

    @Test
    void aBadRowIsTheSameErrorWithKeptValuesAndLeavesThemUsable() {
        CsvValueCaches kept = new CsvValueCaches(T);
        CsvStagingLoader loader = new CsvStagingLoader(CsvOptions.DEFAULT);
        byte[] bad = "id,cp,desk\n1,a,b\nx,c,d\n".getBytes(StandardCharsets.UTF_8);
        String fresh = assertThrows(NumacubeException.class, () -> loader.stage(bad, "s", T))
                .getMessage();
        String cached = assertThrows(NumacubeException.class, () -> loader.stage(bad, "s", T, kept))
                .getMessage();
        assertEquals(fresh, cached);
        List<String[]> expected = new ArrayList<>();
        assertRows(
                expected,
                loader.stage(batch(1, 50, 0, 20, expected, false), "s", T, kept).staging());
    }

    @Test
    void aCodeIsReturnedOnlyInTheReadThatRememberedIt() throws Exception {
        StringCache cache = new StringCache();
        byte[] b = "CP-00001".getBytes(StandardCharsets.UTF_8);
        cache.beginRead();
        cache.decode(b, 0, b.length);
        cache.rememberCode(5);
        assertEquals("CP-00001", cache.decode(b, 0, b.length));
        assertEquals(5, cache.lastCode());
        cache.beginRead();
        String again = cache.decode(b, 0, b.length);
        assertEquals("CP-00001", again);
        assertEquals(-1, cache.lastCode());
    }

    @Test
    void valuesSharingTheirFirstBytesOrDifferingByATrailingNulAreDistinct() throws Exception {
        StringCache cache = new StringCache();
        String[] values = {"AB", "AB\0", "AB\0\0", "COUNTERPARTY-1", "COUNTERPARTY-2", "COUNTERP", "COUNTERPA", ""};
        for (int round = 0; round < 3; round++) {
            cache.beginRead();
            for (String v : values) {
                byte[] b = ("x" + v + "y").getBytes(StandardCharsets.UTF_8);
                assertEquals(v, cache.decode(b, 1, b.length - 1));
            }
        }
        assertNotEquals(values[0], values[1]);
    }

    @Test
    void aFullCacheStartsAgainAtTheNextRead() throws Exception {
        StringCache cache = new StringCache();
        cache.beginRead();
        for (int i = 0; i < StringCache.MAX_ENTRIES + 10; i++) {
            byte[] b = ("v" + (i % 2 == 0 ? i : i + StringCache.MAX_ENTRIES)).getBytes(StandardCharsets.UTF_8);
            cache.decode(b, 0, b.length);
        }
        cache.beginRead();
        for (int i = 0; i < 100; i++) {
            byte[] b = ("w" + i).getBytes(StandardCharsets.UTF_8);
            assertEquals("w" + i, cache.decode(b, 0, b.length));
            cache.rememberCode(i);
            assertEquals("w" + i, cache.decode(b, 0, b.length));
            assertEquals(i, cache.lastCode(), "kept again after the restart: " + i);
        }
    }
}
