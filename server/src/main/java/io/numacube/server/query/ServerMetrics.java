package io.numacube.server.query;

import io.numacube.engine.Cube;
import io.numacube.engine.PartitionInfo;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What {@code GET /metrics} reports, in Prometheus' text format: queries by outcome and their latency as clients saw it
 * (a histogram kept by HdrHistogram, 3 significant digits, up to an hour), queries running and queued, writes and rows
 * written, the write-ahead log's fsync latency, and per table its rows and version, per node the bytes of partitions
 * placed there, the share of their pages found on it, and the morsels its workers ran since the start, and how many
 * of those from their own node's queue ({@link #nodeActivity}). Recording is lock-free (recorders and adders, from any
 * thread); a scrape folds the recorded intervals into the running totals under a lock. Thread-safe.
 */
public final class ServerMetrics {

    /** The histograms' bucket bounds in seconds (Prometheus' {@code le}), besides {@code +Inf}. */
    private static final double[] BOUNDS = {
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300
    };

    private static final long MAX_MICROS = 3_600_000_000L;

    /** One latency histogram: an HdrHistogram of microseconds and the exact sum of seconds. */
    private static final class Latency {
        private final Recorder recorder = new Recorder(1, MAX_MICROS, 3);
        private final Histogram total = new Histogram(1, MAX_MICROS, 3);
        private final LongAdder sumNanos = new LongAdder();

        void record(long nanos) {
            recorder.recordValue(Math.max(1, Math.min(MAX_MICROS, nanos / 1000)));
            sumNanos.add(nanos);
        }

        synchronized void write(StringBuilder out, String name, String help) {
            total.add(recorder.getIntervalHistogram());
            header(out, name, "histogram", help);
            for (double le : BOUNDS) {
                long count = total.getCountBetweenValues(0, (long) (le * 1e6));
                out.append(name)
                        .append("_bucket{le=\"")
                        .append(le)
                        .append("\"} ")
                        .append(count)
                        .append('\n');
            }
            out.append(name)
                    .append("_bucket{le=\"+Inf\"} ")
                    .append(total.getTotalCount())
                    .append('\n');
            out.append(name).append("_sum ").append(sumNanos.sum() / 1e9).append('\n');
            out.append(name).append("_count ").append(total.getTotalCount()).append('\n');
        }
    }

    private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
    private final Latency queryLatency = new Latency();
    private final Latency fsyncLatency = new Latency();
    private final LongAdder writes = new LongAdder();
    private final LongAdder rowsWritten = new LongAdder();
    private final LongAdder rowsDeleted = new LongAdder();
    private final LongAdder rowsUpdated = new LongAdder();

    /** An answered or failed query: its outcome ({@code ok}, {@code error}, {@code timeout}, ...) and latency. */
    public void query(String outcome, long nanos) {
        outcomes.computeIfAbsent(outcome, k -> new LongAdder()).increment();
        queryLatency.record(nanos);
    }

    private final Map<String, LongAdder> placementChanges = new ConcurrentHashMap<>();
    private final LongAdder partitionsMoved = new LongAdder();
    private final LongAdder bytesMoved = new LongAdder();

    /** A change of the machine the cube followed ({@code Cube#followMachine}): its outcome and what moved. */
    public void placementChange(io.numacube.engine.PlacementChange c) {
        placementChanges
                .computeIfAbsent(c.outcome().startsWith("failed") ? "failed" : "done", k -> new LongAdder())
                .increment();
        partitionsMoved.add(c.partitionsMoved());
        bytesMoved.add(c.bytesMoved());
    }

    /** Per worker node: morsels run and those run at home, since the start; a pair of adders each. */
    private final Map<Integer, LongAdder[]> morselsByNode = new ConcurrentHashMap<>();

    /** What one answered query's workers did: the morsels each node ran, and those it took from its own queue. */
    public void morsels(io.numacube.engine.result.QueryStats stats) {
        stats.morselsByNode().forEach((node, n) -> adders(node)[0].add(n));
        stats.morselsHomeByNode().forEach((node, n) -> adders(node)[1].add(n));
    }

    private LongAdder[] adders(int node) {
        return morselsByNode.computeIfAbsent(node, k -> new LongAdder[] {new LongAdder(), new LongAdder()});
    }

    /**
     * What a node's workers did since the start, over the queries answered through the server.
     *
     * @param node         the worker node
     * @param morsels      morsels its workers ran
     * @param morselsHome  of those, the ones taken from its own node's queue (the rest were stolen from others)
     */
    public record NodeActivity(int node, long morsels, long morselsHome) {}

    /** Each worker node that ran a morsel since the start, by node id. */
    public java.util.List<NodeActivity> nodeActivity() {
        return new TreeMap<>(morselsByNode)
                .entrySet().stream()
                        .map(e -> new NodeActivity(e.getKey(), e.getValue()[0].sum(), e.getValue()[1].sum()))
                        .toList();
    }

    /** An applied write: rows appended, rows deleted and rows updated. */
    public void write(long appended, long deleted, long updated) {
        writes.increment();
        rowsWritten.add(appended);
        rowsDeleted.add(deleted);
        rowsUpdated.add(updated);
    }

    /** Told of each fsync of the write-ahead log, in nanoseconds (for {@code WalOptions}' fsync observer). */
    public LongConsumer walFsync() {
        return fsyncLatency::record;
    }

