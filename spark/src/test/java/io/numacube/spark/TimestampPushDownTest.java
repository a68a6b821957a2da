package io.numacube.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TIMESTAMP and DATE columns through the connector, against two real {@code serve --shard} processes: filters on
 * them pushed to the shards (the plan's SQL holds the literal, every microsecond, and Spark applies no filter after
 * the scan) with answers equal to Spark's own over a CSV copy of the same rows, and appends of timestamps and dates
 * read back equal to what was appended, microseconds kept, or refused naming the column and row when numacube cannot
 * hold them. The session time zone is not UTC, so that a time zone applied anywhere would show.
 */
class TimestampPushDownTest {

    private static final String CSV_SCHEMA = "desk STRING, ts TIMESTAMP_NTZ, d DATE, n BIGINT";
    private static final java.time.format.DateTimeFormatter TEXT =
            java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
    private static final List<ServeProcess> shards = new ArrayList<>();
    private static SparkSession spark;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        Path events = dir.resolve("events.csv");
        Files.writeString(events, rows(500, new Random(23)));
        Path ticks = dir.resolve("ticks.csv");
        Files.writeString(ticks, Files.readString(events).replaceAll("(?m)^[^,]*,", ""));
        Path log = dir.resolve("log.csv");
        Files.writeString(
                log,
                "desk,ts,d,n\nDESK-01,2024-01-01 00:00:00.000001,2024-01-01,1\n"
                        + "DESK-02,1969-12-31 23:59:59.999999,1969-12-31,2\n");
        Path lines = dir.resolve("lines.csv");
        Files.writeString(lines, lines(300, new Random(29)));
        List<CompletableFuture<ServeProcess>> starting = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            starting.add(ServeProcess.start(
                    "timestamp-shard" + i,
                    List.of(
                            "--table", "events=" + events,
                            "--table", "log=" + log,
                            "--table", "ticks=" + ticks,
                            "--table", "lines=" + lines,
                            "--types", "lines.placed=TIMESTAMP",
                            "--types", "lines.shipped=TIMESTAMP",
                            "--types", "lines.due=DATE",
                            "--types", "lines.delivered=DATE",
                            "--types", "ticks.ts=TIMESTAMP",
                            "--types", "ticks.d=DATE",
                            "--types", "events.ts=TIMESTAMP",
                            "--types", "events.d=DATE",
                            "--types", "log.ts=TIMESTAMP",
                            "--types", "log.d=DATE",
                            "--shard", i + "/2",
                            "--shard-key", "desk")));
        }
        for (var s : starting) {
            shards.add(s.get());
        }
        spark = SparkSession.builder()
                .master("local[2]")
                .appName("numacube-timestamp-test")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.session.timeZone", "America/Los_Angeles")
                .getOrCreate();
        numacube("events").load().createOrReplaceTempView("events");
        csv(events).createOrReplaceTempView("events_csv");
        numacube("ticks").load().createOrReplaceTempView("ticks");
        csv(ticks, "ts TIMESTAMP_NTZ, d DATE, n BIGINT").createOrReplaceTempView("ticks_csv");
        csv(log).createOrReplaceTempView("log_csv");
        numacube("lines").load().createOrReplaceTempView("lines");
        csv(lines, "desk STRING, placed TIMESTAMP_NTZ, shipped TIMESTAMP_NTZ, due DATE, delivered DATE, n BIGINT")
                .createOrReplaceTempView("lines_csv");
    }

    private static DataFrameReader numacube(String table) {
        return spark.read().format("numacube").options(options(table));
    }

    private static java.util.Map<String, String> options(String table) {
        return java.util.Map.of(
                "shards",
                String.join(
                        ",", shards.stream().map(s -> s.address().toString()).toList()),
                "table",
                table);
    }

    private static Dataset<Row> csv(Path file) {
        return csv(file, CSV_SCHEMA);
    }

    private static Dataset<Row> csv(Path file, String schema) {
        return spark.read()
                .schema(schema)
                .option("header", "true")
                .option("timestampNTZFormat", "yyyy-MM-dd HH:mm:ss.SSSSSS")
                .csv(file.toString());
    }

    /**
     * {@code n} rows: 8 desks (the shard key), timestamps with every microsecond over four months of 2024 (some
     * repeated, some NULL, one before 1970, the first and the last numacube holds), their dates.
     */
    private static String rows(int n, Random r) {
        StringBuilder csv = new StringBuilder("desk,ts,d,n\n");
        LocalDateTime base = LocalDateTime.of(2024, 1, 1, 0, 0);
        for (int i = 0; i < n; i++) {
            LocalDateTime t = base.plusNanos(r.nextLong(120L * 86_400_000_000L) * 1_000);
            if (i % 50 == 7) {
                t = LocalDateTime.of(2024, 2, 10, 8, 30, 0, 123_456_000);
            } else if (i == 11) {
                t = LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000);
            } else if (i == 12) {
                t = LocalDateTime.of(1, 1, 1, 0, 0);
            } else if (i == 13) {
                t = LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000);
            }
            String ts = i % 37 == 5 ? "" : TEXT.format(t);
            String d = i % 37 == 5 ? "" : t.toLocalDate().toString();
            csv.append("DESK-0")
                    .append(i % 8)
                    .append(',')
                    .append(ts)
                    .append(',')
                    .append(d)
                    .append(',')
                    .append(i)
                    .append('\n');
        }
        return csv.toString();
    }

    /**
     * {@code n} order lines: 8 desks, placed at a microsecond of 2024, shipped up to 2 days before (a data error kept)
     * or 10 days after, due 5 days after placing, delivered the day of shipping or later; some NULL.
     */
    private static String lines(int n, Random r) {
        StringBuilder csv = new StringBuilder("desk,placed,shipped,due,delivered,n\n");
        for (int i = 0; i < n; i++) {
            LocalDateTime placed =
                    LocalDateTime.of(2024, 1, 1, 0, 0).plusNanos(r.nextLong(366L * 86_400_000_000L) * 1_000);
            LocalDateTime shipped =
                    placed.plusNanos((r.nextLong(12L * 86_400_000_000L) - 2L * 86_400_000_000L) * 1_000);
            if (i % 60 == 3) {
                shipped = placed;
            }
            java.time.LocalDate delivered = shipped.toLocalDate().plusDays(r.nextInt(6));
            csv.append("DESK-0").append(i % 8).append(',');
            csv.append(i % 31 == 4 ? "" : TEXT.format(placed)).append(',');
            csv.append(i % 29 == 6 ? "" : TEXT.format(shipped)).append(',');
            csv.append(placed.toLocalDate().plusDays(5)).append(',');
            csv.append(i % 23 == 8 ? "" : delivered.toString()).append(',');
            csv.append(i).append('\n');
        }
        return csv.toString();
    }

    @AfterAll
    static void stop() throws Exception {
        if (spark != null) {
            spark.stop();
        }
        for (ServeProcess s : shards) {
            s.close();
        }
    }

    /** The plan of {@code sql} over the shards, after asserting its answer equals Spark's over the CSV copy. */
    private static String planAfterSameAnswer(String sql) {
        Dataset<Row> df = spark.sql(sql);
        List<String> expected = exact(spark.sql(sql.replaceAll("FROM (events|ticks|lines)\\b", "FROM $1_csv")));
        assertEquals(expected, exact(df), sql);
        assertFalse(expected.isEmpty(), "a test query that keeps rows: " + sql);
        return df.queryExecution().executedPlan().toString();
    }

    private static List<String> exact(Dataset<Row> df) {
        List<String> lines = new ArrayList<>();
        for (Row r : df.collectAsList()) {
            lines.add(r.toString());
        }
        lines.sort(null);
        return lines;
    }

    /** Asserts that the shards' SQL holds {@code condition} and that Spark filters nothing after the scan. */
    private static void pushed(String plan, String condition) {
        assertTrue(plan.contains(condition), "the shards evaluate " + condition + ": " + plan);
        assertFalse(plan.contains("Filter ("), "Spark applies no filter after the scan: " + plan);
    }

    @Test
    void comparisonsWithTimestampLiteralsArePushedToEveryMicrosecond() {
        pushed(
                planAfterSameAnswer(
                        "SELECT desk, ts, n FROM events WHERE ts > TIMESTAMP_NTZ '2024-03-01 12:00:00.000001'"),
                "(\"ts\" > TIMESTAMP '2024-03-01 12:00:00.000001')");
        pushed(
                planAfterSameAnswer("SELECT n, ts FROM events WHERE ts = TIMESTAMP_NTZ '2024-02-10 08:30:00.123456'"),
                "(\"ts\" = TIMESTAMP '2024-02-10 08:30:00.123456')");
        pushed(
                planAfterSameAnswer("SELECT n FROM events WHERE ts <= '1970-01-01 00:00:00' OR ts >= '9999-12-31'"),
                "(\"ts\" <= TIMESTAMP '1970-01-01 00:00:00.000000') OR (\"ts\" >= TIMESTAMP '9999-12-31 00:00:00.000000')");
        pushed(
                planAfterSameAnswer("SELECT n FROM events WHERE ts IN (TIMESTAMP_NTZ '2024-02-10 08:30:00.123456',"
                        + " TIMESTAMP_NTZ '0001-01-01 00:00:00')"),
                "\"ts\" IN (TIMESTAMP '2024-02-10 08:30:00.123456', TIMESTAMP '0001-01-01 00:00:00.000000')");
        pushed(planAfterSameAnswer("SELECT n, d FROM events WHERE ts IS NULL"), "\"ts\" IS NULL");
    }

    @Test
    void rangesOfTimestampsAndDatesArePushedTogether() {
        String plan = planAfterSameAnswer("SELECT desk, COUNT(*), MIN(ts), MAX(ts) FROM events WHERE ts BETWEEN"
                + " TIMESTAMP_NTZ '2024-01-15 00:00:00' AND TIMESTAMP_NTZ '2024-02-15 23:59:59.999999'"
                + " AND d <> DATE '2024-02-01' GROUP BY desk");
        pushed(plan, "(\"ts\" <= TIMESTAMP '2024-02-15 23:59:59.999999')");
        pushed(plan, "(NOT (\"d\" = DATE '2024-02-01'))");
        pushed(
                planAfterSameAnswer("SELECT n FROM events WHERE ts < DATE '2024-01-10'"),
                "TIMESTAMP '2024-01-10 00:00:00.000000'");
    }

    /**
     * Two TIMESTAMP or two DATE columns of a row compared (TPC-H's {@code l_commitdate < l_receiptdate}): pushed as
     * they are, so that an aggregate over what passes is pushed too.
     */
    @Test
    void comparisonsOfTwoColumnsArePushed() {
        pushed(
                planAfterSameAnswer("SELECT desk, n FROM lines WHERE shipped > placed AND delivered <= due"),
                "(\"shipped\" > \"placed\")");
        pushed(
                planAfterSameAnswer("SELECT n FROM lines WHERE shipped = placed OR delivered <> due"),
                "(\"shipped\" = \"placed\") OR (NOT (\"delivered\" = \"due\"))");
        String plan = planAfterSameAnswer(
                "SELECT desk, COUNT(*), MIN(shipped) FROM lines WHERE delivered > due AND placed < shipped GROUP BY desk");
        pushed(plan, "(\"delivered\" > \"due\")");
        assertTrue(plan.contains("PushedAggregates: [COUNT(*), MIN(\"shipped\")]"), plan);
    }

    /**
     * A TIMESTAMP literal (with time zone) compared with a numacube TIMESTAMP (Spark's TIMESTAMP_NTZ): Spark casts the
     * literal to the session time zone's wall time, and that comparison is pushed; the answer is Spark's own.
     */
    @Test
    void aTimestampWithTimeZoneAnswersAsSparkDoes() {
        pushed(
                planAfterSameAnswer("SELECT n, ts FROM events WHERE ts > TIMESTAMP '2024-03-01 12:00:00.5'"),
                "(\"ts\" > TIMESTAMP '2024-03-01 12:00:00.500000')");
        pushed(
                planAfterSameAnswer(
                        "SELECT n FROM events WHERE ts < current_timestamp() AND ts >= TIMESTAMP '2024-04-01'"),
                "(\"ts\" >= TIMESTAMP '2024-04-01 00:00:00.000000')");
    }

    /**
     * A table held whole is read from one server: there an OFFSET is exact, and it goes to that server's SQL. Over
     * shards it is not: Spark applies it, each shard sending its first LIMIT + OFFSET rows.
     */
    @Test
    void anOffsetIsPushedWhereOneServerAnswersAndLeftToSparkOverShards() {
        String sharded = planAfterSameAnswer("SELECT ts, n FROM events ORDER BY ts NULLS FIRST, n LIMIT 5 OFFSET 20");
        assertTrue(sharded.contains("TakeOrderedAndProject(limit=25, offset=20"), sharded);
        assertTrue(sharded.contains("NULLS FIRST LIMIT 25 RuntimeFilters"), "no OFFSET in the shards' SQL: " + sharded);
        String plan = planAfterSameAnswer("SELECT ts, n FROM ticks ORDER BY ts NULLS FIRST, n LIMIT 5 OFFSET 20");
        assertTrue(plan.contains("ORDER BY \"ts\" ASC NULLS FIRST, \"n\" ASC NULLS FIRST LIMIT 5 OFFSET 20"), plan);
        assertFalse(plan.contains("TakeOrderedAndProject"), "the server's rows are the answer: " + plan);
        plan = planAfterSameAnswer("SELECT n, ts FROM ticks WHERE ts >= TIMESTAMP_NTZ '2024-02-10 08:30:00.123456'"
                + " ORDER BY n DESC LIMIT 4 OFFSET 3");
        assertTrue(plan.contains("ORDER BY \"n\" DESC NULLS LAST LIMIT 4 OFFSET 3"), plan);
        Dataset<Row> skipped = spark.table("ticks").select("n").offset(480);
        assertTrue(plan(skipped).contains("SQL: SELECT \"n\" FROM \"ticks\" OFFSET 480"), plan(skipped));
        assertEquals(20, skipped.collectAsList().size(), "500 rows less 480");
    }

    private static String plan(Dataset<Row> df) {
        return df.queryExecution().executedPlan().toString().strip();
    }

    @Test
    void appendedTimestampsAndDatesReadBackEqualToEveryMicrosecond() {
        Dataset<Row> rows = spark.sql("SELECT * FROM VALUES"
                + " ('DESK-03', TIMESTAMP_NTZ '2024-05-06 07:08:09.123456', DATE '2024-05-06', 10L),"
                + " ('DESK-04', TIMESTAMP_NTZ '1969-12-31 23:59:59.000001', DATE '1969-12-31', 11L),"
                + " ('DESK-05', TIMESTAMP_NTZ '0001-01-01 00:00:00', DATE '0001-01-01', 12L),"
                + " ('DESK-06', TIMESTAMP_NTZ '9999-12-31 23:59:59.999999', DATE '9999-12-31', 13L),"
                + " ('DESK-07', CAST(NULL AS TIMESTAMP_NTZ), CAST(NULL AS DATE), 14L)"
                + " AS t(desk, ts, d, n)");
        rows.repartition(2)
                .write()
                .format("numacube")
                .options(options("log"))
                .mode("append")
                .save();
        Dataset<Row> zoned = spark.sql("SELECT 'DESK-08' AS desk, TIMESTAMP '2024-07-01 01:02:03.456789' AS ts,"
                + " CAST(TIMESTAMP '2024-07-01 01:02:03' AS DATE) AS d, 15L AS n");
        zoned.write().format("numacube").options(options("log")).mode("append").save();
        Dataset<Row> expected = spark.table("log_csv")
                .unionAll(rows)
                .unionAll(zoned.selectExpr("desk", "CAST(ts AS TIMESTAMP_NTZ)", "d", "n"));
        assertEquals(exact(expected), exact(numacube("log").load()));
    }

    @Test
    void aTimestampOrDateNumacubeCannotHoldIsRefusedNamingColumnAndRow() {
        long before = numacube("log").load().count();
        Dataset<Row> late = spark.sql("SELECT * FROM VALUES ('DESK-03', TIMESTAMP_NTZ '2024-05-06 07:08:09', 1L),"
                        + " ('DESK-04', TIMESTAMP_NTZ '9999-12-31 23:59:59.999999' + INTERVAL 1 DAY, 2L)"
                        + " AS t(desk, ts, n)")
                .coalesce(1);
        String message = refusal(late);
        assertTrue(
                message.contains("cannot append row 2 of Spark partition 0 to table log: column ts holds"
                        + " +10000-01-01T23:59:59.999999, outside the years 0001 to 9999 of numacube's TIMESTAMP"),
                message);
        Dataset<Row> early = spark.sql("SELECT 'DESK-05' AS desk, DATE '0001-01-01' - 1 AS d")
                .coalesce(1);
        message = refusal(early);
        assertTrue(message.contains("row 1 of Spark partition 0 to table log: column d holds 0000-12-31"), message);
        assertEquals(before, numacube("log").load().count(), "nothing of a refused task is appended");
    }

    private static String refusal(Dataset<Row> rows) {
        Exception e = assertThrows(
                Exception.class,
                () -> rows.write()
                        .format("numacube")
                        .options(options("log"))
                        .mode("append")
                        .save());
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }
}
