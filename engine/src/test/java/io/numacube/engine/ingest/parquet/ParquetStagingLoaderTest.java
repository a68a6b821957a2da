package io.numacube.engine.ingest.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import io.numacube.engine.testing.StagedRows;
import io.numacube.numa.base.NumacubeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Parquet files written by DuckDB (several row groups, each codec), loaded by numacube and read back by DuckDB's
 * {@code read_parquet}: the same queries give the same answers; what numacube cannot hold is refused by name.
 */
class ParquetStagingLoaderTest {

    /**
     * Every type numacube reads, over 25,000 rows: integers of each width and sign, doubles, floats, text, dates,
     * booleans (with NULLs).
     */
    private static final String ROWS =
            "SELECT i::INTEGER AS i32, i::BIGINT * 1000000007 AS i64, (i % 5)::TINYINT AS tiny,"
                    + " (i % 300)::SMALLINT AS small, (4294967295 - i)::UINTEGER AS u32, (i * 3)::UBIGINT AS u64,"
                    + " i / 3.0 AS d, (i * 1.5)::FLOAT AS f, 'desk' || (i % 7) AS desk, 'é😀Ａ' || (i % 3) AS uni,"
                    + " DATE '2024-01-01' + (i % 40)::INTEGER AS day,"
                    + " CASE WHEN i % 11 = 0 THEN NULL ELSE i % 3 = 0 END AS flag,"
                    + " ((i % 2000) * 1.25 - 700)::DECIMAL(9,2) AS dec9,"
                    + " CASE WHEN i % 13 = 0 THEN NULL ELSE (i * 1234567.891 - 9999999.5)::DECIMAL(18,3) END AS dec18"
                    + " FROM range(25000) t(i)";

    private static final List<String> QUERIES = List.of(
            "SELECT desk, SUM(i64), SUM(d), MIN(i32), MAX(u32), COUNT(*) FROM p GROUP BY desk",
            "SELECT day, SUM(f), SUM(u64), MAX(tiny), MIN(small) FROM p GROUP BY day",
            "SELECT uni, COUNT(*), AVG(d) FROM p WHERE day BETWEEN DATE '2024-01-05' AND DATE '2024-01-20' GROUP BY uni",
            "SELECT desk, SUM(i32) FROM p WHERE u32 > 4294960000 AND f < 30000 GROUP BY desk",
            "SELECT flag, COUNT(*), SUM(i64), MIN(day) FROM p GROUP BY flag",
            "SELECT desk, COUNT(*) FILTER (WHERE flag), SUM(d) FROM p WHERE NOT flag OR flag IS NULL GROUP BY desk",
            "SELECT desk, SUM(dec9), MIN(dec18), MAX(dec18), SUM(dec18), AVG(dec9), COUNT(dec18) FROM p GROUP BY desk",
            "SELECT dec9, COUNT(*), SUM(dec18) FROM p WHERE dec18 > 1000.5 AND dec9 < 10 GROUP BY dec9");

    @ParameterizedTest
    @ValueSource(strings = {"snappy", "zstd", "gzip", "lz4", "lz4_raw", "uncompressed"})
    void answersAsDuckDbReadingTheSameFile(String codec, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("p.parquet");
        try (DuckDb duck = new DuckDb();
                Cube cube = Cube.open(CubeOptions.defaults()
                        .withSimulatedNodes(2)
                        .withThreadsPerNode(1)
                        .withMorselRows(1024))) {
            duck.execute("COPY (" + ROWS + ") TO '" + file + "' (FORMAT parquet, COMPRESSION " + codec
                    + ", ROW_GROUP_SIZE 8000)");
            ParquetStagingLoader.Staged staged =
                    new ParquetStagingLoader().stage(file, "p", null, ProgressListener.NONE);
            assertEquals(25_000, staged.rows());
            assertEquals(
                    "i32 LONG, i64 LONG, tiny LONG, small LONG, u32 LONG, u64 LONG, d DOUBLE, f DOUBLE, desk STRING,"
                            + " uni STRING, day DATE, flag BOOLEAN, dec9 DECIMAL(9,2), dec18 DECIMAL(18,3)",
                    declaration(staged.fileSchema()));
            cube.loadTable(staged.staging());
            duck.execute("CREATE TABLE p AS SELECT * FROM read_parquet('" + file + "')");
            for (String sql : QUERIES) {
                var ours = cube.query(sql);
                ResultComparator.assertSame(
                        codec + ": " + sql, ours, duck.query(sql), 1, new boolean[ours.columnCount()], false, 1e-9);
            }
        }
    }

