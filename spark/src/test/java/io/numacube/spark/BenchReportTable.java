package io.numacube.spark;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Spark bench's printed report: per query, each engine's best and median, the ratios (Spark over the shards
 * against one server; Spark over Parquet against Spark over the shards), and what each shard returned to Spark. Not
 * thread-safe.
 */
final class BenchReportTable {

    /**
     * What one shard returned for one scan of a query.
     *
     * @param shard   the shard's address
     * @param sql     the scan's pushed SQL
     * @param sharded whether the scanned table is sharded (false: a table held whole, read from one shard)
     * @param rows    rows of its columnar answer
     * @param bytes   bytes of its columnar answer
     * @param nanos   the best time of that SQL on that shard alone, answer read and decoded
     */
    record Partial(String shard, String sql, boolean sharded, int rows, long bytes, long nanos) {}

    private record Line(BenchQuery query, Map<String, BenchTimings> times, List<Partial> partials) {}

    private final List<String> engines;
    private final int shardCount;
    private final String data;
    private final List<Line> lines = new ArrayList<>();

    BenchReportTable(List<String> engines, int shardCount, String data) {
        this.engines = List.copyOf(engines);
        this.shardCount = shardCount;
        this.data = data;
    }

    void add(BenchQuery query, Map<String, BenchTimings> times, List<Partial> partials) {
        lines.add(new Line(query, Map.copyOf(times), List.copyOf(partials)));
    }

    void print(PrintStream out, SparkBenchOptions options) {
        out.printf(
                Locale.ROOT,
                "%s, %d shards, best and median of %d runs (after %d warm-up), ms;"
                        + " Spark local[2]; the engines run in turn%n",
                data,
                shardCount,
                options.runs(),
                options.warmups());
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-7s", "query"));
        for (String e : engines) {
            header.append(String.format(Locale.ROOT, " | %-19s", e + " best/med"));
        }
        out.println(header + " | shards/server | parquet/shards");
        for (Line l : lines) {
            StringBuilder row = new StringBuilder(
                    String.format(Locale.ROOT, "%-7s", l.query().name()));
            for (String e : engines) {
                BenchTimings t = l.times().get(e);
                row.append(String.format(Locale.ROOT, " | %8.1f / %8.1f", t.best(), t.median()));
            }
            double shards = l.times().get(engines.get(0)).best();
            double parquet = l.times().get(engines.get(1)).best();
            double server = l.times().get(engines.get(2)).best();
            out.println(row + String.format(Locale.ROOT, " | %12.1fx | %13.1fx", shards / server, parquet / shards));
        }
        out.println();
        out.println("what each shard returned to Spark over the shards (each scan's pushed SQL asked of the shard"
                + " alone, columnar, best of 3), and Spark's time above the slowest shard:");
        for (Line l : lines) {
            printPartials(out, l);
        }
    }

    private void printPartials(PrintStream out, Line l) {
        double slowest = 0;
        for (Partial p : l.partials()) {
            slowest = Math.max(slowest, p.nanos() / 1e6);
        }
        double sparkBest = l.times().get(engines.getFirst()).best();
        out.printf(
                Locale.ROOT,
                "%s: Spark over the shards %.1f ms, slowest shard %.1f ms, above it %.1f ms%n",
                l.query().name(),
                sparkBest,
                slowest,
                sparkBest - slowest);
        for (Partial p : l.partials()) {
            out.printf(
                    Locale.ROOT,
                    "  %-16s %10d rows %,14d bytes %9.1f ms  %s%s%n",
                    p.shard(),
                    p.rows(),
                    p.bytes(),
                    p.nanos() / 1e6,
                    p.sharded() ? "" : "(held whole) ",
                    p.sql());
        }
    }
}
