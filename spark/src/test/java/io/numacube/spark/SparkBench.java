package io.numacube.spark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;

/**
 * The Spark bench of issue 17: the P&amp;L queries ({@link BenchQuery}) over the same generated trades in three
 * engines — Spark {@code local[2]} over N {@code numacube serve --shard I/N --shard-key desk} processes (the
 * connector, aggregates pushed down), Spark alone over a Parquet copy of the rows, and one unsharded {@code serve}
 * asked directly over HTTP (columnar answers) — every answer checked equal across the three before any run is timed.
 * Prints, per query, best and median times, their ratios, and what each shard returned to Spark (rows, bytes, and
 * the time of that partial query on the shard alone). Run by {@code tools/spark-bench}; never by the unit tests.
 */
public final class SparkBench {

    private final SparkBenchOptions options;
    private final List<ServeProcess> servers = new ArrayList<>();
    private final List<ShardAddress> shards = new ArrayList<>();
    private ShardAddress whole;
    private SparkSession spark;

    private SparkBench(SparkBenchOptions options) {
        this.options = options;
    }

    /** Runs the bench with {@code args} ({@link SparkBenchOptions#USAGE}); exits 1 when an answer differs. */
    public static void main(String[] args) throws Exception {
        SparkBenchOptions options;
        try {
            options = SparkBenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("spark-bench: " + e.getMessage());
            System.exit(2);
            return;
        }
        SparkBench bench = new SparkBench(options);
        int status;
        try {
            status = bench.run();
        } finally {
            bench.stop();
        }
        System.exit(status);
    }

    private int run() throws Exception {
        long t0 = System.nanoTime();
        startServers();
        System.out.printf(
                Locale.ROOT,
                "servers ready: %d shards + 1 unsharded, %,d rows each set (%.1f s)%n",
                shards.size(),
                options.rows(),
                (System.nanoTime() - t0) / 1e9);
        spark = SparkSession.builder()
                .master("local[2]")
                .appName("numacube-spark-bench")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        t0 = System.nanoTime();
        String parquet = writeParquet();
        System.out.printf(Locale.ROOT, "parquet copy: %s (%.1f s)%n", parquet, (System.nanoTime() - t0) / 1e9);
        printShardRows();
        List<BenchQuery> queries = queries();
        List<String> engines = List.of("spark+shards", "spark+parquet", "one server");
        for (BenchQuery q : queries) {
            String difference = checkAnswers(q, parquet);
            if (difference != null) {
                System.err.println("spark-bench: " + q.name() + ": the answers differ, nothing timed: " + difference);
                return 1;
            }
        }
        System.out.println("answers: every query equal across the three engines (doubles to a relative 1e-9)");
        System.out.println();
        BenchReportTable report = new BenchReportTable(engines, shards.size());
        for (BenchQuery q : queries) {
            Map<String, BenchTimings> times = time(q, parquet, engines);
            report.add(q, times, partials(q, parquet));
        }
        report.print(System.out, options);
        return 0;
    }

    private void startServers() throws Exception {
        List<String> data =
                List.of("--generate", Long.toString(options.rows()), "--seed", Long.toString(options.seed()));
        List<CompletableFuture<ServeProcess>> starting = new ArrayList<>();
        int n = options.shards();
        for (int i = 0; i < n; i++) {
            List<String> args = new ArrayList<>(data);
            args.addAll(List.of("--shard", i + "/" + n, "--shard-key", "desk"));
            starting.add(ServeProcess.start("bench-shard" + i, args, options.heap()));
        }
        CompletableFuture<ServeProcess> unsharded = ServeProcess.start("bench-whole", data, options.heap());
        for (CompletableFuture<ServeProcess> s : starting) {
            servers.add(s.get());
            shards.add(servers.getLast().address());
        }
        servers.add(unsharded.get());
        whole = servers.getLast().address();
    }

    private void stop() throws InterruptedException {
        if (spark != null) {
            spark.stop();
        }
        for (ServeProcess s : servers) {
            s.close();
        }
    }

    private String shardList() {
        return String.join(",", shards.stream().map(ShardAddress::toString).toList());
    }

    private Dataset<Row> numacube(String servers, String table) {
        return spark.read()
                .format("numacube")
                .option("shards", servers)
                .option("table", table)
                .load();
    }

    /** Writes the unsharded server's trades and fx as Parquet, trades in 2 files so that Spark reads it on 2 cores. */
    private String writeParquet() {
        String dir = options.dir().toAbsolutePath().toString();
        numacube(whole.toString(), "trades")
                .repartition(2)
                .write()
                .mode("overwrite")
                .parquet(dir + "/trades");
        numacube(whole.toString(), "fx").write().mode("overwrite").parquet(dir + "/fx");
        return dir;
    }