    @Test
    void aDeclaredSchemaMayMakeAnIntegerColumnGroupableOrDouble(@TempDir Path dir) throws Exception {
        Path file = write(dir, "SELECT (i % 4)::INTEGER AS k, i::BIGINT AS v FROM range(100) t(i)");
        TableSchema declared = TableSchema.parse("x", "v:double,k:int");
        ParquetStagingLoader.Staged staged =
                new ParquetStagingLoader().stage(file, "p", declared, ProgressListener.NONE);
        assertEquals(ColumnType.INT, staged.staging().schema().column(0).type());
        assertEquals(ColumnType.DOUBLE, staged.staging().schema().column(1).type());
        try (Cube cube = Cube.open(CubeOptions.defaults())) {
            cube.loadTable(staged.staging());
            assertEquals(
                    "[[0, 1200.0], [1, 1225.0], [2, 1250.0], [3, 1275.0]]",
                    rows(cube, "SELECT k, SUM(v) FROM p GROUP BY k ORDER BY k"));
        }
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> new ParquetStagingLoader()
                        .stage(file, "p", TableSchema.parse("x", "k:string,v:long"), ProgressListener.NONE));
        assertTrue(
                e.getMessage().contains("column k is LONG in the file and cannot be read as STRING"), e.getMessage());
    }

    @Test
    void severalFilesStageAsOneTableAndAFileWithOtherColumnsIsNamed(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a.parquet");
        Path b = dir.resolve("b.parquet");
        Path c = dir.resolve("c.parquet");
        try (DuckDb duck = new DuckDb()) {
            duck.execute(
                    "COPY (SELECT i AS k, i * 0.5::DOUBLE AS v FROM range(10) t(i)) TO '" + a + "' (FORMAT parquet)");
            duck.execute(
                    "COPY (SELECT i AS k, i * 2.0::DOUBLE AS v FROM range(5) t(i)) TO '" + b + "' (FORMAT parquet)");
            duck.execute("COPY (SELECT i AS k, 'x' AS v FROM range(5) t(i)) TO '" + c + "' (FORMAT parquet)");
        }
        ParquetStagingLoader.Staged both =
                new ParquetStagingLoader().stageAll(List.of(a, b), "p", null, ProgressListener.NONE);
        assertEquals(15, both.rows());
        try (Cube cube = Cube.open(CubeOptions.defaults())) {
            cube.loadTable(both.staging());
            assertEquals("[[15, 42.5]]", rows(cube, "SELECT COUNT(*), SUM(v) FROM p"));
        }
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> new ParquetStagingLoader().stageAll(List.of(a, c), "p", null, ProgressListener.NONE));
        assertEquals(
                c + ": its columns (k LONG, v STRING) differ from the table's (k LONG, v DOUBLE); the files of one"
                        + " table must have the same columns",
                e.getMessage());
    }

    /**
     * NULLs in every type numacube reads, each column its own pattern over three row groups: scattered, a whole row
     * group (the middle one, in i32), and every row (none).
     */
    private static final String ROWS_WITH_NULLS = "SELECT i AS id,"
            + " CASE WHEN i % 7 = 1 OR i BETWEEN 8000 AND 15999 THEN NULL ELSE i::INTEGER END AS i32,"
            + " CASE WHEN i % 5 = 2 THEN NULL ELSE i::BIGINT * 1000000007 END AS i64,"
            + " CASE WHEN i % 3 = 0 THEN NULL ELSE (i % 5)::TINYINT END AS tiny,"
            + " CASE WHEN i % 11 = 4 THEN NULL ELSE (4294967295 - i)::UINTEGER END AS u32,"
            + " CASE WHEN i % 13 = 5 THEN NULL ELSE (i * 3)::UBIGINT END AS u64,"
            + " CASE WHEN i % 2 = 1 THEN NULL ELSE i / 3.0 END AS d,"
            + " CASE WHEN i % 17 = 0 THEN NULL ELSE (i * 1.5)::FLOAT END AS f,"
            + " CASE WHEN i % 4 = 3 THEN NULL ELSE 'desk' || (i % 7) END AS desk,"
            + " CASE WHEN i > 20 THEN NULL ELSE '' END AS blank,"
            + " CASE WHEN i % 9 = 8 THEN NULL ELSE DATE '2024-01-01' + (i % 40)::INTEGER END AS day,"
            + " NULL::INTEGER AS none"
            + " FROM range(24000) t(i)";

    @Test
    void nullsOfEveryTypeStageAsNullsWhereDuckDbReadsThem(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("n.parquet");
        try (DuckDb duck = new DuckDb()) {
            duck.execute("COPY (" + ROWS_WITH_NULLS + ") TO '" + file + "' (FORMAT parquet, ROW_GROUP_SIZE 8000)");
            ParquetStagingLoader.Staged staged = stage(file);
            assertEquals(
                    "id LONG, i32 LONG, i64 LONG, tiny LONG, u32 LONG, u64 LONG, d DOUBLE, f DOUBLE, desk STRING,"
                            + " blank STRING, day DATE, none LONG",
                    declaration(staged.fileSchema()));
            assertTrue(staged.staging().isNull(1, 8000) && !staged.staging().isNull(1, 7999));
            int[] nulls = StagedRows.assertSameAsDuckDb(
                    duck, staged.staging(), "SELECT * FROM read_parquet('" + file + "') ORDER BY id");
            assertEquals(
                    "[0, 10286, 4800, 8000, 2182, 1846, 12000, 1412, 6000, 23979, 2666, 24000]",
                    Arrays.toString(nulls));
        }
    }

    @Test
    void nullsStageAsNullsInColumnsDeclaredIntOrDouble(@TempDir Path dir) throws Exception {
        Path file = write(
                dir,
                "SELECT CASE WHEN i % 3 = 0 THEN NULL ELSE i % 4 END AS k,"
                        + " CASE WHEN i % 5 = 0 THEN NULL ELSE i END AS v FROM range(100) t(i)");
        TableSchema declared = TableSchema.parse("x", "k:int,v:double");
        try (DuckDb duck = new DuckDb()) {
            ParquetStagingLoader.Staged staged =
                    new ParquetStagingLoader().stage(file, "p", declared, ProgressListener.NONE);
            assertEquals(
                    staged.staging().dictionary(0).nullCode(), staged.staging().codes(0)[0]);
            assertEquals(0.0, staged.staging().doubles(1)[0]);
            int[] nulls = StagedRows.assertSameAsDuckDb(
                    duck, staged.staging(), "SELECT k, v::DOUBLE FROM read_parquet('" + file + "')");
            assertEquals("[34, 20]", Arrays.toString(nulls));
        }
    }

    /**
     * TIMESTAMP in microseconds, milliseconds and nanoseconds, and a UTC-adjusted one (DuckDB's TIMESTAMPTZ), before
     * and after 1970 and with NULLs: all TIMESTAMP here, with the values DuckDB reads (the UTC one as its UTC wall
     * time; nanoseconds cut to microseconds).
     */
    @Test
    void timestampsOfEveryUnitLoadAsTimestampsWithDuckDbsValues(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("ts.parquet");
        try (DuckDb duck = new DuckDb();
                Cube cube =
                        Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withMorselRows(512))) {
            duck.execute("SET TimeZone = 'UTC'");
            String t = "TIMESTAMP '1969-12-31 23:00:00' + to_microseconds(i * 37000123)";
            duck.execute("COPY (SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE " + t + " END AS us,"
                    + " (" + t + ")::TIMESTAMP_MS AS ms, CASE WHEN i % 5 = 0 THEN NULL ELSE (" + t
                    + " + to_microseconds(1))::TIMESTAMP_NS END AS ns, (" + t + ")::TIMESTAMPTZ AS tz"
                    + " FROM range(3000) t(i)) TO '" + file + "' (FORMAT parquet, ROW_GROUP_SIZE 1000)");
            ParquetStagingLoader.Staged staged = stage(file);
            assertEquals(
                    "id LONG, us TIMESTAMP, ms TIMESTAMP, ns TIMESTAMP, tz TIMESTAMP",
                    declaration(staged.fileSchema()));
            cube.loadTable(staged.staging());
            duck.execute("CREATE TABLE p AS SELECT id, us, ms::TIMESTAMP AS ms, ns::TIMESTAMP AS ns,"
                    + " make_timestamp(epoch_us(tz)) AS tz FROM read_parquet('" + file + "')");
            for (String sql : List.of(
                    "SELECT id, us, ms, ns, tz FROM p ORDER BY id",
                    "SELECT date_trunc('hour', us) AS h, COUNT(*), MIN(ns), MAX(tz), COUNT(DISTINCT ms) FROM p"
                            + " GROUP BY h ORDER BY h")) {
                var ours = cube.query(sql);
                ResultComparator.assertSame(
                        sql, ours, duck.query(sql), 1, new boolean[ours.columnCount()], false, 1e-9);
            }
        }
    }

    /** INT96 (which DuckDB does not write): nanoseconds of the day, then the Julian day, both little-endian. */
    @Test
    void anInt96TimestampIsItsJulianDayAndNanosecondsInMicroseconds() {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, 3_600_000_000_999L).putInt(8, 2_456_294); // 2013-01-01, 01:00:00.000000999
        assertEquals(
                "2013-01-01 01:00:00",
                io.numacube.engine.schema.Timestamps.format(ColumnCopies.int96Micros(b.array(), 0)));
        b.putLong(0, 86_399_999_999_000L).putInt(8, 2_440_587); // 1969-12-31 23:59:59.999999
        assertEquals(-1L, ColumnCopies.int96Micros(b.array(), 0));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT 1.25::DECIMAL(38,2) AS x|column x is FIXED_LEN_BYTE_ARRAY (DECIMAL(38,2))|at most 18 digits",
                "SELECT TIME '10:00:00' AS x|column x is INT64 (TIME)|",
                "SELECT [1, 2] AS x|column x is nested|",
                "SELECT 'abc'::BLOB AS x|column x is BYTE_ARRAY (binary data, not UTF-8 text)|",
            })
    void aTypeNumacubeCannotHoldIsRefusedByName(String spec, @TempDir Path dir) throws Exception {
        String[] parts = spec.split("\\|", -1);
        Path file = write(dir, parts[0] + " FROM range(3)");
        NumacubeException e = assertThrows(NumacubeException.class, () -> stage(file));
        assertTrue(e.getMessage().startsWith(file + ": " + parts[1]), e.getMessage());
        assertTrue(e.getMessage().contains(parts[2]), e.getMessage());
        assertEquals("0A000", e.code());
    }

    @Test
    void aCodecNumacubeCannotDecompressIsRefusedFromTheFooter(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("b.parquet");
        try (DuckDb duck = new DuckDb()) {
            duck.execute(
                    "COPY (SELECT i AS k FROM range(10) t(i)) TO '" + file + "' (FORMAT parquet, COMPRESSION brotli)");
        }
        NumacubeException e = assertThrows(NumacubeException.class, () -> stage(file));
        assertEquals(
                file + ": column k is compressed with BROTLI (row group 0), which numacube cannot decompress — rewrite"
                        + " the file with snappy, zstd, gzip, lz4 or no compression",
                e.getMessage());
    }

    @Test
    void aDateBeyondYear9999IsRefusedNamingTheRow(@TempDir Path dir) throws Exception {
        Path file = write(
                dir,
                "SELECT CASE WHEN i = 7 THEN DATE '10000-01-01' ELSE DATE '2024-01-01' END AS d FROM range(9) t(i)");
        NumacubeException e = assertThrows(NumacubeException.class, () -> stage(file));
        assertEquals(
                file + ": row 8 (row group 0), column d: the date +10000-01-01 is outside 0001-01-01..9999-12-31, the"
                        + " dates numacube reads and writes",
                e.getMessage());
    }

    /**
     * DuckDB writes TIMESTAMPs of years past 9999 (up to 294247), before year 1, and {@code infinity} (the largest
     * INT64): they were loaded and printed as {@code +12000-01-01 00:00:00} and {@code +294247-01-10 04:00:54.775807}.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "TIMESTAMP '12000-01-01 00:00:00'|the timestamp of 316516204800000000 µs since 1970",
                "TIMESTAMP '9999-12-31 23:59:59.999999' + INTERVAL 1 MICROSECOND|the timestamp of 253402300800000000 µs",
                "TIMESTAMP '0001-01-01 00:00:00' - INTERVAL 1 SECOND|the timestamp of -62135596801000000 µs",
                "'infinity'::TIMESTAMP|the timestamp of 9223372036854775807 µs",
                "'-infinity'::TIMESTAMP|the timestamp of -9223372036854775807 µs",
                "TIMESTAMP_MS '12000-01-01 00:00:00'|the timestamp of 316516204800000000 µs",
                "TIMESTAMP_S '12000-01-01 00:00:00'|the timestamp of 316516204800000000 µs",
                "TIMESTAMPTZ '12000-01-01 00:00:00+00'|the timestamp of 316516204800000000 µs",
            })
    void aTimestampOutsideYears1To9999IsRefusedNamingTheRow(String spec, @TempDir Path dir) throws Exception {
        String[] parts = spec.split("\\|", -1);
        Path file = write(
                dir,
                "SELECT CASE WHEN i = 7 THEN " + parts[0] + " ELSE TIMESTAMP '2024-01-01 00:00:00' END AS ts"
                        + " FROM range(9) t(i)");
        NumacubeException e = assertThrows(NumacubeException.class, () -> stage(file));
        assertTrue(e.getMessage().startsWith(file + ": row 8 (row group 0), column ts: " + parts[1]), e.getMessage());
        assertTrue(e.getMessage().endsWith("the timestamps numacube reads and writes"), e.getMessage());
    }

    @Test
    void anInt96TimestampOfAJulianDayFarFrom1970IsNoValue() {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, 0L).putInt(8, -1); // Julian day 4294967295: its microseconds leave 64 bits
        assertEquals(Long.MIN_VALUE, ColumnCopies.int96Micros(b.array(), 0));
    }

    /**
     * Text that is not UTF-8 in a UTF-8 column (DuckDB refuses to read it) was staged with U+FFFD in place of each bad
     * byte; a CSV field of such bytes is an error. Rows 2 of 3 (a value coded through the map of seen values) and
     * 9,001 of 10,000 (unique values, coded without it).
     */
    @ParameterizedTest
    @ValueSource(ints = {3, 10_000})
    void textThatIsNotUtf8IsRefusedNamingTheRow(int rows, @TempDir Path dir) throws Exception {
        int bad = rows == 3 ? 1 : 9_000;
        Path file = dir.resolve("u.parquet");
        try (DuckDb duck = new DuckDb()) {
            duck.execute("COPY (SELECT CASE WHEN i = " + bad + " THEN 'qXYZWq' ELSE 'v' || i END AS s FROM range("
                    + rows + ") t(i)) TO '" + file + "' (FORMAT parquet, COMPRESSION uncompressed)");
        }
        byte[] bytes = Files.readAllBytes(file);
        byte[] marker = "XYZW".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int i = 0; i + marker.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + marker.length, marker, 0, marker.length)) {
                bytes[i] = (byte) 0xff;
                bytes[i + 1] = (byte) 0xfe;
                bytes[i + 2] = (byte) 0xc3;
                bytes[i + 3] = (byte) 0x28;
            }
        }
        Files.write(file, bytes);
        NumacubeException e = assertThrows(NumacubeException.class, () -> stage(file));
        assertTrue(
                e.getMessage()
                        .startsWith(file + ": row " + (bad + 1) + " (row group 0), column s: not valid UTF-8 text"),
                e.getMessage());
    }

    /**
     * DuckDB writes {@code 'a' || chr(0) || 'b'} and reads it back as it is; PostgreSQL's text cannot hold a NUL (COPY:
     * 22021), psql shows such a value cut at it, and the server refuses it by every way in, so the load refuses it too,
     * naming file, row and column. It was loaded.
     */
    @ParameterizedTest
    @ValueSource(ints = {3, 10_000})
    void textWithANulIsRefusedNamingTheRow(int rows, @TempDir Path dir) throws Exception {
        int bad = rows == 3 ? 1 : 9_000;
        Path file = write(
                dir,
                "SELECT CASE WHEN i = " + bad + " THEN 'a' || chr(0) || 'b' ELSE 'v' || i END AS s" + " FROM range("
                        + rows + ") t(i)");
        NumacubeException e = assertThrows(NumacubeException.class, () -> stage(file));
        assertEquals("22021", e.code(), e.getMessage());
        assertTrue(
                e.getMessage()
                        .startsWith(file + ": row " + (bad + 1) + " (row group 0), column s: invalid byte sequence for"
                                + " encoding \"UTF8\": 0x00: the text holds a NUL character"),
                e.getMessage());
    }

    /** A blank column name (DuckDB writes {@code AS " "}) was refused without the file's name. */
    @Test
    void aBlankColumnNameIsRefusedNamingTheFile(@TempDir Path dir) throws Exception {
        Path file = write(dir, "SELECT 1 AS \" \", 2 AS b");
        NumacubeException e = assertThrows(NumacubeException.class, () -> stage(file));
        assertEquals(
                file + ": column 1 has a blank name, which SQL cannot name — name it where the file is written",
                e.getMessage());
    }

    @Test
    void aTruncatedOrForeignFileIsAnErrorNamingIt(@TempDir Path dir) throws Exception {
        Path file = write(dir, "SELECT i, i * 2 AS j FROM range(10000) t(i)");
        byte[] bytes = Files.readAllBytes(file);
        Path cut = dir.resolve("cut.parquet");
        Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        assertTrue(ParquetStagingLoader.isParquet(cut));
        NumacubeException e = assertThrows(NumacubeException.class, () -> stage(cut));
        assertTrue(e.getMessage().startsWith(cut + ": not a readable Parquet file"), e.getMessage());
        Path csv = dir.resolve("x.parquet");
        Files.writeString(csv, "a,b\n1,2\n");
        assertFalse(ParquetStagingLoader.isParquet(csv), "named .parquet, but CSV by its bytes");
    }

    private static ParquetStagingLoader.Staged stage(Path file) {
        return new ParquetStagingLoader().stage(file, "p", null, ProgressListener.NONE);
    }

    private static Path write(Path dir, String select) throws Exception {
        Path file = dir.resolve("t.parquet");
        try (DuckDb duck = new DuckDb()) {
            duck.execute("COPY (" + select + ") TO '" + file + "' (FORMAT parquet, ROW_GROUP_SIZE 10000)");
        }
        return file;
    }

    private static String declaration(TableSchema s) {
        return String.join(
                ", ",
                s.columns().stream()
                        .map(c -> c.name() + " "
                                + (c.isDecimal() ? c.typeName() : c.type().name()))
                        .toList());
    }

    private static String rows(Cube cube, String sql) {
        var r = cube.query(sql);
        List<String> rows = new java.util.ArrayList<>();
        for (int i = 0; i < r.rowCount(); i++) {
            List<Object> row = new java.util.ArrayList<>();
            for (int c = 0; c < r.columnCount(); c++) {
                row.add(r.getObject(i, c));
            }
            rows.add(row.toString());
        }
        return rows.toString();
    }
}
