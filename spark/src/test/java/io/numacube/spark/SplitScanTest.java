package io.numacube.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan split into ranges of a column ({@code partitionColumn}, {@code numPartitions}, as Spark's JDBC source), over
 * two real {@code serve --shard} processes: one Spark partition per range of each shard, each holding only its range's
 * rows, their union every row once (NULLs and values outside the bounds included), equal to Spark's own answer over a
 * CSV copy; not split where an aggregate or a LIMIT is pushed; options that cannot split refused by name.
 */
class SplitScanTest {

    private static final String CSV_SCHEMA = "desk STRING, ts TIMESTAMP_NTZ, d DATE, n BIGINT";
    private static final int ROWS = 600;
    private static final java.time.format.DateTimeFormatter TEXT =
            java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
    private static final List<ServeProcess> shards = new ArrayList<>();
    private static SparkSession spark;
    private static Dataset<Row> csv;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        Path events = dir.resolve("events.csv");
        Files.writeString(events, rows(new Random(41)));
        Path whole = dir.resolve("whole.csv");
        Files.writeString(whole, Files.readString(events).replaceAll("(?m)^[^,]*,", ""));
        List<CompletableFuture<ServeProcess>> starting = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            starting.add(ServeProcess.start(
                    "split-shard" + i,
                    List.of(
                            "--table", "events=" + events,
                            "--table", "whole=" + whole,
                            "--types", "events.ts=TIMESTAMP",
                            "--types", "whole.ts=TIMESTAMP",
                            "--types", "events.d=DATE",
                            "--types", "whole.d=DATE",
                            "--shard", i + "/2",
                            "--shard-key", "desk")));
        }
        for (var s : starting) {
            shards.add(s.get());
        }
        spark = SparkSession.builder()
                .master("local[2]")
                .appName("numacube-split-test")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.session.timeZone", "America/Los_Angeles")
                .getOrCreate();
        csv = spark.read()
                .schema(CSV_SCHEMA)
                .option("header", "true")
                .option("timestampNTZFormat", "yyyy-MM-dd HH:mm:ss.SSSSSS")
                .csv(events.toString());
    }

    /**
     * {@link #ROWS} rows: 8 desks (the shard key, "whole" has none: it is held whole), timestamps over 2024 with every
     * microsecond (some NULL, one in year 0001 and one in 9999), their dates, and n from -300 with some NULL.
     */
    private static String rows(Random r) {
        StringBuilder csv = new StringBuilder("desk,ts,d,n\n");
        for (int i = 0; i < ROWS; i++) {
            LocalDateTime t = LocalDateTime.of(2024, 1, 1, 0, 0).plusNanos(r.nextLong(366L * 86_400_000_000L) * 1_000);
            if (i == 3) {
                t = LocalDateTime.of(1, 1, 1, 0, 0);
            } else if (i == 4) {
                t = LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000);
            }
            boolean nullTime = i % 41 == 9;
            csv.append("DESK-0").append(i % 8).append(',');
            csv.append(nullTime ? "" : TEXT.format(t)).append(',');
            csv.append(nullTime ? "" : t.toLocalDate().toString()).append(',');
            csv.append(i % 53 == 10 ? "" : Long.toString(i - 300)).append('\n');
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

    private static Dataset<Row> numacube(String table, String... options) {
        Map<String, String> all = new HashMap<>();
        all.put(
                "shards",
                String.join(
                        ",", shards.stream().map(s -> s.address().toString()).toList()));
        all.put("table", table);
        for (int i = 0; i < options.length; i += 2) {
            all.put(options[i], options[i + 1]);
        }
        return spark.read().format("numacube").options(all).load();
    }

    private static List<String> exact(Dataset<Row> df) {
        List<String> lines = new ArrayList<>();
        for (Row r : df.collectAsList()) {
            lines.add(r.toString());
        }
        lines.sort(null);
        return lines;
    }

    /** The rows each Spark partition of {@code df} read, in partition order. */
    private static List<Integer> rowsPerPartition(Dataset<Row> df) {
        return df.javaRDD()
                .mapPartitions(rows -> {
                    int n = 0;
                    for (; rows.hasNext(); rows.next()) {
                        n++;
                    }
                    return List.of(n).iterator();
                })
                .collect();
    }

    private static String plan(Dataset<Row> df) {
        return df.queryExecution().executedPlan().toString();
    }

    /** Asserts that {@code df} reads in {@code partitions} ranges, none holding a whole shard, and answers as Spark. */
    private static void splitAndSame(Dataset<Row> df, Dataset<Row> expected, int partitions) {
        assertEquals(exact(expected), exact(df));
        List<Integer> sizes = rowsPerPartition(df);
        assertEquals(partitions, sizes.size(), "Spark partitions: " + sizes + " " + plan(df));
        assertEquals(
                expected.count(), sizes.stream().mapToLong(Integer::longValue).sum(), "every row once");
        assertTrue(sizes.stream().allMatch(n -> n < expected.count() / 3), "no range holds a whole shard: " + sizes);
    }

    @Test
    void aScanSplitByAnIntegerColumnReadsEachRangeOnceWithItsNulls() {
        Dataset<Row> df = numacube("events", "partitionColumn", "n", "numPartitions", "4");
        splitAndSame(df, csv, 8);
        assertTrue(plan(df).contains("Split: 4 ranges of n per shard (between each shard's MIN and MAX)"), plan(df));
        Dataset<Row> bounded = numacube(
                "events", "partitionColumn", "N", "numPartitions", "3", "lowerBound", "-100", "upperBound", "50");
        splitAndSame(bounded, csv, 6);
        assertTrue(plan(bounded).contains("Split: 3 ranges of n per shard (cut between -100 and 50)"), plan(bounded));
    }

    @Test
    void aScanSplitByTimestampOrDateKeepsEveryMicrosecondAndTheFiltersPushed() {
        Dataset<Row> ts = numacube(
                        "events",
                        "partitionColumn",
                        "ts",
                        "numPartitions",
                        "4",
                        "lowerBound",
                        "2024-01-01",
                        "upperBound",
                        "2024-12-31 23:59:59.999999")
                .where("n >= -200");
        splitAndSame(ts, csv.where("n >= -200"), 8);
        assertTrue(plan(ts).contains("(\"n\" >= -200)") && !plan(ts).contains("Filter ("), plan(ts));
        Dataset<Row> days = numacube(
                "whole",
                "partitionColumn",
                "d",
                "numPartitions",
                "5",
                "lowerBound",
                "2024-01-01",
                "upperBound",
                "2025-01-01");
        splitAndSame(days, csv.drop("desk"), 5);
        assertTrue(plan(days).contains("cut between DATE '2024-01-01' and DATE '2025-01-01'"), plan(days));
    }

    /** An aggregate or a LIMIT pushed to the shards answers few rows: one query per shard, as without the option. */
    @Test
    void pushedAggregatesAndLimitsAreNotSplit() {
        Dataset<Row> sums = numacube("events", "partitionColumn", "n", "numPartitions", "4")
                .groupBy("desk")
                .sum("n");
        assertEquals(exact(csv.groupBy("desk").sum("n")), exact(sums));
        assertTrue(plan(sums).contains("PushedAggregates") && !plan(sums).contains("Split:"), plan(sums));
        Dataset<Row> some =
                numacube("whole", "partitionColumn", "n", "numPartitions", "4").limit(7);
        assertEquals(7, some.collectAsList().size());
        assertTrue(plan(some).contains("PushedLimit: LIMIT 7") && !plan(some).contains("Split:"), plan(some));
    }

    @Test
    void optionsThatCannotSplitAreRefusedByName() {
        assertEquals(
                "numacube: partitionColumn=desk is a STRING column: a scan splits by a BIGINT, DATE or TIMESTAMP column",
                refusal("partitionColumn", "desk", "numPartitions", "2"));
        assertTrue(refusal("partitionColumn", "nope", "numPartitions", "2")
                .startsWith("numacube: partitionColumn=nope is not a column of the table: [desk, ts, d, n]"));
        assertTrue(refusal("partitionColumn", "n").contains("needs numPartitions"));
        assertTrue(refusal("partitionColumn", "n", "numPartitions", "2", "lowerBound", "1")
                .contains("give lowerBound and upperBound together"));
        assertEquals(
                "numacube: lowerBound=0000-12-31 is not a DATE of the years 0001 to 9999 (e.g. 2024-01-01)",
                refusal(
                        "partitionColumn",
                        "d",
                        "numPartitions",
                        "2",
                        "lowerBound",
                        "0000-12-31",
                        "upperBound",
                        "2024-01-01"));
    }

    private static String refusal(String... options) {
        return assertThrows(
                        IllegalArgumentException.class,
                        () -> numacube("events", options).collectAsList())
                .getMessage();
    }
}
