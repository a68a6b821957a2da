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
 * The Spark bench of issue 17: a workload's queries over the same data in three engines — Spark {@code local[2]} over
 * N {@code numacube serve --shard I/N} processes (the connector, aggregates pushed down where Spark can), Spark alone
 * over Parquet, and one unsharded {@code serve} asked directly over HTTP (columnar answers) — every answer checked
 * equal across the three before that query is timed. The workloads: the P&amp;L queries over generated trades
 * ({@link TradesWorkload}, sharded by desk) and TPC-H from Parquet files ({@link TpchWorkload}, lineitem and orders
 * sharded by the order key). Prints, per query, best and median times, their ratios, and what each shard returned to
 * Spark (rows, bytes, and the time of that partial query on the shard alone); a query an engine refuses is named with
 * the refusal and not timed. Exits 1 when an answer differs. Run by {@code tools/spark-bench}; never by the unit
 * tests.
 */
public final class SparkBench {

    private final SparkBenchOptions options;
    private final BenchWorkload workload;
    private final List<ServeProcess> servers = new ArrayList<>();
    private final List<ShardAddress> shards = new ArrayList<>();
    private ShardAddress whole;
    private SparkSession spark;
    private Map<String, String> parquet;

    private SparkBench(SparkBenchOptions options) {
        this.options = options;
        this.workload = options.tpch()
                ? new TpchWorkload(options.tpchDir(), options.queries())
                : new TradesWorkload(options.rows(), options.seed(), options.dir());
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
        SparkBench bench;
        try {
            bench = new SparkBench(options);
        } catch (IllegalArgumentException e) {
            System.err.println("spark-bench: " + e.getMessage());
            System.exit(2);
            return;
        }
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
                "servers ready: %d shards + 1 unsharded, %s (%.1f s)%n",
                shards.size(),
                workload.describe(),
                (System.nanoTime() - t0) / 1e9);
        spark = SparkSession.builder()
                .master("local[2]")
                .appName("numacube-spark-bench")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        t0 = System.nanoTime();
        parquet = workload.parquet(table -> numacube(whole.toString(), table));
        System.out.printf(Locale.ROOT, "parquet: %s (%.1f s)%n", parquet.values(), (System.nanoTime() - t0) / 1e9);
        printShardRows();
        List<String> engines = List.of("spark+shards", "spark+parquet", "one server");
        BenchReportTable report = new BenchReportTable(engines, shards.size(), workload.describe());
        int differences = 0;
        for (BenchQuery q : workload.queries(whole)) {
            String difference;
            try {
                difference = checkAnswers(q);
            } catch (Exception e) {
                System.out.println("spark-bench: " + q.name() + ": refused, not timed: " + refusal(e));
                continue;
            }
            if (difference != null) {
                System.out.println("spark-bench: " + q.name() + ": the answers DIFFER, not timed: " + difference);
                differences++;
                continue;
            }
            System.out.println(q.name() + ": equal across the three engines (doubles to a relative 1e-9)");
            report.add(q, time(q, engines), partials(q));
        }
        System.out.println();
        report.print(System.out, options);
        return differences == 0 ? 0 : 1;
    }

    /** The first line of an engine's refusal: its message, or its class name. */
    private static String refusal(Exception e) {
        String m = e.getMessage() == null || e.getMessage().isBlank()
                ? e.getClass().getName()
                : e.getMessage();
        return m.lines().findFirst().orElse(m);
    }

    private void startServers() throws Exception {
        List<CompletableFuture<ServeProcess>> starting = new ArrayList<>();
        int n = options.shards();
        for (int i = 0; i < n; i++) {
            starting.add(ServeProcess.start("bench-shard" + i, workload.shardArgs(i, n), options.heap()));
        }
        CompletableFuture<ServeProcess> unsharded =
                ServeProcess.start("bench-whole", workload.wholeArgs(), options.heap());
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

    private void printShardRows() throws IOException, InterruptedException {
        String table = workload.shardedTableName();
        StringBuilder line = new StringBuilder(workload.shardedTable() + " rows per shard:");
        for (ShardAddress s : shards) {
            BenchAnswer count = ServerAnswers.answer(s, "SELECT COUNT(*) FROM " + table, false);
            line.append(' ').append(count.rows().getFirst().getFirst());
        }
        System.out.println(line);
        long best = Long.MAX_VALUE;
        for (int run = 0; run < 5; run++) {
            long start = System.nanoTime();
            TableLayout.describe(table, shards, java.time.Duration.ofSeconds(30));
            best = Math.min(best, System.nanoTime() - start);
        }
        System.out.printf(
                Locale.ROOT,
                "describing %s on the %d shards (GET /v1/tables/%s, one after the other;"
                        + " the connector does it as it plans each scan): %.1f ms, best of 5%n",
                table,
                shards.size(),
                table,
                best / 1e6);
    }

    /** Points a view per table at the shards, at the Parquet copy, or (one server) at nothing. */
    private void use(String engine) {
        for (String t : workload.tables()) {
            switch (engine) {
                case "spark+shards" -> numacube(shardList(), t).createOrReplaceTempView(t);
                case "spark+parquet" -> spark.read().parquet(parquet.get(t)).createOrReplaceTempView(t);
                default -> {}
            }
        }
    }

    private BenchAnswer answer(String engine, BenchQuery q) throws IOException, InterruptedException {
        if (engine.equals("one server")) {
            return ServerAnswers.answer(whole, q.sql(), q.ordered());
        }
        use(engine);
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
    private String checkAnswers(BenchQuery q) throws IOException, InterruptedException {
        BenchAnswer reference = answer("one server", q);
        for (String engine : List.of("spark+shards", "spark+parquet")) {
            var d = answer(engine, q).differenceFrom(reference);
            if (d.isPresent()) {
                return engine + " vs one server: " + d.get();
            }
        }
        return null;
    }

    private Map<String, BenchTimings> time(BenchQuery q, List<String> engines)
            throws IOException, InterruptedException {
        Map<String, BenchTimings> times = new LinkedHashMap<>();
        for (String e : engines) {
            times.put(e, new BenchTimings());
        }
        for (int run = 0; run < options.warmups() + options.runs(); run++) {
            for (String e : engines) {
                long nanos = timeOnce(e, q);
                if (run >= options.warmups()) {
                    times.get(e).add(nanos);
                }
            }
        }
        return times;
    }

    private long timeOnce(String engine, BenchQuery q) throws IOException, InterruptedException {
        if (engine.equals("one server")) {
            return ServerAnswers.columnar(whole, q.sql()).nanos();
        }
        use(engine);
        long start = System.nanoTime();
        spark.sql(q.sql()).collectAsList();
        return System.nanoTime() - start;
    }

    /**
     * What each shard returns to Spark for {@code q}: every numacube scan's pushed SQL (the plan's), asked of each
     * shard on its own; a table held whole (fx) is asked of the first shard only, as the connector does.
     */
    private List<BenchReportTable.Partial> partials(BenchQuery q) throws IOException, InterruptedException {
        use("spark+shards");
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
