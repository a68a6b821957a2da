package io.numacube.server.wal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * A manual measurement, never run by the tests: appends of one payload size from 1, 4, 16 and 64 threads for a few
 * seconds each into a fresh log, printing appends per second, records per fsync and fsync latency percentiles. It
 * measures the disk under {@code DIR} as much as the log; report it with the machine and the file system.
 *
 * <p>{@code java -cp server/target/test-classes:server/target/classes:numa/target/classes
 * io.numacube.server.wal.WalAppendRate DIR [payload-bytes=10240] [seconds=3]}
 */
public final class WalAppendRate {

    private WalAppendRate() {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        int payloadBytes = args.length > 1 ? Integer.parseInt(args[1]) : 10_240;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        System.out.printf(
                "java=%s cpus=%d dir=%s payload-bytes=%d seconds=%d%n",
                Runtime.version(), Runtime.getRuntime().availableProcessors(), root, payloadBytes, seconds);
        for (int threads : new int[] {1, 4, 16, 64}) {
            measure(Files.createTempDirectory(root, "wal-rate"), threads, payloadBytes, seconds);
        }
    }

    private static void measure(Path dir, int threads, int payloadBytes, int seconds) throws Exception {
        ConcurrentLinkedQueue<Long> fsyncNanos = new ConcurrentLinkedQueue<>();
        LongAdder appends = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        WalStats stats;
        long elapsed;
        try (WriteAheadLog wal =
                WriteAheadLog.open(dir, WalOptions.defaults().withFsyncLatencyNanos(fsyncNanos::add))) {
            byte[] payload = new byte[payloadBytes];
            List<Thread> running = new ArrayList<>();
            long start = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                running.add(Thread.ofPlatform().start(() -> {
                    while (!stop.get()) {
                        wal.append((byte) 0, payload);
                        appends.increment();
                    }
                }));
            }
            Thread.sleep(seconds * 1000L);
            stop.set(true);
            for (Thread t : running) {
                t.join();
            }
            elapsed = System.nanoTime() - start;
            stats = wal.stats();
        }
        long[] latencies =
                fsyncNanos.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf(
                "threads=%d appends/s=%.0f MB/s=%.1f records-per-fsync=%.1f fsync-p50-us=%d fsync-p99-us=%d%n",
                threads,
                appends.sum() / (elapsed / 1e9),
                stats.bytes() / (elapsed / 1e9) / 1e6,
                stats.recordsPerCommit(),
                percentile(latencies, 0.50) / 1000,
                percentile(latencies, 0.99) / 1000);
        deleteTree(dir);
    }

    private static long percentile(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (p * sorted.length))];
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }
}
