package io.numacube.bench.serve;

import io.numacube.bench.data.GeneratedTrades;
import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.numa.NumaRuntime;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.durable.DurableStore;
import io.numacube.server.query.ServerMetrics;
import io.numacube.server.wal.WalOptions;
import io.numacube.server.wal.WalStats;
import io.numacube.server.write.WriteService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.HdrHistogram.SynchronizedHistogram;

/**
 * A {@code numacube serve} server in this process, as {@code serve --generate ROWS --data-dir DIR} builds it: a cube
 * holding generated trades (with fx and books), its writes logged to a write-ahead log in a temporary data directory
 * and fsynced before they are applied and acknowledged, HTTP and pgwire on free loopback ports, default admission.
 * Two differences from the command, both to keep the section short: the generated rows are not checkpointed first
 * (the command writes them to the directory before its ready line; only the writes matter here), and no periodic
 * checkpoint runs.
 *
 * <p>Thread-safety: {@link #cube()} and the front ends may be used from any thread. {@link #close()} stops the
 * server, closes the log, frees the cube and deletes the directory.
 */
final class ServedCube implements AutoCloseable {

    private final Cube cube;
    private final Path dataDir;
    private final DurableStore store;
    private final NumacubeServer server;
    private final SynchronizedHistogram fsyncMicros;

    private ServedCube(
            Cube cube, Path dataDir, DurableStore store, NumacubeServer server, SynchronizedHistogram fsyncMicros) {
        this.cube = cube;
        this.dataDir = dataDir;
        this.store = store;
        this.server = server;
        this.fsyncMicros = fsyncMicros;
    }

    /** Generates {@code rows} trades with {@code seed} on {@code threads} workers and starts a durable server. */
    static ServedCube start(long rows, long seed, int threads) throws IOException {
        int nodes = Math.max(1, NumaRuntime.detect().plan().workerNodes().size());
        Cube cube = Cube.open(CubeOptions.defaults().withThreadsPerNode(Math.max(1, threads / nodes)));
        Path dir = null;
        DurableStore store = null;
        try {
            cube.generateTrades(new GeneratedTrades(rows, seed).generator(), ProgressListener.NONE);
            dir = Files.createTempDirectory("numacube-bench-serve");
            ServerMetrics metrics = new ServerMetrics();
            SynchronizedHistogram fsync = new SynchronizedHistogram(60_000_000L, 3);
            store = DurableStore.open(dir, WalOptions.defaults().withFsyncLatencyNanos(nanos -> {
                metrics.walFsync().accept(nanos);
                fsync.recordValue(Math.max(1, Math.min(nanos / 1000, 60_000_000L)));
            }));
            WriteService writes = new WriteService(cube, store.batchLog(), metrics);
            NumacubeServer server =
                    NumacubeServer.start(ServerOptions.defaults("bench").withPorts(0, 0), writes, metrics);
            return new ServedCube(cube, dir, store, server, fsync);
        } catch (IOException | RuntimeException e) {
            if (store != null) {
                store.close();
            }
            cube.close();
            deleteTree(dir);
            throw e;
        }
    }

    Cube cube() {
        return cube;
    }

    String httpUrl() {
        return server.httpUrl();
    }

    int httpPort() {
        return server.httpAddress().getPort();
    }

    int pgPort() {
        return server.pgAddress().getPort();
    }

    WalStats walStats() {
        return store.walStats();
    }

    /** The WAL's fsync latencies in microseconds since the last {@link SynchronizedHistogram#reset()}. */
    SynchronizedHistogram fsyncMicros() {
        return fsyncMicros;
    }

    long tradesRows() {
        return cube.rowCount("trades");
    }

    @Override
    public void close() {
        try {
            server.shutdown(Duration.ofSeconds(5));
            store.close();
        } finally {
            cube.close();
            deleteTree(dataDir);
        }
    }

    private static void deleteTree(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the bench's data directory: dir=" + dir + " error=" + e, e);
        }
    }
}