    /** The metrics now, in Prometheus' text exposition format 0.0.4. */
    public String prometheus(Cube cube, QueryAdmission admission) {
        StringBuilder out = new StringBuilder(4096);
        header(out, "numacube_queries_total", "counter", "Queries answered or failed, by outcome.");
        new TreeMap<>(outcomes)
                .forEach((k, v) -> out.append("numacube_queries_total{outcome=\"")
                        .append(k)
                        .append("\"} ")
                        .append(v.sum())
                        .append('\n'));
        queryLatency.write(out, "numacube_query_duration_seconds", "Query latency as clients saw it.");
        gauge(out, "numacube_queries_running", "Queries the engine runs now.", admission.running());
        gauge(out, "numacube_queries_queued", "Queries waiting for admission.", admission.queued());
        counter(out, "numacube_writes_total", "Writes applied (a batch, a statement or a transaction).", writes.sum());
        counter(out, "numacube_rows_written_total", "Rows appended by writes.", rowsWritten.sum());
        counter(out, "numacube_rows_deleted_total", "Rows deleted by writes.", rowsDeleted.sum());
        counter(out, "numacube_rows_updated_total", "Rows changed by UPDATE.", rowsUpdated.sum());
        fsyncLatency.write(out, "numacube_wal_fsync_seconds", "Write-ahead log fsync latency.");
        header(
                out,
                "numacube_placement_changes_total",
                "counter",
                "Changes of the process's bindings followed (re-plan, re-pin, moves), by outcome.");
        for (String outcome : java.util.List.of("done", "failed")) {
            LongAdder n = placementChanges.get(outcome);
            out.append("numacube_placement_changes_total{outcome=\"")
                    .append(outcome)
                    .append("\"} ")
                    .append(n == null ? 0 : n.sum())
                    .append('\n');
        }
        counter(
                out,
                "numacube_partitions_moved_total",
                "Partitions copied to another node after a change of the bindings.",
                partitionsMoved.sum());
        counter(out, "numacube_moved_bytes_total", "Bytes of those partitions.", bytesMoved.sum());
        tables(out, cube);
        nodes(out, cube);
        activity(out);
        return out.toString();
    }

    private static void tables(StringBuilder out, Cube cube) {
        header(out, "numacube_table_rows", "gauge", "Rows of each table's current version.");
        for (String t : cube.tables()) {
            out.append("numacube_table_rows{table=\"")
                    .append(t)
                    .append("\"} ")
                    .append(cube.rowCount(t))
                    .append('\n');
        }
        header(out, "numacube_table_version", "gauge", "Each table's current version.");
        for (String t : cube.tables()) {
            out.append("numacube_table_version{table=\"")
                    .append(t)
                    .append("\"} ")
                    .append(cube.version(t))
                    .append('\n');
        }
    }

    private static void nodes(StringBuilder out, Cube cube) {
        Map<Integer, long[]> byNode = new TreeMap<>();
        Map<Integer, double[]> pages = new TreeMap<>();
        for (PartitionInfo p : cube.placement()) {
            int node = p.memoryNode() >= 0 ? p.memoryNode() : p.homeNode();
            byNode.computeIfAbsent(node, n -> new long[1])[0] += p.bytes();
            if (!Double.isNaN(p.pagesOnNodePct())) {
                double[] w = pages.computeIfAbsent(node, n -> new double[2]);
                w[0] += p.pagesOnNodePct() / 100 * p.bytes();
                w[1] += p.bytes();
            }
        }
        header(out, "numacube_node_partition_bytes", "gauge", "Bytes of the partitions placed for each node.");
        byNode.forEach((n, b) -> out.append("numacube_node_partition_bytes{node=\"")
                .append(n)
                .append("\"} ")
                .append(b[0])
                .append('\n'));
        header(
                out,
                "numacube_node_pages_on_node_ratio",
                "gauge",
                "Share of those partitions' pages found on the node.");
        pages.forEach((n, w) -> out.append("numacube_node_pages_on_node_ratio{node=\"")
                .append(n)
                .append("\"} ")
                .append(String.format(Locale.ROOT, "%.4f", w[1] == 0 ? 0 : w[0] / w[1]))
                .append('\n'));
        gauge(out, "numacube_native_bytes", "Off-heap bytes the cube's tables hold.", cube.nativeBytes());
    }

    private void activity(StringBuilder out) {
        java.util.List<NodeActivity> nodes = nodeActivity();
        header(out, "numacube_node_morsels_total", "counter", "Morsels run by each node's workers.");
        nodes.forEach(a -> out.append("numacube_node_morsels_total{node=\"")
                .append(a.node())
                .append("\"} ")
                .append(a.morsels())
                .append('\n'));
        header(
                out,
                "numacube_node_morsels_home_total",
                "counter",
                "Of those, morsels a node's workers took from its own queue (not stolen).");
        nodes.forEach(a -> out.append("numacube_node_morsels_home_total{node=\"")
                .append(a.node())
                .append("\"} ")
                .append(a.morselsHome())
                .append('\n'));
    }

    private static void header(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void gauge(StringBuilder out, String name, String help, long value) {
        single(out, name, "gauge", help, value);
    }

    private static void counter(StringBuilder out, String name, String help, long value) {
        single(out, name, "counter", help, value);
    }

    private static void single(StringBuilder out, String name, String type, String help, long value) {
        header(out, name, type, help);
        out.append(name).append(' ').append(value).append('\n');
    }
}
