package io.numacube.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * Aggregates of DECIMAL (and DOUBLE) columns and of arithmetic over them pushed to two real {@code serve --shard} processes where
 * both engines give the same exact value, and left to Spark where they would not; every answer compared with Spark
 * itself over a CSV copy of the same rows (its own exact decimal arithmetic), as exact text.
 */
class DecimalPushDownTest {

    private static final List<ServeProcess> shards = new ArrayList<>();
    private static SparkSession spark;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        Path csv = dir.resolve("lots.csv");
        Files.writeString(csv, rows(600, new Random(17)));
        List<CompletableFuture<ServeProcess>> starting = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            starting.add(ServeProcess.start(
                    "decimal-shard" + i,
                    List.of(
                            "--table",
                            "lots=" + csv,
                            "--types",
                            "lots.qty=DECIMAL(10,2)",
                            "--types",
                            "lots.price=DECIMAL(12,4)",
                            "--types",
                            "lots.w=DOUBLE",
                            "--shard",
                            i + "/2",
                            "--shard-key",
                            "desk")));
        }
        for (var s : starting) {
            shards.add(s.get());
        }
        spark = SparkSession.builder()
                .master("local[2]")
                .appName("numacube-decimal-test")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .getOrCreate();
        spark.read()
                .format("numacube")
                .option(
                        "shards",
                        String.join(
                                ",",
                                shards.stream().map(s -> s.address().toString()).toList()))
                .option("table", "lots")
                .load()
                .createOrReplaceTempView("lots");
        spark.read()
                .schema("desk STRING, grp STRING, qty DECIMAL(10,2), price DECIMAL(12,4), w DOUBLE")
                .option("header", "true")
                .csv(csv.toString())
                .createOrReplaceTempView("lots_csv");
    }

    /** {@code n} rows: 10 desks (the shard key), 3 groups across them, quantities and prices with all their digits. */
    private static String rows(int n, Random r) {
        StringBuilder csv = new StringBuilder("desk,grp,qty,price,w\n");
        for (int i = 0; i < n; i++) {
            BigDecimal qty = BigDecimal.valueOf(r.nextLong(-99_999, 99_999), 2);
            BigDecimal price = BigDecimal.valueOf(r.nextLong(1, 99_999_999), 4);
            csv.append("DESK-0")
                    .append(i % 10)
                    .append(',')
                    .append("abc".charAt(r.nextInt(3)))
                    .append(',')
                    .append(qty.toPlainString())
                    .append(',')
                    .append(price.toPlainString())
                    .append(',')
                    .append(r.nextInt(-4_000, 4_000) / 4.0)
                    .append('\n');
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
        assertEquals(exact(spark.sql(sql.replace("FROM lots", "FROM lots_csv"))), exact(df), sql);
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

    @Test
    void aPartialSumOfDecimalArithmeticIsPushedWhereSparkCastsItLosslessly() {
        String plan = planAfterSameAnswer("SELECT grp, SUM(qty * price), SUM(qty * price - qty), MIN(qty * price),"
                + " MAX(qty + qty), COUNT(*) FROM lots GROUP BY grp");
        assertTrue(
                plan.contains("PushedAggregates: [SUM((\"qty\" * \"price\")), SUM(((\"qty\" * \"price\") - \"qty\")),"
                        + " MIN((\"qty\" * \"price\")), MAX((\"qty\" + \"qty\")), COUNT(*)]"),
                plan);
        assertTrue(plan.contains("partial_sum(cast(agg_func_0#"), "Spark adds the shards' partial sums: " + plan);
    }

    /** Quarters: every sum of them is exact in a double, in any order, so the answers compare as text. */
    @Test
    void doubleArithmeticWithADoubleLiteralIsPushedAsDouble() {
        String plan = planAfterSameAnswer("SELECT grp, SUM(w * 2.5), SUM(w - w), MAX(w + w) FROM lots GROUP BY grp");
        assertTrue(
                plan.contains("PushedAggregates: [SUM((\"w\" * CAST(2.5 AS DOUBLE))), SUM((\"w\" - \"w\")),"
                        + " MAX((\"w\" + \"w\"))]"),
                plan);
    }

    @Test
    void aPartialSumOfANarrowDecimalStaysWithSpark() {
        String plan = planAfterSameAnswer("SELECT grp, SUM(qty) FROM lots GROUP BY grp");
        assertFalse(plan.contains("PushedAggregates"), "a shard's sum of DECIMAL(10,2) may not fit it: " + plan);
        plan = planAfterSameAnswer("SELECT grp, AVG(price) FROM lots GROUP BY grp");
        assertFalse(plan.contains("PushedAggregates"), "an AVG of DECIMAL(12,4) needs its partial sums: " + plan);
    }

    @Test
    void groupedByTheShardKeyASumOfADecimalColumnIsPushedWhole() {
        String plan =
                planAfterSameAnswer("SELECT desk, SUM(qty), SUM(price * qty), MAX(price) FROM lots GROUP BY desk");
        assertTrue(plan.contains("PushedAggregates: [SUM(\"qty\"), SUM((\"price\" * \"qty\")), MAX(\"price\")]"), plan);
        assertFalse(plan.contains("HashAggregate"), "each shard's groups are final: " + plan);
    }

    @Test
    void groupedByTheShardKeyAnAverageOfADecimalArrivesAsSumAndCountThatSparkDividesExactly() {
        String plan = planAfterSameAnswer("SELECT desk, AVG(price), AVG(qty * price) FROM lots GROUP BY desk");
        assertTrue(plan.contains("PushedAggregates: [COUNT(\"price\"), SUM(\"price\"),"), plan);
        assertTrue(plan.contains("decimaldividewithoverflowcheck"), "Spark divides the exact sum: " + plan);
    }
}
