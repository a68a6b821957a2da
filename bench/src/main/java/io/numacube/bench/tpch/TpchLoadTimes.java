package io.numacube.bench.tpch;

import io.numacube.bench.peer.DuckDbPeer;
import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.csv.CsvOptions;
import io.numacube.engine.ingest.csv.CsvProgress;
import io.numacube.engine.ingest.csv.CsvStagingLoader;
import io.numacube.engine.ingest.parquet.ParquetStagingLoader;
import io.numacube.engine.storage.ProgressListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Times the loads of one TPC-H table from its cached files, numacube and DuckDB in turn in one process, round after
 * round, so that a noisy machine affects both alike (issue 16's load figures): numacube from CSV and from Parquet
 * (staging, then {@code Cube.loadTable}), DuckDB's {@code CREATE TABLE AS SELECT * FROM read_csv(...)} and {@code
 * read_parquet}. Each line gives seconds, M rows/s and MB/s of the file. A benchmark: it never asserts.
 *
 * <pre>
 * java -cp bench/target/numacube-bench.jar:bench/target/lib/* io.numacube.bench.tpch.TpchLoadTimes \
 *     build/tpch/sf1 lineitem 2 3 [csv,parquet,duck-csv,duck-parquet]
 * </pre>
 *
 * Not thread-safe; one run per JVM.
 */
public final class TpchLoadTimes {

    private TpchLoadTimes() {}

    /**
     * @param args directory of the cached files, table name, threads, rounds, and optionally the comma-separated loads
     *             to time ({@code csv}, {@code parquet}, {@code duck-csv}, {@code duck-parquet}; all by default)
     */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        TpchSchema table = TpchSchema.of(args[1]);
        int threads = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        List<String> loads = List.of((args.length > 4 ? args[4] : "csv,parquet,duck-csv,duck-parquet").split(","));
        Path csv = dir.resolve(table.name() + ".csv");
        Path parquet = dir.resolve(table.name() + ".parquet");
        System.out.printf(
                Locale.ROOT,
                "table=%s threads=%d rounds=%d csv=%,d bytes parquet=%,d bytes java=%s cpus=%d%n",
                table.name(),
                threads,
                rounds,
                Files.size(csv),
                Files.size(parquet),
                Runtime.version(),
                Runtime.getRuntime().availableProcessors());
        for (int round = 1; round <= rounds; round++) {
            for (String load : loads) {
                switch (load) {
                    case "csv" -> numacube(round, "CSV", csv, table, threads);
                    case "parquet" -> numacube(round, "Parquet", parquet, table, threads);
                    case "duck-csv" ->
                        duckDb(
                                round,
                                "CSV",
                                csv,
                                "read_csv('" + csv + "', header = true, delim = ',',"
                                        + " quote = '\"', auto_detect = false, columns = " + table.duckDbColumns()
                                        + ")",
                                table,
                                threads);
                    case "duck-parquet" ->
                        duckDb(round, "Parquet", parquet, "read_parquet('" + parquet + "')", table, threads);
                    default -> throw new IllegalArgumentException("unknown load: " + load);
                }
            }
        }
    }

    private static void numacube(int round, String format, Path file, TpchSchema table, int threads) {
        System.gc();
        int nodes = Math.max(
                1, io.numacube.numa.NumaRuntime.detect().plan().workerNodes().size());
        try (Cube cube = Cube.open(CubeOptions.defaults().withThreadsPerNode(Math.max(1, threads / nodes)))) {
            long cpu0 = cpuNanos();
            long own0 = ownCpuNanos();
            long t0 = System.nanoTime();
            TableStaging staging = format.equals("CSV")
                    ? csvLoader(cube)
                            .stage(file, table.name(), table.numacube(), CsvProgress.NONE)
                            .staging()
                    : new ParquetStagingLoader(cube.workers())
                            .stage(file, table.name(), table.numacube(), ProgressListener.NONE)
                            .staging();
            long t1 = System.nanoTime();
            long cpu1 = cpuNanos();
            long own1 = ownCpuNanos();
            cube.loadTable(staging);
            long t2 = System.nanoTime();
            long own2 = ownCpuNanos();
            long cpu2 = cpuNanos();
            report(
                    round,
                    "numacube",
                    format,
                    file,
                    staging.rows(),
                    (t2 - t0) / 1e9,
                    (cpu2 - cpu0) / 1e9,
                    String.format(
                            Locale.ROOT,
                            " (staging %.2f s, %.2f s CPU, %.2f s of it the loading thread's;"
                                    + " placing %.2f s, %.2f s CPU, %.2f s the loading thread's)",
                            (t1 - t0) / 1e9,
                            (cpu1 - cpu0) / 1e9,
                            (own1 - own0) / 1e9,
                            (t2 - t1) / 1e9,
                            (cpu2 - cpu1) / 1e9,
                            (own2 - own1) / 1e9));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The CSV loader: on the cube's workers, or on the calling thread with {@code -Dnumacube.csv.oneThread=true}
     * (which also times an engine build from before the parallel reader).
     */
    private static CsvStagingLoader csvLoader(Cube cube) {
        return Boolean.getBoolean("numacube.csv.oneThread")
                ? new CsvStagingLoader(CsvOptions.DEFAULT)
                : new CsvStagingLoader(CsvOptions.DEFAULT, cube.workers());
    }

    private static void duckDb(int round, String format, Path file, String reader, TpchSchema table, int threads)
            throws Exception {
        System.gc();
        try (DuckDbPeer duck = DuckDbPeer.open(threads)) {
            long cpu0 = cpuNanos();
            long t0 = System.nanoTime();
            duck.execute("CREATE TABLE " + table.name() + " AS SELECT * FROM " + reader);
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpu = (cpuNanos() - cpu0) / 1e9;
            long rows = ((Number) duck.fetch("SELECT count(*) FROM " + table.name())
                            .rows()
                            .get(0)[0])
                    .longValue();
            report(round, "DuckDB " + duck.version(), format, file, rows, seconds, cpu, "");
        }
    }

    /** CPU time of the calling (loading) thread: the serial part of a load, what no worker shares. */
    private static long ownCpuNanos() {
        return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    /** CPU time of the whole process (every thread, DuckDB's too): on a shared machine, the work a load did. */
    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void report(
            int round, String engine, String format, Path file, long rows, double seconds, double cpu, String detail)
            throws java.io.IOException {
        System.out.printf(
                Locale.ROOT,
                "round %d  %-16s %-8s %,d rows  %6.2f s (cpu %6.2f s)  %5.2f M rows/s  %6.1f MB/s%s%n",
                round,
                engine,
                format,
                rows,
                seconds,
                cpu,
                rows / seconds / 1e6,
                Files.size(file) / seconds / 1e6,
                detail);
    }
}