    private void printShardRows() throws IOException, InterruptedException {
        StringBuilder line = new StringBuilder("trades per shard (by desk):");
        for (ShardAddress s : shards) {
            BenchAnswer count = ServerAnswers.answer(s, "SELECT COUNT(*) FROM trades", false);
            line.append(' ').append(count.rows().getFirst().getFirst());
        }
        System.out.println(line);
        long best = Long.MAX_VALUE;
        for (int run = 0; run < 5; run++) {
            long start = System.nanoTime();
            TableLayout.describe("trades", shards, java.time.Duration.ofSeconds(30));
            best = Math.min(best, System.nanoTime() - start);
        }
        System.out.printf(
                Locale.ROOT,
                "describing trades on the %d shards (GET /v1/tables/trades, one after the other;"
                        + " the connector does it as it plans each scan): %.1f ms, best of 5%n",
                shards.size(),
                best / 1e6);
    }

    /** The queries, Q3's dates being business days 100 and 149 of the data as the unsharded server holds it. */
    private List<BenchQuery> queries() throws IOException, InterruptedException {
        BenchAnswer days = ServerAnswers.answer(
                whole, "SELECT trade_date FROM trades GROUP BY trade_date ORDER BY trade_date", true);
        if (days.rows().size() < 150) {
            throw new IllegalStateException("Q3 needs at least 150 trade dates; the data has "
                    + days.rows().size() + " — generate more rows (--rows)");
        }
        return BenchQuery.all(
                days.rows().get(100).getFirst().toString(),
                days.rows().get(149).getFirst().toString());
    }

    /** Points the views {@code trades} and {@code fx} at the shards, at the Parquet copy, or (one server) at nothing. */
    private void use(String engine, String parquet) {
        switch (engine) {
            case "spark+shards" -> {
                numacube(shardList(), "trades").createOrReplaceTempView("trades");
                numacube(shardList(), "fx").createOrReplaceTempView("fx");
            }
            case "spark+parquet" -> {
                spark.read().parquet(parquet + "/trades").createOrReplaceTempView("trades");
                spark.read().parquet(parquet + "/fx").createOrReplaceTempView("fx");
            }
            default -> {}
        }
    }

    private BenchAnswer answer(String engine, BenchQuery q, String parquet) throws IOException, InterruptedException {
        if (engine.equals("one server")) {
            return ServerAnswers.answer(whole, q.sql(), q.ordered());
        }
        use(engine, parquet);
        List<List<Object>> rows = new ArrayList<>();
        for (Row r : spark.sql(q.sql()).collectAsList()) {
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < r.length(); i++) {
                values.add(r.get(i));
            }
            rows.add(values);
        }
        return BenchAnswer.of(rows, q.ordered());
    }

    /** The first difference of the Spark answers from the unsharded server's, or null when all three agree. */
    private String checkAnswers(BenchQuery q, String parquet) throws IOException, InterruptedException {
        BenchAnswer reference = answer("one server", q, parquet);
        for (String engine : List.of("spark+shards", "spark+parquet")) {
            var d = answer(engine, q, parquet).differenceFrom(reference);
            if (d.isPresent()) {
                return engine + " vs one server: " + d.get();
            }
        }
        return null;
    }

    private Map<String, BenchTimings> time(BenchQuery q, String parquet, List<String> engines)
            throws IOException, InterruptedException {
        Map<String, BenchTimings> times = new LinkedHashMap<>();
        for (String e : engines) {
            times.put(e, new BenchTimings());
        }
        for (int run = 0; run < options.warmups() + options.runs(); run++) {
            for (String e : engines) {
                long nanos = timeOnce(e, q, parquet);
                if (run >= options.warmups()) {
                    times.get(e).add(nanos);
                }
            }
        }
        return times;
    }

    private long timeOnce(String engine, BenchQuery q, String parquet) throws IOException, InterruptedException {
        if (engine.equals("one server")) {
            return ServerAnswers.columnar(whole, q.sql()).nanos();
        }
        use(engine, parquet);
        long start = System.nanoTime();
        spark.sql(q.sql()).collectAsList();
        return System.nanoTime() - start;
    }

    /**
     * What each shard returns to Spark for {@code q}: every numacube scan's pushed SQL (the plan's), asked of each
     * shard on its own; a table held whole (fx) is asked of the first shard only, as the connector does.
     */
    private List<BenchReportTable.Partial> partials(BenchQuery q, String parquet)
            throws IOException, InterruptedException {
        use("spark+shards", parquet);
        SparkPlan plan = spark.sql(q.sql()).queryExecution().sparkPlan();
        List<BenchReportTable.Partial> partials = new ArrayList<>();
        for (SparkPlan leaf : scala.jdk.javaapi.CollectionConverters.asJava(plan.collectLeaves())) {
            if (leaf instanceof BatchScanExec scan && scan.scan() instanceof NumacubeScan ncScan) {
                String description = ncScan.description();
                String sql = description.substring(description.indexOf(", SQL: ") + ", SQL: ".length());
                boolean sharded = description.contains(" shards by ");
                for (ShardAddress s : sharded ? shards : shards.subList(0, 1)) {
                    ServerAnswers.Columnar c = ServerAnswers.columnar(s, sql);
                    long best = c.nanos();
                    for (int run = 1; run < 3; run++) {
                        best = Math.min(best, ServerAnswers.columnar(s, sql).nanos());
                    }
                    partials.add(new BenchReportTable.Partial(s.toString(), sql, sharded, c.rows(), c.bytes(), best));
                }
            }
        }
        return partials;
    }
}
