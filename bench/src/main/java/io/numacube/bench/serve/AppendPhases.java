package io.numacube.bench.serve;

import io.numacube.bench.data.GeneratedTrades;
import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.TableWrite;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.server.durable.DurableStore;
import io.numacube.server.wal.WalOptions;
import io.numacube.server.write.BatchFormat;
import io.numacube.server.write.WriteService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A manual measurement, never run by the tests or the bench: where one durable append's time goes without HTTP, for
 * a few batch sizes, in one process over generated trades. Per batch it times staging (CSV parse and coding, {@link
 * WriteService#staged}), the WAL (encode, write, fsync: {@link DurableStore#batchLog}) and the apply ({@code
 * Cube.write}), one after the other on one thread, and prints the medians and the rows per second of the three
 * together (the
 * process's CPU time per batch too: on a shared machine the minimum and the CPU time are the steadier figures), after
 * a few batches of warm-up.
 *
 * <p>With a fourth argument {@code writers} it then also runs that many threads appending batches of each
 * size through {@link WriteService#append} (staging, log, apply, as the server does; each thread waits for its write to
 * be durable and applied before it sends the next) and prints their rows per second and the records per fsync: how
 * far one writer's staging overlaps another's fsync on this machine.
 *
 * <p>{@code java -cp bench/target/numacube-bench.jar:bench/target/lib/* io.numacube.bench.serve.AppendPhases
 * [table-rows=1000000] [batch-rows=10000,100000,1000000] [seconds-per-size=6] [writers]}
 */
public final class AppendPhases {

    private static final int WARMUP_BATCHES = 5;

    private AppendPhases() {}

    public static void main(String[] args) throws Exception {
        long tableRows = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000L;
        int[] sizes = Arrays.stream((args.length > 1 ? args[1] : "10000,100000,1000000").split(","))
                .mapToInt(Integer::parseInt)
                .toArray();
        double seconds = args.length > 2 ? Double.parseDouble(args[2]) : 6;
        Path dir = Files.createTempDirectory("numacube-append-phases");
        try (Cube cube = Cube.open(CubeOptions.defaults());
                DurableStore store = DurableStore.open(dir, WalOptions.defaults())) {
            cube.generateTrades(new GeneratedTrades(tableRows, 42).generator(), ProgressListener.NONE);
            WriteService writes = new WriteService(cube, store.batchLog());
            int writers = args.length > 3 ? Integer.parseInt(args[3]) : 0;
            for (int size : sizes) {
                measure(cube, writes, store, new TradeBatches(size, 7), seconds);
                if (writers > 0) {
                    concurrent(writes, store, new TradeBatches(size, 7), seconds, writers);
                }
            }
        }
    }

    private static void measure(Cube cube, WriteService writes, DurableStore store, TradeBatches batches, double s) {
        for (int w = 0; w < WARMUP_BATCHES; w++) {
            WriteService.Batch b = new WriteService.Batch("trades", BatchFormat.CSV, batches.body(w), "warm-up " + w);
            store.batchLog().write(List.of(b));
            cube.write(writes.staged(List.of(b)));
        }
        var os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        int n = 0;
        long[][] nanos = new long[3][4096];
        long start = System.nanoTime();
        long deadline = start + (long) (s * 1e9);
        while ((System.nanoTime() < deadline || n < 3) && n < 4096) {
            WriteService.Batch b =
                    new WriteService.Batch("trades", BatchFormat.CSV, batches.body(n), "phases batch " + n);
            long t0 = System.nanoTime();
            List<TableWrite> staged = writes.staged(List.of(b));
            long t1 = System.nanoTime();
            store.batchLog().write(List.of(b));
            long t2 = System.nanoTime();
            cube.write(staged);
            long t3 = System.nanoTime();
            nanos[0][n] = t1 - t0;
            nanos[1][n] = t2 - t1;
            nanos[2][n] = t3 - t2;
            n++;
        }
        double total = (System.nanoTime() - start) / 1e9;
        double cpuMsPerBatch = (os.getProcessCpuTime() - cpu0) / 1e6 / n;
        System.out.printf(
                "batch-rows=%d batches=%d rows/s=%.0f cpu-ms/batch=%.1f stage-ms p50=%.2f min=%.2f"
                        + " wal-ms p50=%.2f min=%.2f apply-ms p50=%.2f min=%.2f table-rows=%d%n",
                batches.rowsPerBatch(),
                n,
                (double) n * batches.rowsPerBatch() / total,
                cpuMsPerBatch,
                median(nanos[0], n) / 1e6,
                min(nanos[0], n) / 1e6,
                median(nanos[1], n) / 1e6,
                min(nanos[1], n) / 1e6,
                median(nanos[2], n) / 1e6,
                min(nanos[2], n) / 1e6,
                cube.rowCount("trades"));
    }

    /** {@code writers} threads appending batches for {@code s} seconds, each waiting for its own write. */
    private static void concurrent(WriteService writes, DurableStore store, TradeBatches batches, double s, int writers)
            throws InterruptedException {
        var before = store.walStats();
        java.util.concurrent.atomic.AtomicLong rows = new java.util.concurrent.atomic.AtomicLong();
        long deadline = System.nanoTime() + (long) (s * 1e9);
        List<Thread> threads = new java.util.ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < writers; t++) {
            int first = t;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = first; System.nanoTime() < deadline; i += writers) {
                    rows.addAndGet(writes.append(new WriteService.Batch(
                                    "trades", BatchFormat.CSV, batches.body(i), "writer " + first))
                            .rows());
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        double total = (System.nanoTime() - start) / 1e9;
        var after = store.walStats();
        System.out.printf(
                "batch-rows=%d writers=%d rows/s=%.0f records=%d fsyncs=%d records/fsync=%.2f%n",
                batches.rowsPerBatch(),
                writers,
                rows.get() / total,
                after.records() - before.records(),
                after.fsyncs() - before.fsyncs(),
                (double) (after.records() - before.records()) / Math.max(1, after.fsyncs() - before.fsyncs()));
    }

    private static double min(long[] values, int n) {
        return Arrays.stream(values, 0, n).min().orElse(0);
    }

    private static double median(long[] values, int n) {
        long[] sorted = Arrays.copyOf(values, n);
        Arrays.sort(sorted);
        return sorted[n / 2];
    }
}
