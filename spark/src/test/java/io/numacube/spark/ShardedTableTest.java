package io.numacube.spark;

import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.upper;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark in local mode ({@code local[2]}) over 2 real {@code numacube serve --shard I/2 --data-dir} processes, read
 * through {@code format("numacube")} and through the catalog {@code nc} ({@link NumacubeCatalog}), every answer
 * compared with a third, unsharded server holding the same generated data (and given the same appends; it also holds
 * a table {@code extra} the shards do not). The last tests restart, change or kill the shards, hence the order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ShardedTableTest {

    private static final List<String> DATA = List.of("--generate", "6000", "--seed", "11");

    private static final java.time.Duration THIRTY_SECONDS = java.time.Duration.ofSeconds(30);
    private static final List<ServeProcess> shards = new ArrayList<>();
    private static ServeProcess whole;
    private static SparkSession spark;

    @TempDir
    static Path dataDirs;

    @BeforeAll
    static void start() throws Exception {
        List<CompletableFuture<ServeProcess>> starting = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            List<String> args = new ArrayList<>(DATA);
            args.addAll(List.of("--shard", i + "/2", "--shard-key", "desk", "--data-dir", dataDir(i)));
            starting.add(ServeProcess.start("shard" + i, args));
        }
        Path extra = dataDirs.resolve("extra.csv");
        Files.writeString(extra, "id,name\n1,a\n");
        List<String> wholeArgs = new ArrayList<>(DATA);
        wholeArgs.addAll(List.of("--table", "extra=" + extra));
        CompletableFuture<ServeProcess> reference = ServeProcess.start("whole", wholeArgs);
        for (var s : starting) {
            shards.add(s.get());
        }
        whole = reference.get();
        spark = SparkSession.builder()
                .master("local[2]")
                .appName("numacube-spark-test")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .getOrCreate();
        catalog("nc", shardList());
    }

    private static String dataDir(int shard) {
        return dataDirs.resolve("shard" + shard).toString();
    }

    /** Declares catalog {@code name} over {@code shardList}: a catalog keeps the addresses of its first use. */
    private static void catalog(String name, String shardList) {
        spark.conf().set("spark.sql.catalog." + name, NumacubeCatalog.class.getName());
        spark.conf().set("spark.sql.catalog." + name + ".shards", shardList);
    }

    @AfterAll
    static void stop() throws Exception {
        if (spark != null) {
            spark.stop();
        }
        for (ServeProcess s : shards) {
            s.close();
        }
        if (whole != null) {
            whole.close();
        }
    }

    private static String shardList() {
        return String.join(",", shards.stream().map(s -> s.address().toString()).toList());
    }

    private static Dataset<Row> table(String name) {
        return spark.read()
                .format("numacube")
                .option("shards", shardList())
                .option("table", name)
                .load();
    }

    private static String plan(Dataset<Row> df) {
        return df.queryExecution().executedPlan().toString();
    }

    @Test
    @Order(1)
    void aGroupedAggregateIsPushedToEachShardAndMergedBySpark() throws Exception {
        Dataset<Row> df = table("trades")
                .groupBy("currency")
                .agg(sum("pnl"), count(lit(1)), min("trade_date"), max("notional"), avg("pnl"), sum("trade_id"));
        String plan = plan(df);
        assertTrue(
                plan.contains("PushedAggregates: [SUM(\"pnl\"), COUNT(*), MIN(\"trade_date\"), MAX(\"notional\"),"
                        + " COUNT(\"pnl\"), SUM(\"trade_id\")], PushedGroupBy: [\"currency\"]"),
                plan);
        assertTrue(plan.contains("partial_sum(agg_func_0"), "Spark merges the shards' partial sums: " + plan);
        assertEquals(2, table("trades").rdd().getNumPartitions(), "one Spark partition per shard");
        assertEquals(1, table("fx").rdd().getNumPartitions(), "a table held whole is read from one shard");
        assertEquals(
                Answers.reference(
                        whole.address(),
                        "SELECT currency, SUM(pnl), COUNT(*), MIN(trade_date), MAX(notional), AVG(pnl), SUM(trade_id)"
                                + " FROM trades GROUP BY currency"),
                Answers.of(df.collectAsList()));
    }

    @Test
    @Order(1)
    void groupedByTheShardKeyEachShardAnswersFinalGroupsAndSparkMergesNothing() throws Exception {
        Dataset<Row> df = table("trades").groupBy("desk", "book").agg(avg("pnl"), count(lit(1)), max("trade_date"));
        String plan = plan(df);
        assertTrue(plan.contains("PushedAggregates: [AVG(\"pnl\"), COUNT(*), MAX(\"trade_date\")]"), plan);
        assertTrue(!plan.contains("HashAggregate"), "no aggregation left to Spark: " + plan);
        assertEquals(
                Answers.reference(
                        whole.address(),
                        "SELECT desk, book, AVG(pnl), COUNT(*), MAX(trade_date) FROM trades GROUP BY desk, book"),
                Answers.of(df.collectAsList()));
    }

    @Test
    @Order(2)
    void sparkSqlOverTheShardsAnswersAsOneServer() throws Exception {
        table("trades").createOrReplaceTempView("trades");
        String sql = "SELECT currency, COUNT(*), SUM(notional) FROM trades WHERE trade_date >= DATE '2024-06-01'"
                + " GROUP BY currency";
        Dataset<Row> df = spark.sql(sql);
        assertTrue(plan(df).contains("PushedAggregates"), plan(df));
        assertEquals(Answers.reference(whole.address(), sql), Answers.of(df.collectAsList()));
    }

    @Test
    @Order(2)
    void theCatalogListsTheShardsTablesAndAnswersSqlByNameWithThePushDowns() throws Exception {
        assertEquals(
                List.of("books", "fx", "trades"),
                spark.sql("SHOW TABLES IN nc").select("tableName").collectAsList().stream()
                        .map(r -> r.getString(0))
                        .sorted()
                        .toList());
        String sql = "SELECT currency, COUNT(*), SUM(notional) FROM %s WHERE trade_date >= DATE '2024-06-01'"
                + " AND desk IN ('DESK-01', 'DESK-02', 'DESK-03') GROUP BY currency";
        Dataset<Row> df = spark.sql(sql.formatted("nc.trades"));
        String plan = plan(df);
        assertTrue(
                plan.contains("PushedAggregates: [COUNT(*), SUM(\"notional\")], PushedGroupBy: [\"currency\"]"), plan);
        assertTrue(
                plan.contains("PushedFilters: [\"trade_date\" IS NOT NULL, \"trade_date\" >= DATE '2024-06-01',"
                        + " \"desk\" IN ('DESK-01', 'DESK-02', 'DESK-03')]"),
                plan);
        assertEquals(Answers.reference(whole.address(), sql.formatted("trades")), Answers.of(df.collectAsList()));
        var e = assertThrows(
                Exception.class, () -> spark.sql("SELECT * FROM nc.nosuch").collectAsList());
        assertTrue(rootMessage(e).contains("TABLE_OR_VIEW_NOT_FOUND"), rootMessage(e));
    }

    @Test
    @Order(2)
    void aCatalogOverServersThatHoldOtherTablesIsAClearErrorNamingTheServer() {
        catalog("mixed", shards.get(0).address() + "," + whole.address());
        var e = assertThrows(
                Exception.class, () -> spark.sql("SHOW TABLES IN mixed").collectAsList());
        assertEquals(
                "numacube: the shards do not hold the same tables: shard " + whole.address() + " (unsharded) lists"
                        + " [books, extra, fx, trades], shard " + shards.get(0).address()
                        + " (shard 0/2) lists [books, fx, trades] — start every shard on the same data",
                e.getMessage());
    }

    @Test
    @Order(3)
    void aTopNIsPushedToEachShardAndSparkTakesTheFinalRows() throws Exception {
        String sql = "SELECT trade_id, desk, pnl FROM %s ORDER BY pnl DESC, trade_id LIMIT 7";
        Dataset<Row> df = spark.sql(sql.formatted("nc.trades"));
        String plan = plan(df);
        assertTrue(
                plan.contains("PushedTopN: ORDER BY [\"pnl\" DESC NULLS LAST, \"trade_id\" ASC NULLS FIRST] LIMIT 7"),
                plan);
        assertTrue(plan.contains("TakeOrderedAndProject(limit=7"), "Spark still takes the final 7: " + plan);
        List<Row> rows = df.collectAsList();
        assertEquals(Answers.reference(whole.address(), sql.formatted("trades")), Answers.of(rows));
        assertTrue(scannedRows(df) <= 14, "each of 2 shards sends at most 7 rows: " + scannedRows(df));
        for (int i = 1; i < rows.size(); i++) {
            assertTrue(rows.get(i - 1).getDouble(2) >= rows.get(i).getDouble(2), "sorted by pnl: " + rows);
        }
    }

    @Test
    @Order(3)
    void aScanComesFromEachShardInBatchesOfAtMostBatchRows() throws Exception {
        Dataset<Row> df = spark.read()
                .format("numacube")
                .option("shards", shardList())
                .option("table", "trades")
                .option("batchRows", "500")
                .load()
                .select("trade_id", "desk", "pnl", "trade_date");
        assertEquals(
                Answers.reference(whole.address(), "SELECT trade_id, desk, pnl, trade_date FROM trades"),
                Answers.of(df.collectAsList()));
        ShardAddress shard0 = shards.get(0).address();
        long version = new ShardClient(shard0, THIRTY_SECONDS).table("trades").version();
        long rows = Long.parseLong(
                Answers.reference(shard0, "SELECT COUNT(*) FROM trades").getFirst());
        var schema =
                DataTypes.createStructType(List.of(DataTypes.createStructField("trade_id", DataTypes.LongType, true)));
        long seen = 0;
        int batches = 0;
        try (var reader = new ShardBatchReader(
                new ShardPartition(
                        shard0, "0/2", "trades", version, "SELECT \"trade_id\" FROM \"trades\"", new String[0]),
                schema,
                THIRTY_SECONDS,
                500)) {
            while (reader.next()) {
                int n = reader.get().numRows();
                assertTrue(n > 0 && n <= 500, "a batch of " + n + " rows");
                seen += n;
                batches++;
            }
        }
        assertEquals(rows, seen);
        assertEquals((rows + 499) / 500, batches, "batches of " + rows + " rows");
    }

    @Test
    @Order(3)
    void aLimitIsPushedOnlyWhenNoFilterIsLeftToSpark() throws Exception {
        Dataset<Row> pushed = table("trades")
                .filter(col("currency").equalTo("USD"))
                .select("trade_id", "desk")
                .limit(5);
        String plan = plan(pushed);
        assertTrue(plan.contains("PushedLimit: LIMIT 5") && plan.contains("CollectLimit 5"), plan);
        List<String> rows = Answers.of(pushed.collectAsList());
        assertEquals(5, rows.size());
        assertTrue(scannedRows(pushed) <= 10, "each of 2 shards sends at most 5 rows: " + scannedRows(pushed));
        assertTrue(
                Answers.reference(whole.address(), "SELECT trade_id, desk FROM trades WHERE currency = 'USD'")
                        .containsAll(rows),
                rows.toString());
        Dataset<Row> left = table("trades")
                .filter(upper(col("book")).endsWith("7"))
                .select("trade_id", "book")
                .limit(5);
        assertTrue(!plan(left).contains("PushedLimit"), "a filter Spark applies after the scan: " + plan(left));
        rows = Answers.of(left.collectAsList());
        assertEquals(5, rows.size());
        assertTrue(
                Answers.reference(whole.address(), "SELECT trade_id, book FROM trades WHERE book LIKE '%7'")
                        .containsAll(rows),
                rows.toString());
    }

    @Test
    @Order(3)
    void aTopNOverACompleteAggregateIsPushedAndOverAPartialOneIsNot() throws Exception {
        String complete = "SELECT desk, SUM(pnl) AS s FROM %s GROUP BY desk ORDER BY s DESC LIMIT 3";
        Dataset<Row> df = spark.sql(complete.formatted("nc.trades"));
        assertTrue(plan(df).contains("PushedTopN: ORDER BY [SUM(\"pnl\") DESC NULLS LAST] LIMIT 3"), plan(df));
        assertEquals(Answers.reference(whole.address(), complete.formatted("trades")), Answers.of(df.collectAsList()));
        String partial = "SELECT currency, COUNT(*) FROM %s GROUP BY currency ORDER BY currency LIMIT 2";
        df = spark.sql(partial.formatted("nc.trades"));
        assertTrue(!plan(df).contains("PushedTopN") && !plan(df).contains("PushedLimit"), plan(df));
        assertEquals(Answers.reference(whole.address(), partial.formatted("trades")), Answers.of(df.collectAsList()));
    }

    @Test
    @Order(3)
    void filtersArePushedAndWhatCannotBeIsLeftToSpark() throws Exception {
        Dataset<Row> pushed = table("trades")
                .filter(col("currency").equalTo("USD").and(col("pnl").gt(0)))
                .select("trade_id", "desk", "pnl");
        String plan = plan(pushed);
        assertTrue(plan.contains("PushedFilters: [") && plan.contains("(\"currency\" = 'USD')"), plan);
        assertTrue(plan.contains("SQL: SELECT \"trade_id\", \"desk\", \"pnl\" FROM"), "columns pruned: " + plan);
        assertEquals(
                Answers.reference(
                        whole.address(), "SELECT trade_id, desk, pnl FROM trades WHERE currency = 'USD' AND pnl > 0"),
                Answers.of(pushed.collectAsList()));
        Dataset<Row> left =
                table("trades").filter(upper(col("book")).endsWith("7")).select("trade_id", "book");
        assertEquals(
                Answers.reference(whole.address(), "SELECT trade_id, book FROM trades WHERE book LIKE '%7'"),
                Answers.of(left.collectAsList()));
    }

    @Test
    @Order(4)
    void aJoinToADimensionTableHeldWholeIsDoneBySparkReadingItOnce() throws Exception {
        Dataset<Row> fx = table("fx");
        assertEquals(20, fx.count(), "fx is held whole by each shard, read from one");
        Dataset<Row> df = table("trades")
                .join(fx, "currency")
                .groupBy("currency")
                .agg(sum(col("pnl").multiply(col("rate_to_usd"))), count(lit(1)));
        assertEquals(
                Answers.reference(
                        whole.address(),
                        "SELECT t.currency, SUM(t.pnl * f.rate_to_usd), COUNT(*) FROM trades t JOIN fx f"
                                + " ON t.currency = f.currency GROUP BY t.currency"),
                Answers.of(df.collectAsList()));
    }

    @Test
    @Order(5)
    void appendedRowsGoToTheirShardsAsTheServersHashRoutesThem() throws Exception {
        Dataset<Row> rows = spark.range(0, 300)
                .selectExpr(
                        "id + 1000000 AS trade_id",
                        "concat('DESK-', lpad(CAST(id % 17 + 1 AS STRING), 2, '0')) AS desk",
                        "concat('BOOK-NEW-', CAST(id % 5 AS STRING)) AS book",
                        "'USD' AS currency",
                        "DATE '" + firstDate() + "' AS trade_date",
                        "'CP-NEW' AS counterparty",
                        "CAST(id AS DOUBLE) / 4 AS pnl",
                        "CAST(id * 100 AS DOUBLE) AS notional")
                .repartition(3);
        rows.write()
                .format("numacube")
                .option("shards", shardList())
                .option("table", "trades")
                .mode("append")
                .save();
        rows.write()
                .format("numacube")
                .option("shards", whole.address().toString())
                .option("table", "trades")
                .mode("append")
                .save();
        String sql = "SELECT desk, COUNT(*), SUM(pnl) FROM trades WHERE counterparty = 'CP-NEW' GROUP BY desk";
        assertEquals(17, Answers.reference(whole.address(), sql).size());
        assertEquals(
                Answers.reference(whole.address(), sql),
                Answers.of(spark.sql(sql).collectAsList()));
        Dataset<Row> rates =
                spark.sql("SELECT 'XAU' AS currency, 0.0004D AS rate_to_usd UNION ALL" + " SELECT 'XAG', 0.03D");
        rates.createOrReplaceTempView("rates");
        spark.sql("INSERT INTO nc.fx SELECT * FROM rates");
        rates.write()
                .format("numacube")
                .option("shards", whole.address().toString())
                .option("table", "fx")
                .mode("append")
                .save();
        for (ServeProcess s : shards) {
            assertEquals(
                    Answers.reference(whole.address(), "SELECT * FROM fx"),
                    Answers.reference(s.address(), "SELECT * FROM fx"),
                    "a table held whole gets appended rows on every shard");
        }
        assertEquals(22, table("fx").count());
        for (int i = 0; i < shards.size(); i++) {
            for (String line : Answers.reference(shards.get(i).address(), sql)) {
                String desk = line.split("\\|")[0];
                assertEquals(i, ShardHash.of(desk, 2), "desk " + desk + " on shard " + i);
            }
        }
    }

    @Test
    @Order(6)
    void durableShardsRecoverTheirShareAfterKillNineAndRefuseAnotherShard() throws Exception {
        String sql = "SELECT desk, COUNT(*), SUM(pnl), MAX(trade_id) FROM trades GROUP BY desk";
        List<String> before = Answers.of(table("trades")
                .groupBy("desk")
                .agg(count(lit(1)), sum("pnl"), max("trade_id"))
                .collectAsList());
        assertEquals(Answers.reference(whole.address(), sql), before, "appended rows included");
        for (ServeProcess s : shards) {
            s.close();
        }
        var wrong = assertThrows(
                Exception.class,
                () -> ServeProcess.start(
                                "shard0-as-1",
                                List.of("--data-dir", dataDir(0), "--shard", "1/2", "--shard-key", "desk"))
                        .join());
        assertTrue(
                rootMessage(wrong)
                        .contains("the data directory holds another shard: dir=" + dataDir(0)
                                + " holds=0/2 by desk shard=1/2 by desk — start it with --shard 0/2 --shard-key desk"),
                rootMessage(wrong));
        var restarted0 = ServeProcess.start("shard0-restarted", List.of("--data-dir", dataDir(0)));
        var restarted1 = ServeProcess.start(
                "shard1-restarted", List.of("--data-dir", dataDir(1), "--shard", "1/2", "--shard-key", "desk"));
        shards.set(0, restarted0.get());
        shards.set(1, restarted1.get());
        ShardTable t = new ShardClient(shards.get(0).address(), THIRTY_SECONDS).table("trades");
        assertEquals("0/2 desk", t.shardIndex() + "/" + t.shardCount() + " " + t.shardKey(), "the recorded shard");
        assertEquals(
                before,
                Answers.of(table("trades")
                        .groupBy("desk")
                        .agg(count(lit(1)), sum("pnl"), max("trade_id"))
                        .collectAsList()));
        for (int i = 0; i < shards.size(); i++) {
            for (String line : Answers.reference(shards.get(i).address(), sql)) {
                String desk = line.split("\\|")[0];
                assertEquals(i, ShardHash.of(desk, 2), "desk " + desk + " on shard " + i + " after the restart");
            }
        }
    }

    @Test
    @Order(7)
    void shardsThatDoNotMakeASetAreAClearError() {
        var e = assertThrows(
                Exception.class,
                () -> spark.read()
                        .format("numacube")
                        .option("shards", shards.get(1).address().toString())
                        .option("table", "trades")
                        .load());
        assertTrue(e.getMessage().contains("the shards do not fit together: 1 listed"), e.getMessage());
    }

    @Test
    @Order(8)
    void aShardAnsweringForAnotherVersionOrAsAnotherShardThanPlannedFailsTheRead() throws Exception {
        ShardAddress shard0 = shards.get(0).address();
        long version = new ShardClient(shard0, THIRTY_SECONDS).table("trades").version();
        String sql = "SELECT COUNT(*) FROM \"trades\"";
        var schema = DataTypes.createStructType(List.of(DataTypes.createStructField("n", DataTypes.LongType, false)));
        try (var reader = new ShardBatchReader(
                new ShardPartition(shard0, "0/2", "trades", version, sql, new String[0]),
                schema,
                THIRTY_SECONDS,
                ReadOptions.DEFAULT_BATCH_ROWS)) {
            assertTrue(reader.next(), "the planned version reads");
        }
        var stale = new ShardBatchReader(
                new ShardPartition(shard0, "0/2", "trades", version - 1, sql, new String[0]),
                schema,
                THIRTY_SECONDS,
                ReadOptions.DEFAULT_BATCH_ROWS);
        var e = assertThrows(ShardException.class, stale::next);
        assertEquals(
                "numacube shard " + shard0 + " answered for table trades version " + version + ", the query was"
                        + " planned at version " + (version - 1) + " (its peers answer for the versions they had"
                        + " then) — the table changed during the query; rerun it",
                e.getMessage());
        var moved = new ShardBatchReader(
                new ShardPartition(shard0, "1/2", "trades", version, sql, new String[0]),
                schema,
                THIRTY_SECONDS,
                ReadOptions.DEFAULT_BATCH_ROWS);
        e = assertThrows(ShardException.class, moved::next);
        assertTrue(
                e.getMessage().contains("answered as shard 0/2, the query was planned with it as shard 1/2"),
                e.getMessage());
    }

    @Test
    @Order(9)
    void aKilledShardFailsTheQueryNamingIt() throws Exception {
        Dataset<Row> df = table("trades").groupBy("desk").agg(sum("pnl"));
        ServeProcess victim = shards.get(1);
        victim.close();
        Exception e = assertThrows(Exception.class, df::collectAsList);
        assertTrue(rootMessage(e).contains("numacube shard " + victim.address() + " is unreachable"), rootMessage(e));
        var planned = new ShardBatchReader(
                new ShardPartition(victim.address(), "1/2", "trades", 1, "SELECT 1", new String[0]),
                DataTypes.createStructType(List.of()),
                THIRTY_SECONDS,
                ReadOptions.DEFAULT_BATCH_ROWS);
        e = assertThrows(ShardException.class, planned::next);
        assertTrue(
                e.getMessage().startsWith("numacube shard " + victim.address() + " is unreachable: ")
                        && e.getMessage().endsWith("— is its numacube serve running? (while trying to query SELECT 1)"),
                "a task whose shard died after planning: " + e.getMessage());
    }

    /**
     * A date the generated trades have: appended rows reuse it, since an append that grows the DATE dictionary past
     * a code width fails the next query (a numacube engine bug seen here: "partition code width differs from its
     * dictionary").
     */
    private static String firstDate() {
        return table("trades").agg(min("trade_date")).first().get(0).toString();
    }

    /** The rows the scans of {@code df}'s last run read from the shards ({@code numOutputRows} of its leaves). */
    private static long scannedRows(Dataset<Row> df) {
        long rows = 0;
        for (var leaf : scala.jdk.javaapi.CollectionConverters.asJava(
                df.queryExecution().executedPlan().collectLeaves())) {
            rows += leaf.metrics().apply("numOutputRows").value();
        }
        return rows;
    }

    private static String rootMessage(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append(" <- ");
        }
        return all.toString();
    }
}
