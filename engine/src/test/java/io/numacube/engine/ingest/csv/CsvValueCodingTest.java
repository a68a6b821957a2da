package io.numacube.engine.ingest.csv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A text value repeated in a read is looked up in its column's dictionary once, then set by its code
 * ({@link CsvRowSink#setCode}): the rows staged, and the dictionaries' first-seen order, are those of setting every
 * value by its text.
 */
class CsvValueCodingTest {

    private static final TableSchema SCHEMA = new TableSchema(
            "t",
            List.of(
                    ColumnSpec.of("name", ColumnType.STRING),
                    ColumnSpec.of("tag", ColumnType.STRING),
                    ColumnSpec.of("v", ColumnType.LONG)));

    /** 3,000 rows: 700 distinct names (past the cache's first growth), some quoted with an escaped quote; 3 tags. */
    private static String csv() {
        StringBuilder b = new StringBuilder("name,tag,v\n");
        for (int i = 0; i < 3000; i++) {
            int n = (i * 7919) % 700;
            String name = n % 50 == 0 ? "\"n\"\"" + n + "\"" : "n" + n;
            b.append(name)
                    .append(',')
                    .append("tag")
                    .append(i % 3)
                    .append(',')
                    .append(i)
                    .append('\n');
        }
        return b.toString();
    }

    private static String expectedName(int i) {
        int n = (i * 7919) % 700;
        return n % 50 == 0 ? "n\"" + n : "n" + n;
    }

    @Test
    void looksEachDistinctValueUpOncePerRead() throws Exception {
        CodingSink sink = new CodingSink();
        byte[] bytes = csv().getBytes(StandardCharsets.UTF_8);
        try (CsvInput in = CsvInput.ofBytes(bytes, "batch")) {
            new CsvTableReader(CsvOptions.DEFAULT).read(in, "batch", SCHEMA, (String) null, sink, CsvProgress.NONE);
        }
        assertEquals(700 + 3, sink.lookups);
        assertEquals(2 * 3000 - 703, sink.byCode);
        for (int i = 0; i < 3000; i++) {
            assertEquals(expectedName(i), sink.rows.get(i).get(0), "row " + i);
            assertEquals("tag" + (i % 3), sink.rows.get(i).get(1), "row " + i);
        }
    }

    @Test
    void stagesTheRowsAndDictionariesThatSettingEveryTextGives() {
        TableStaging read = new CsvStagingLoader(CsvOptions.DEFAULT)
                .stage(csv().getBytes(StandardCharsets.UTF_8), "batch", SCHEMA)
                .staging();
        TableStaging byText = new TableStaging(SCHEMA);
        for (int i = 0; i < 3000; i++) {
            byText.setString(0, expectedName(i));
            byText.setString(1, "tag" + (i % 3));
            byText.setLong(2, i);
            byText.endRow();
        }
        assertEquals(byText.rows(), read.rows());
        for (int c = 0; c < 2; c++) {
            assertEquals(byText.dictionary(c).size(), read.dictionary(c).size());
            for (int code = 0; code < byText.dictionary(c).size(); code++) {
                assertEquals(
                        byText.dictionary(c).stringAt(code), read.dictionary(c).stringAt(code));
            }
            assertArrayEquals(
                    java.util.Arrays.copyOf(byText.codes(c), 3000), java.util.Arrays.copyOf(read.codes(c), 3000));
        }
        assertArrayEquals(java.util.Arrays.copyOf(byText.longs(2), 3000), java.util.Arrays.copyOf(read.longs(2), 3000));
    }

    @Test
    void refusesACodeItsDictionaryDoesNotHold() {
        TableStaging s = new TableStaging(SCHEMA);
        int code = s.setStringCoded(0, "a");
        s.setString(1, "x");
        s.setLong(2, 1);
        s.endRow();
        s.setCode(0, code);
        NumacubeException e = assertThrows(NumacubeException.class, () -> s.setCode(1, 1));
        assertEquals(
                "a code must be one of the column's dictionary: code=1 size=1: table=t row=2 column=tag",
                e.getMessage());
    }

    /** Records the rows as text, coding values as a staging would, and counts lookups and sets by code. */
    private static final class CodingSink implements CsvRowSink {
        final List<List<Object>> rows = new ArrayList<>();
        final List<Map<String, Integer>> codes = List.of(new HashMap<>(), new HashMap<>());
        final List<List<String>> values = List.of(new ArrayList<>(), new ArrayList<>());
        int lookups;
        int byCode;
        private List<Object> row = new ArrayList<>(List.of("", "", ""));

        @Override
        public void setString(int column, String value) {
            throw new AssertionError("every text value goes through setStringCoded or setCode here");
        }

        @Override
        public int setStringCoded(int column, String value) {
            lookups++;
            row.set(column, value);
            return codes.get(column).computeIfAbsent(value, v -> {
                values.get(column).add(v);
                return values.get(column).size() - 1;
            });
        }

        @Override
        public void setCode(int column, int code) {
            byCode++;
            row.set(column, values.get(column).get(code));
        }

        @Override
        public void setLong(int column, long value) {
            row.set(column, value);
        }

        @Override
        public void setDouble(int column, double value) {
            row.set(column, value);
        }

        @Override
        public void setDate(int column, long epochDay) {
            row.set(column, epochDay);
        }

        @Override
        public void setBoolean(int column, boolean value) {
            row.set(column, value);
        }

        @Override
        public void setNull(int column) {
            row.set(column, null);
        }

        @Override
        public void endRow() {
            rows.add(row);
            row = new ArrayList<>(List.of("", "", ""));
        }
    }
}
