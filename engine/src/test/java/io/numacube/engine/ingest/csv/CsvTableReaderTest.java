package io.numacube.engine.ingest.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;
import java.io.ByteArrayInputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CsvTableReaderTest {

    private static final TableSchema TRADES =
            CsvSchemas.parseDeclaration("trades", "id LONG, desk STRING, day DATE, pnl DOUBLE");

    private static List<List<Object>> read(String csv, TableSchema schema) {
        return read(csv.getBytes(StandardCharsets.UTF_8), schema, CsvOptions.DEFAULT);
    }

    static List<List<Object>> read(byte[] csv, TableSchema schema, CsvOptions options) {
        RecordingSink sink = new RecordingSink(schema.size());
        CsvReadSummary summary = new CsvTableReader(options)
                .read(
                        Channels.newChannel(new ByteArrayInputStream(csv)),
                        "t.csv",
                        csv.length,
                        schema,
                        sink,
                        CsvProgress.NONE);
        assertEquals(sink.rows.size(), summary.rows());
        assertEquals(csv.length, summary.bytes());
        return sink.rows;
    }

    private static String failure(String csv, TableSchema schema) {
        NumacubeException e = assertThrows(NumacubeException.class, () -> read(csv, schema));
        assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind());
        return e.getMessage();
    }

    /** A row as the sink records it; a null value is SQL NULL. */
    private static List<Object> row(Object... values) {
        return java.util.Arrays.asList(values);
    }

    @Test
    void readsTypedValuesInSchemaOrder() {
        List<List<Object>> rows = read("id,desk,day,pnl\n1,FX,2024-01-02,-1.5\n2,Rates,2024-01-03,3\n", TRADES);
        assertEquals(
                List.of(row(1L, "FX", LocalDate.of(2024, 1, 2), -1.5), row(2L, "Rates", LocalDate.of(2024, 1, 3), 3.0)),
                rows);
    }

    @Test
    void matchesHeaderNamesToSchemaColumnsInAnyOrderIgnoringCase() {
        List<List<Object>> rows = read("PNL,Day,desk,ID\n2.5,2024-02-29,Eq,7\n", TRADES);
        assertEquals(List.of(row(7L, "Eq", LocalDate.of(2024, 2, 29), 2.5)), rows);
    }

    @Test
    void keepsDelimitersQuotesAndLineBreaksInsideQuotedFields() {
        String csv = "id,desk,day,pnl\n1,\"a,b\",2024-01-01,1\n2,\"say \"\"hi\"\"\",2024-01-01,1\n"
                + "3,\"two\nlines\r\nhere\",2024-01-01,1\n4,\"\",2024-01-01,1\n";
        List<List<Object>> rows = read(csv, TRADES);
        assertEquals(
                List.of("a,b", "say \"hi\"", "two\nlines\r\nhere", ""),
                rows.stream().map(r -> r.get(1)).toList());
    }

    @Test
    void acceptsCrlfLineEndsAByteOrderMarkAndNoFinalLineBreak() {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] text = "id,desk,day,pnl\r\n1,FX,2024-01-02,1\r\n2,\"EQ\",2024-01-02,2".getBytes(StandardCharsets.UTF_8);
        byte[] csv = new byte[bom.length + text.length];
        System.arraycopy(bom, 0, csv, 0, 3);
        System.arraycopy(text, 0, csv, 3, text.length);
        List<List<Object>> rows = read(csv, TRADES, CsvOptions.DEFAULT);
        assertEquals(
                List.of(row(1L, "FX", LocalDate.of(2024, 1, 2), 1.0), row(2L, "EQ", LocalDate.of(2024, 1, 2), 2.0)),
                rows);
    }

    @Test
    void keepsSpacesInTextButIgnoresThemAroundNumbersAndDates() {
        List<List<Object>> rows = read("id,desk,day,pnl\n 5 , FX ,2024-01-02 , 1.25\n", TRADES);
        assertEquals(List.of(row(5L, " FX ", LocalDate.of(2024, 1, 2), 1.25)), rows);
    }

    @Test
    void decodesUtf8Text() {
        List<List<Object>> rows = read("id,desk,day,pnl\n1,Zürich €,2024-01-02,1\n", TRADES);
        assertEquals("Zürich €", rows.getFirst().get(1));
    }

    @Test
    void skipsEmptyLinesWhenTheTableHasSeveralColumns() {
        List<List<Object>> rows = read("id,desk,day,pnl\n\n1,FX,2024-01-02,1\r\n\r\n2,FX,2024-01-02,1\n\n", TRADES);
        assertEquals(2, rows.size());
    }

    @Test
    void readsAnIntColumnAsLongValues() {
        TableSchema s = CsvSchemas.parseDeclaration("t", "book int, n long");
        assertEquals(List.of(row(12L, -3L)), read("book,n\n12,-3\n", s));
    }

    @Test
    void readsAHeaderOnlyFileAsNoRows() {
        assertEquals(List.of(), read("id,desk,day,pnl\n", TRADES));
        assertEquals(List.of(), read("id,desk,day,pnl", TRADES));
    }

    @Test
    void namesFileLineColumnFieldAndValueOfABadNumber() {
        assertEquals(
                "t.csv:3:17: not a number (field pnl, value \"12,5x\")",
                failure("id,desk,day,pnl\n1,FX,2024-01-02,1\n2,FX,2024-01-02,\"12,5x\"\n", TRADES));
    }

    @Test
    void countsLinesInsideQuotedFieldsWhenLocatingErrors() {
        assertEquals(
                "t.csv:5:1: not an integer (field id, value \"x\")",
                failure("id,desk,day,pnl\n1,\"a\nb\",2024-01-02,1\n2,FX,2024-01-02,1\nx,FX,2024-01-02,1\n", TRADES));
    }

    @Test
    void reportsTheColumnOfAFieldOnTheSecondLineOfARecord() {
        assertEquals(
                "t.csv:3:4: not a date (expected yyyy-MM-dd) (field day, value \"01/02/2024\")",
                failure("id,desk,day,pnl\n1,\"a\nb\",01/02/2024,1\n", TRADES));
    }

    @Test
    void countsCharactersNotBytesInTheColumn() {
        assertEquals(
                "t.csv:2:7: not a calendar day (field day, value \"2023-02-29\")",
                failure("id,desk,day,pnl\n1,€€€,2023-02-29,1\n", TRADES));
    }

    @Test
    void reportsTooFewFieldsAtTheEndOfTheLineNamingTheFirstMissingColumn() {
        assertEquals(
                "t.csv:2:16: row has 3 fields, the header has 4 (field pnl, value \"\")",
                failure("id,desk,day,pnl\n1,FX,2024-01-02\n", TRADES));
    }

    @Test
    void reportsTooManyFieldsAtTheFirstExtraField() {
        assertEquals(
                "t.csv:2:19: row has 5 fields, the header has 4 (field #5 (extra), value \"9\")",
                failure("id,desk,day,pnl\n1,FX,2024-01-02,1,9\n", TRADES));
    }

    @Test
    void readsAnUnquotedEmptyFieldAsNullInEveryColumnType() {
        assertEquals(
                List.of(row(null, null, null, null), row(1L, "FX", LocalDate.of(2024, 1, 2), 1.0)),
                read("id,desk,day,pnl\n,,,\n1,FX,2024-01-02,1\n", TRADES));
    }

    @Test
    void readsAQuotedEmptyFieldAsTheEmptyStringInTextAndAsNullInNumbersAndDates() {
        assertEquals(List.of(row(null, "", null, null)), read("id,desk,day,pnl\n\"\",\"\",\"\",\"\"\n", TRADES));
    }

    @Test
    void readsNullStringsInEveryColumnTypeButQuotedOnesInTextAreText() {
        CsvOptions na = CsvOptions.DEFAULT.withNullStrings(List.of("NA", "\\N"));
        String csv = "id,desk,day,pnl\nNA,NA,\\N,NA\n\"NA\",\"NA\",\"\\N\",\"\"\n1,\"\\N\",2024-01-02,\\N\n";
        assertEquals(
                List.of(
                        row(null, null, null, null),
                        row(null, "NA", null, null),
                        row(1L, "\\N", LocalDate.of(2024, 1, 2), null)),
                read(csv.getBytes(StandardCharsets.UTF_8), TRADES, na));
    }

    @Test
    void matchesANullStringOnTheWholeFieldWithoutTrimming() {
        CsvOptions na = CsvOptions.DEFAULT.withNullStrings(List.of("NA"));
        byte[] text = "id,desk,day,pnl\n1, NA,2024-01-02,1\n".getBytes(StandardCharsets.UTF_8);
        assertEquals(" NA", read(text, TRADES, na).getFirst().get(1));
        byte[] number = "id,desk,day,pnl\n1,FX,2024-01-02,NA \n".getBytes(StandardCharsets.UTF_8);
        NumacubeException e = assertThrows(NumacubeException.class, () -> read(number, TRADES, na));
        assertEquals("t.csv:2:17: not a number (field pnl, value \"NA \")", e.getMessage());
    }

    @Test
    void refusesAFieldOfBlanksInANumberOrDateColumnAsNeitherAValueNorNull() {
        assertEquals(
                "t.csv:2:1: blank value (spaces or tabs only; an empty field is NULL) (field id, value \"  \")",
                failure("id,desk,day,pnl\n  ,FX,2024-01-02,1\n", TRADES));
        assertEquals(
                "t.csv:2:17: blank value (spaces or tabs only; an empty field is NULL) (field pnl, value \"\\t\")",
                failure("id,desk,day,pnl\n1,FX,2024-01-02,\t\n", TRADES));
    }

    @Test
    void readsAnEmptyLineAsNullWhenTheTableHasOneColumn() {
        TableSchema one = CsvSchemas.parseDeclaration("t", "v LONG");
        assertEquals(List.of(row(1L), row((Object) null), row(2L), row((Object) null)), read("v\n1\n\n2\n\n", one));
    }

    @Test
    void refusesANullStringThatNoUnquotedFieldCouldHold() {
        for (String bad : List.of("", "a\"b", "x\ny", "a,b")) {
            NumacubeException e =
                    assertThrows(NumacubeException.class, () -> CsvOptions.DEFAULT.withNullStrings(List.of(bad)));
            assertTrue(e.getMessage().startsWith("a CSV NULL string must be text an unquoted field can hold"), bad);
        }
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> CsvOptions.DEFAULT.withNullStrings(List.of("a|b")).withDelimiter('|'));
        assertEquals(
                "a CSV NULL string must be text an unquoted field can hold: null=\"a|b\" holds the delimiter — use"
                        + " e.g. NA, NULL or \\N",
                e.getMessage());
    }

    @Test
    void reportsAnUnterminatedQuoteWhereItOpens() {
        assertEquals(
                "t.csv:2:3: unterminated quoted field (field desk, value \"\\\"FX,2024-01-02,1\")",
                failure("id,desk,day,pnl\n1,\"FX,2024-01-02,1\n2,FX,2024-01-02,1\n", TRADES));
    }

    @Test
    void refusesAQuoteInsideAnUnquotedField() {
        assertEquals(
                "t.csv:2:7: quote inside an unquoted field (quote the whole field and double the quote)"
                        + " (field desk, value \"5'10\\\"\")",
                failure("id,desk,day,pnl\n1,5'10\",2024-01-02,1\n", TRADES));
    }

    @Test
    void refusesTextAfterAClosingQuote() {
        assertTrue(failure("id,desk,day,pnl\n1,\"FX\"x,2024-01-02,1\n", TRADES)
                .startsWith("t.csv:2:7: unexpected character after closing quote"));
    }

    @Test
    void refusesInvalidUtf8() {
        byte[] csv = "id,desk,day,pnl\n1,A?B,2024-01-02,1\n".getBytes(StandardCharsets.UTF_8);
        csv[csv.length - 16] = (byte) 0xFF;
        NumacubeException e = assertThrows(NumacubeException.class, () -> read(csv, TRADES, CsvOptions.DEFAULT));
        assertTrue(e.getMessage().startsWith("t.csv:2:3: not valid UTF-8 text (field desk"), e.getMessage());
    }

    /**
     * A NUL inside a text field was stored (DuckDB keeps it); PostgreSQL's COPY refuses it with 22021, and so does
     * the server over the wire, so the load refuses it, naming line, column and field. Each value is decoded once, so
     * the second and the first of a repeated value are checked alike.
     */
    @Test
    void refusesANulInTextAs22021() {
        for (String csv : new String[] {
            "id,desk,day,pnl\n1,a\u0000b,2024-01-02,1\n",
            "id,desk,day,pnl\n1,ab,2024-01-02,1\n2,\"x\u0000\",2024-01-02,1\n"
        }) {
            NumacubeException e = assertThrows(
                    NumacubeException.class,
                    () -> read(csv.getBytes(StandardCharsets.UTF_8), TRADES, CsvOptions.DEFAULT));
            assertEquals("22021", e.code(), e.getMessage());
            String line = csv.contains("\n2,") ? "t.csv:3:3: " : "t.csv:2:3: ";
            assertTrue(
                    e.getMessage().startsWith(line + "invalid byte sequence for encoding \"UTF8\": 0x00"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("holds a NUL character"), e.getMessage());
            assertTrue(e.getMessage().contains("(field desk"), e.getMessage());
        }
    }

    @Test
    void refusesAnEmptyFileAndAHeaderWithoutTheSchemaColumns() {
        assertEquals("t.csv:1:1: empty file (a header row with the column names is required)", failure("", TRADES));
        assertEquals(
                "t.csv:1:9: header column is not in the schema (schema: id:long,desk:string,day:date,"
                        + "pnl:double) (field price, value \"price\")",
                failure("id,desk,price,pnl\n", TRADES));
        assertTrue(
                failure("id,desk,day\n", TRADES).startsWith("t.csv:1:1: the header lacks a schema column (field pnl"));
        assertTrue(failure("id,desk,day,pnl,ID\n", TRADES).startsWith("t.csv:1:17: duplicate column name"));
    }

    @Test
    void refusesLinesEndedByCarriageReturnsAlone() {
        assertTrue(failure("id,desk,day,pnl\r1,FX,2024-01-02,1\r", TRADES)
                .startsWith("t.csv:1:13: carriage return without a line feed"));
    }

    @Test
    void addsTheRowLocationToAValueTheSinkRefuses() {
        CsvRowSink refusing = new RecordingSink(4) {
            @Override
            public void setString(int column, String value) {
                if (value.equals("BAD")) {
                    throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT, "too many distinct values");
                }
                super.setString(column, value);
            }
        };
        byte[] csv = "id,desk,day,pnl\n1,FX,2024-01-02,1\n2,BAD,2024-01-02,1\n".getBytes(StandardCharsets.UTF_8);
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> new CsvTableReader(CsvOptions.DEFAULT)
                        .read(
                                Channels.newChannel(new ByteArrayInputStream(csv)),
                                "t.csv",
                                -1,
                                TRADES,
                                refusing,
                                CsvProgress.NONE));
        assertEquals("t.csv:3:3: too many distinct values (field desk, value \"BAD\")", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {64, 65, 67, 100, 333})
    void readsRecordsThatStraddleOrExceedTheBuffer(int bufferBytes) {
        StringBuilder sb = new StringBuilder("id,desk,day,pnl\r\n");
        List<List<Object>> expected = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String desk = i % 7 == 0 ? "x".repeat(i) + "\"q\"\n," : "d" + i;
            sb.append(i)
                    .append(',')
                    .append('"')
                    .append(desk.replace("\"", "\"\""))
                    .append('"')
                    .append(',')
                    .append(LocalDate.ofEpochDay(i))
                    .append(',')
                    .append(i * 0.5)
                    .append(i % 2 == 0 ? "\r\n" : "\n");
            expected.add(row((long) i, desk, LocalDate.ofEpochDay(i), i * 0.5));
        }
        assertEquals(
                expected,
                read(
                        sb.toString().getBytes(StandardCharsets.UTF_8),
                        TRADES,
                        CsvOptions.DEFAULT.withBufferBytes(bufferBytes)));
    }

    @Test
    void reportsProgressWithBytesAndRows(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("p.csv");
        StringBuilder sb = new StringBuilder("id,desk,day,pnl\n");
        int rows = (int) CsvTableReader.PROGRESS_EVERY_ROWS * 2 + 5;
        for (int i = 0; i < rows; i++) {
            sb.append(i).append(",FX,2024-01-02,1\n");
        }
        Files.writeString(file, sb);
        List<long[]> updates = new ArrayList<>();
        CsvReadSummary s = new CsvTableReader(CsvOptions.DEFAULT)
                .read(file, TRADES, new RecordingSink(4), (r, b, t) -> updates.add(new long[] {r, b, t}));
        assertEquals(rows, s.rows());
        assertEquals(3, updates.size());
        assertEquals(CsvTableReader.PROGRESS_EVERY_ROWS, updates.get(0)[0]);
        assertEquals(rows, updates.get(2)[0]);
        assertEquals(Files.size(file), updates.get(2)[1]);
        assertEquals(Files.size(file), updates.get(2)[2]);
        assertTrue(updates.get(0)[1] < updates.get(1)[1]);
    }

    @Test
    void namesAMissingFile(@TempDir Path dir) {
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> new CsvTableReader(CsvOptions.DEFAULT)
                        .read(dir.resolve("nope.csv"), TRADES, new RecordingSink(4), CsvProgress.NONE));
        assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind());
        assertTrue(e.getMessage().startsWith("CSV file not found: file="), e.getMessage());
    }

    @Test
    void refusesADirectoryAsInput(@TempDir Path dir) {
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> new CsvTableReader(CsvOptions.DEFAULT).read(dir, TRADES, new RecordingSink(4), CsvProgress.NONE));
        assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind());
        assertTrue(e.getMessage().startsWith("a CSV source must be a file, not a directory"), e.getMessage());
    }

    @Test
    void infersLongDoubleDateAndStringColumns() {
        String csv = "a,b,c,d,e,f\n1,1.5,2024-01-01,x,,7\n-2,3,2024-02-29,1,,2.0\n";
        TableSchema s = new CsvTableReader(CsvOptions.DEFAULT)
                .infer(
                        Channels.newChannel(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8))),
                        "t.csv",
                        "t");
        assertEquals(
                List.of(
                        ColumnType.LONG,
                        ColumnType.DOUBLE,
                        ColumnType.DATE,
                        ColumnType.STRING,
                        ColumnType.STRING,
                        ColumnType.DOUBLE),
                s.columns().stream().map(c -> c.type()).toList());
        assertEquals(
                List.of("a", "b", "c", "d", "e", "f"),
                s.columns().stream().map(c -> c.name()).toList());
    }

    @Test
    void infersTypesFromTheNonNullValuesAndAnAllNullColumnAsText() {
        // DuckDB's read_csv(nullstr = ['NA', '']) infers BIGINT, DOUBLE, DATE, VARCHAR, VARCHAR for this file
        String csv = "a,b,c,d,e\n1,,2024-01-01,NA,\n,1.5,,x,\n\"\",2,2024-01-02,,\nNA,NA,NA,\"NA\",\n";
        TableSchema s = new CsvTableReader(CsvOptions.DEFAULT.withNullStrings(List.of("NA")))
                .infer(
                        Channels.newChannel(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8))),
                        "t.csv",
                        "t");
        assertEquals("a:long,b:double,c:date,d:string,e:string", s.declaration());
    }

    @Test
    void keepsANumericTypeWhenAtMostOnePercentOfSampledValuesMisfit() {
        assertEquals(ColumnType.DOUBLE, CsvTableReader.inferredType(100, 90, 99, 0, 0, 0, false));
        assertEquals(ColumnType.STRING, CsvTableReader.inferredType(100, 90, 98, 0, 0, 0, false));
        assertEquals(ColumnType.DATE, CsvTableReader.inferredType(200, 0, 0, 198, 0, 0, false));
        assertEquals(ColumnType.STRING, CsvTableReader.inferredType(10, 9, 9, 0, 0, 0, false));
        assertEquals(ColumnType.LONG, CsvTableReader.inferredType(5, 5, 5, 0, 0, 0, false));
        assertEquals(ColumnType.STRING, CsvTableReader.inferredType(0, 0, 0, 0, 0, 0, false));
    }

    @Test
    void infersANumericColumnDespiteAStrayBadValueSoTheLoadStopsThere(@TempDir Path dir) throws Exception {
        StringBuilder sb = new StringBuilder("id,amount\n");
        for (int i = 1; i <= 300; i++) {
            sb.append(i)
                    .append(',')
                    .append(i == 150 ? "12x5" : String.valueOf(i * 1.5))
                    .append('\n');
        }
        Path file = dir.resolve("a.csv");
        Files.writeString(file, sb);
        CsvStagingLoader loader = new CsvStagingLoader(CsvOptions.DEFAULT);
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> loader.stage(file, "a", null, CsvProgress.NONE));
        assertEquals(
                file + ":151:5: not a number (field amount, value \"12x5\") — the column types were inferred"
                        + " from the first 10000 rows (id:long,amount:double); if the value is right, read the column"
                        + " with --types a.amount=VARCHAR",
                e.getMessage());
        assertEquals(
                ErrorPosition.file(file.toString(), 151, 5, "amount"),
                e.position().orElseThrow());
        NumacubeException declared = assertThrows(
                NumacubeException.class,
                () -> loader.stage(
                        file, "a", CsvSchemas.parseDeclaration("a", "id LONG, amount DOUBLE"), CsvProgress.NONE));
        assertEquals(
                file + ":151:5: not a number (field amount, value \"12x5\") — column amount is DOUBLE by --schema; if"
                        + " the value is right, read it with --types a.amount=VARCHAR",
                declared.getMessage());
    }

    @Test
    void infersFromTheSampleOnlyAndTheLoadThenReportsTheFirstMisfit() {
        StringBuilder sb = new StringBuilder("n\n");
        for (int i = 0; i < 20; i++) {
            sb.append(i).append('\n');
        }
        sb.append("1.5\n");
        byte[] csv = sb.toString().getBytes(StandardCharsets.UTF_8);
        CsvTableReader reader = new CsvTableReader(CsvOptions.DEFAULT.withSampleRows(10));
        TableSchema s = reader.infer(Channels.newChannel(new ByteArrayInputStream(csv)), "t.csv", "t");
        assertEquals(ColumnType.LONG, s.column(0).type());
        NumacubeException e = assertThrows(NumacubeException.class, () -> read(csv, s, CsvOptions.DEFAULT));
        assertEquals("t.csv:22:1: not an integer (field n, value \"1.5\")", e.getMessage());
    }

    private static CsvInference inferNotes(String csv) {
        return new CsvTableReader(CsvOptions.DEFAULT)
                .inferWithNotes(
                        Channels.newChannel(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8))),
                        "t.csv",
                        "t");
    }

    /**
     * DuckDB's read_csv (checked with duckdb 1.x) infers HUGEINT for 9223372036854775808 and DOUBLE for 1e309, NaN,
     * inf and -Infinity. numacube has no HUGEINT: the column is DOUBLE, and the note says so and why.
     */
    @Test
    void namesTheFirstValueThatWidenedAnIntegerColumnAsDuckDbWouldInferIt() {
        CsvInference inf = inferNotes("k,big,e,nan,inf\na,1,1,1,1\nb,9223372036854775808,1e309,NaN,-Infinity\n");
        assertEquals("k STRING, big DOUBLE, e DOUBLE, nan DOUBLE, inf DOUBLE", CsvSchemas.sqlDeclaration(inf.schema()));
        assertEquals(
                "column big is DOUBLE: value \"9223372036854775808\" at t.csv:3 is outside the 64-bit integer "
                        + "range (DuckDB infers HUGEINT, which numacube lacks: the column's values are read as doubles, exact "
                        + "only up to 2^53)",
                inf.note("big").text());
        for (String c : List.of("e", "nan", "inf")) {
            assertTrue(
                    inf.note(c)
                            .text()
                            .contains("at t.csv:3 is not finite: DuckDB infers DOUBLE, as here, but the "
                                    + "load stops at it"),
                    inf.note(c).text());
        }
        assertEquals(null, inf.note("k"));
    }

    /**
     * DuckDB's sniffer parses numbers strictly (duckdb PR 5850): {@code 007} is not an integer, so a column of codes
     * with leading zeros stays VARCHAR and {@code 007} and {@code 07} stay two values. {@code 0}, {@code 0.5} and
     * {@code -0.25} are ordinary numbers.
     */
    @Test
    void keepsAColumnWithALeadingZeroNumberAsTextAndSaysWhy() {
        StringBuilder csv = new StringBuilder("zip,amount,ratio\n");
        for (int i = 1; i <= 300; i++) {
            csv.append(i).append(',').append(i).append(",0.5\n");
        }
        csv.append("007,0,-0.25\n07,1,0\n");
        CsvInference inf = inferNotes(csv.toString());
        assertEquals("zip STRING, amount LONG, ratio DOUBLE", CsvSchemas.sqlDeclaration(inf.schema()));
        assertEquals(
                "column zip is STRING: value \"007\" at t.csv:302 " + CsvTableReader.LEADING_ZERO,
                inf.note("zip").text());
        assertEquals(null, inf.note("amount"));
        for (String code : List.of("007", "-01.5", " 00", "+09")) {
            assertEquals(
                    ColumnType.STRING,
                    inferNotes("c\n" + code + "\n").schema().column(0).type(),
                    code);
        }
        for (String number : List.of("0", "-0", "0.5", "0e3", "10", "-0.0")) {
            assertTrue(inferNotes("c\n" + number + "\n").schema().column(0).type() != ColumnType.STRING, number);
        }
        assertEquals(
                ColumnType.DATE,
                inferNotes("d\n0999-12-31\n0001-01-01\n").schema().column(0).type());
    }

    @Test
    void refusesAHeaderWithMoreColumnsThanATableMayHaveNamingTheCount() {
        StringBuilder wide = new StringBuilder("c0");
        for (int i = 1; i <= CsvTableReader.MAX_COLUMNS; i++) {
            wide.append(",c").append(i);
        }
        NumacubeException e = assertThrows(NumacubeException.class, () -> inferNotes(wide + "\n1\n"));
        assertEquals(
                "t.csv:1:1: the header row has 10,001 columns; a table has at most 10,000 (is the delimiter right?"
                        + " --delimiter sets it)",
                e.getMessage());
        StringBuilder ok = new StringBuilder("c0");
        for (int i = 1; i < CsvTableReader.MAX_COLUMNS; i++) {
            ok.append(",c").append(i);
        }
        assertEquals(
                CsvTableReader.MAX_COLUMNS,
                inferNotes(ok + "\n").schema().columns().size());
    }

    @Test
    void namesTheFirstValueThatMadeANumericColumnText() {
        CsvInference inf = inferNotes("v,d,plain\n1.5,2025-01-01,x\nn/a,2025-01-02,y\n2,oops,z\n");
        assertEquals("v STRING, d STRING, plain STRING", CsvSchemas.sqlDeclaration(inf.schema()));
        assertEquals(
                "column v is STRING: value \"n/a\" at t.csv:3 is not a number, and 1 of 3 sampled values are not "
                        + "(at most 1% may be)",
                inf.note("v").text());
        assertEquals(
                "column d is STRING: value \"oops\" at t.csv:4 is not a date (yyyy-MM-dd), and 1 of 3 sampled "
                        + "values are not (at most 1% may be)",
                inf.note("d").text());
        assertEquals(null, inf.note("plain"), "a text column needs no explanation");
    }

    @Test
    void aNonFiniteValueStopsTheLoadWithoutSuggestingASchemaThatCannotHelp() {
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> read("k,v\na,1.5\nb,inf\n", CsvSchemas.parseDeclaration("t", "k STRING, v DOUBLE")));
        assertEquals(
                "t.csv:3:3: not a finite number (DOUBLE columns hold finite values only; NaN and infinities are not"
                        + " supported, and no option changes that) (field v, value \"inf\")",
                e.getMessage());
    }
}
