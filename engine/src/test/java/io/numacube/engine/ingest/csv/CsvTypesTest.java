package io.numacube.engine.ingest.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;
import java.io.ByteArrayInputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** BOOLEAN and TIMESTAMP inference as DuckDB's sniffer does it, and types forced per column ({@code --types}). */
class CsvTypesTest {

    private static TableSchema infer(String csv) {
        return new CsvTableReader(CsvOptions.DEFAULT)
                .infer(
                        Channels.newChannel(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8))),
                        "t.csv",
                        "t");
    }

    @Test
    void infersBooleanFromTheWordsDuckDbsSnifferReads() {
        // DuckDB 1.x: true/false/t/f in any case are BOOLEAN; yes/no and blanks around a word are VARCHAR; 1/0 BIGINT
        TableSchema s = infer("a,b,c,d,e,f,g\ntrue,T,yes,1,TRUE, true,true\nFalse,f,no,0,,false,maybe\n,F,y,1,t,t,f\n");
        assertEquals("a:boolean,b:boolean,c:string,d:long,e:boolean,f:string,g:string", s.declaration());
    }

    @Test
    void readsABooleanColumnAsDuckDbCastsTextAndRefusesOtherWords() {
        FieldDecoder dec = new FieldDecoder();
        for (String yes : List.of("true", "TRUE", "t", "T", "yes", "Y", "1")) {
            byte[] b = yes.getBytes(StandardCharsets.UTF_8);
            assertEquals(null, dec.parseBoolean(b, 0, b.length), yes);
            assertEquals(1, dec.longValue, yes);
        }
        for (String no : List.of("false", "fAlSe", "f", "F", "no", "n", "0")) {
            byte[] b = no.getBytes(StandardCharsets.UTF_8);
            assertEquals(null, dec.parseBoolean(b, 0, b.length), no);
            assertEquals(0, dec.longValue, no);
        }
        for (String bad : List.of(" true", "2", "tru", "yess", "nil")) {
            byte[] b = bad.getBytes(StandardCharsets.UTF_8);
            assertEquals(FieldDecoder.NOT_BOOLEAN, dec.parseBoolean(b, 0, b.length), bad);
        }
    }

    @Test
    void aForcedTypeReplacesTheInferredOneAndTheInferenceSaysSo(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("z.csv");
        Files.writeString(file, "zip,flag,n\n007,yes,1\n12345,no,0\n,y,1\n");
        CsvStagingLoader.Staged staged = new CsvStagingLoader(CsvOptions.DEFAULT)
                .stage(
                        file,
                        "z",
                        null,
                        Map.of(
                                "ZIP",
                                io.numacube.engine.schema.ColumnSpec.of("ZIP", ColumnType.LONG),
                                "flag",
                                io.numacube.engine.schema.ColumnSpec.of("flag", ColumnType.BOOLEAN),
                                "n",
                                io.numacube.engine.schema.ColumnSpec.of("n", ColumnType.BOOLEAN)),
                        CsvProgress.NONE);
        TableStaging s = staged.staging();
        assertEquals("zip:long,flag:boolean,n:boolean", s.schema().declaration());
        assertEquals(s.schema(), staged.inference().schema());
        // the note about zip's leading zero is gone: the column's type was not inferred
        assertEquals(List.of(), staged.inference().notes());
        assertEquals(7, s.longs(0)[0]);
        assertEquals(3, s.rows());
    }

    @Test
    void aValueThatDoesNotFitAForcedTypeNamesFileLineColumnValueAndTheTypeThatHoldsIt(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("v.csv");
        Files.writeString(file, "id,qty,flag\n1,10,true\n2,2.5,false\n");
        CsvStagingLoader loader = new CsvStagingLoader(CsvOptions.DEFAULT);
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> loader.stage(
                        file,
                        "v",
                        null,
                        Map.of("qty", io.numacube.engine.schema.ColumnSpec.of("qty", ColumnType.LONG)),
                        CsvProgress.NONE));
        assertEquals(
                file + ":3:3: not an integer (field qty, value \"2.5\") — column qty is BIGINT by --types; if the"
                        + " value is right, read it with --types v.qty=DOUBLE",
                e.getMessage());
        assertEquals(
                ErrorPosition.file(file.toString(), 3, 3, "qty"), e.position().orElseThrow());
        assertEquals("22P02", e.code());
        NumacubeException b = assertThrows(
                NumacubeException.class,
                () -> loader.stage(
                        file,
                        "v",
                        null,
                        Map.of("id", io.numacube.engine.schema.ColumnSpec.of("id", ColumnType.BOOLEAN)),
                        CsvProgress.NONE));
        assertEquals(
                file + ":3:1: not a boolean (true/false, t/f, yes/no, y/n or 1/0, any case) (field id, value \"2\")"
                        + " — column id is BOOLEAN by --types; if the value is right, read it with --types v.id=VARCHAR",
                b.getMessage());
    }

    @Test
    void aForcedTypeOfAColumnTheFileLacksListsItsColumns(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("v.csv");
        Files.writeString(file, "id,qty\n1,10\n");
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> new CsvStagingLoader(CsvOptions.DEFAULT)
                        .stage(
                                file,
                                "v",
                                null,
                                Map.of("qt", io.numacube.engine.schema.ColumnSpec.of("qt", ColumnType.LONG)),
                                CsvProgress.NONE));
        assertEquals(
                "--types names a column that table v does not have: column=qt file=" + file
                        + " — its columns are id, qty",
                e.getMessage());
        assertEquals("42703", e.code());
    }

    @Test
    void aBooleanColumnThatTurnsOutNotToBeOneAfterTheSampleNamesTypes(@TempDir Path dir) throws Exception {
        StringBuilder sb = new StringBuilder("flag\n");
        for (int i = 0; i < 20; i++) {
            sb.append(i % 2 == 0 ? "true\n" : "false\n");
        }
        sb.append("maybe\n");
        Path file = dir.resolve("late.csv");
        Files.writeString(file, sb);
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> new CsvStagingLoader(CsvOptions.DEFAULT.withSampleRows(10))
                        .stage(file, "late", null, CsvProgress.NONE));
        assertEquals(
                file + ":22:1: not a boolean (true/false, t/f, yes/no, y/n or 1/0, any case) (field flag, value"
                        + " \"maybe\") — the column types were inferred from the first 10 rows (flag:boolean); if the"
                        + " value is right, read the column with --types late.flag=VARCHAR",
                e.getMessage());
    }

    @Test
    void infersTimestampFromADateAndATimeAsDuckDbsSnifferDoes() {
        // DuckDB 1.x: ' ' or 'T', a one-digit hour, no seconds, fractions: TIMESTAMP; its first value fixes the
        // format, so timestamps then dates (midnights) are TIMESTAMP, dates then timestamps VARCHAR; a time zone (Z)
        // makes DuckDB's TIMESTAMPTZ, text here
        TableSchema s = infer("a,b,c,d,e,f,g\n2013-01-01 05:00:00,2013-01-01T05:00:00.5,2013-01-01 5:00,2013-01-01,"
                + "2013-01-01 05:00:00Z,2013-01-01 05:00:00,2013-01-01\n2013-12-31 23:59:59.123456,"
                + "2013-01-02T00:00:00,2013-01-01 06:00,2013-01-02,2013-01-01 05:00:00Z,2013-01-01,"
                + "2013-01-01 05:00:00\n");
        assertEquals("a:timestamp,b:timestamp,c:timestamp,d:date,e:string,f:timestamp,g:string", s.declaration());
        FieldDecoder dec = new FieldDecoder();
        for (String bad : List.of(
                "2013-02-29 00:00:00",
                "2013-01-01 24:00:00",
                "2013-01-01 05:60",
                "2013-01-01 5",
                "2013-01-01 05:00:00.",
                "2013-01-01 05:00:00.1234567890",
                "2013-01-01  05:00:00",
                "13-01-01 05:00")) {
            byte[] b = bad.getBytes(StandardCharsets.UTF_8);
            assertEquals(FieldDecoder.NOT_TIMESTAMP, dec.parseTimestamp(b, 0, b.length), bad);
        }
        byte[] b = " 1969-12-31T23:59:59.9999999 ".getBytes(StandardCharsets.UTF_8);
        assertEquals(null, dec.parseTimestamp(b, 0, b.length));
        assertEquals(-1, dec.longValue, "digits past microseconds are dropped, as DuckDB drops them");
    }

    @Test
    void aTimestampColumnThatTurnsOutNotToBeOneAfterTheSampleNamesTypes(@TempDir Path dir) throws Exception {
        StringBuilder sb = new StringBuilder("id,ts\n");
        for (int i = 0; i < 20; i++) {
            sb.append(i).append(",2013-01-01 0").append(i % 10).append(":00:00\n");
        }
        sb.append("20,2013-01-01 05:00 PM\n");
        Path file = dir.resolve("late.csv");
        Files.writeString(file, sb);
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> new CsvStagingLoader(CsvOptions.DEFAULT.withSampleRows(10))
                        .stage(file, "late", null, CsvProgress.NONE));
        assertEquals(
                file + ":22:4: not a timestamp (expected yyyy-MM-dd HH:mm:ss[.ffffff]) (field ts, value"
                        + " \"2013-01-01 05:00 PM\") — the column types were inferred from the first 10 rows"
                        + " (id:long,ts:timestamp); if the value is right, read the column with --types late.ts=VARCHAR",
                e.getMessage());
        assertEquals("22007", e.code(), "PostgreSQL's invalid_datetime_format, as its COPY says");
    }
}
