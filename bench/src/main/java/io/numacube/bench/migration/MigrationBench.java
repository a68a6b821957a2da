package io.numacube.bench.migration;

import io.numacube.bench.BenchOptions;
import io.numacube.bench.Progress;
import io.numacube.bench.data.GeneratedTrades;
import io.numacube.bench.report.BenchReport;
import io.numacube.bench.stats.Summary;
import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.FollowOptions;
import io.numacube.engine.PlacementChange;
import io.numacube.engine.storage.ProgressListener;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The migration section: a cube of generated trades whose every partition is moved to the next data node ({@link
 * Cube#moveEveryPartition}) pass after pass. Measures the copy's throughput with nothing else running (GB/s of
 * partitions moved, no rate limit), then one query's latency from one client with nothing moving, while partitions
 * move at serve's default {@code --migrate-rate}, and while they move without a limit. On one data node each
 * partition is copied within its node: the copy's cost, not a crossing of the interconnect. Not thread-safe; one run.
 */
public final class MigrationBench {

    /** The query timed: a grouped sum over every row, so it reads every partition a move copies. */
    static final String QUERY = "SELECT desk, SUM(pnl), COUNT(*) FROM trades GROUP BY desk";

    private final BenchOptions options;
    private final Progress progress;

    public MigrationBench(BenchOptions options, Progress progress) {
        this.options = options;
        this.progress = progress;
    }

    /** Runs the section on a fresh cube of {@code options.sectionRows()} trades. */
    public BenchReport.Migration run() {
        double phaseSeconds = options.quick() ? 2 : 10;
        int passes = options.quick() ? 3 : 5;
        try (Cube cube = Cube.open(CubeOptions.defaults())) {
            cube.generateTrades(
                    new GeneratedTrades(options.sectionRows(), options.seed()).generator(), ProgressListener.NONE);
            List<Integer> nodes = cube.dataNodes();
            double[] gbPerSecond = new double[passes];
            long bytes = 0;
            for (int i = 0; i < passes; i++) {
                PlacementChange c = cube.moveEveryPartition(0);
                bytes = c.bytesMoved();
                gbPerSecond[i] = c.bytesMoved() / c.seconds() / 1e9;
                progress.line(
                        "migration: pass %d: %d partitions, %.1f MiB in %.3f s = %.2f GB/s",
                        i + 1, c.partitionsMoved(), c.bytesMoved() / 1048576.0, c.seconds(), gbPerSecond[i]);
            }
            cube.query(QUERY);
            BenchReport.QueryLatency idle = latency(cube, phaseSeconds, -1);
            long rate = FollowOptions.DEFAULT_BYTES_PER_SECOND;
            BenchReport.QueryLatency limited = latency(cube, phaseSeconds, rate);
            BenchReport.QueryLatency unlimited = latency(cube, phaseSeconds, 0);
            progress.line(
                    "migration: query p99 idle %.1f ms, moving at %d MiB/s %.1f ms, moving unlimited %.1f ms",
                    idle.p99Ms(), rate >> 20, limited.p99Ms(), unlimited.p99Ms());
            String note = nodes.size() == 1
                    ? "one data node: every partition is copied within node " + nodes.get(0)
                            + " by the path a move between nodes takes (a thread pinned to the target writes the copy),"
                            + " so this is the copy's cost; a move across the interconnect needs several nodes"
                    : "each partition moves to the next of data nodes " + nodes + " (across the interconnect)";
            return new BenchReport.Migration(
                    note + "; one client, " + phaseSeconds + " s per latency phase",
                    options.sectionRows(),
                    nodes,
                    bytes,
                    Summary.of(gbPerSecond),
                    rate,
                    idle,
                    limited,
                    unlimited);
        }
    }

    /**
     * One client's query latency for {@code seconds}, while a mover moves every partition pass after pass at {@code
     * rate} bytes/s (0: no limit), or with nothing moving ({@code rate < 0}).
     */
    private static BenchReport.QueryLatency latency(Cube cube, double seconds, long rate) {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<RuntimeException> failed = new AtomicReference<>();
        long[] moved = {0, 0};
        Thread mover = Thread.ofPlatform().name("bench-mover").unstarted(() -> {
            while (!stop.get()) {
                try {
                    PlacementChange c = cube.moveEveryPartition(rate);
                    moved[0] += c.bytesMoved();
                    moved[1]++;
                } catch (RuntimeException e) {
                    failed.set(e);
                    return;
                }
            }
        });
        if (rate >= 0) {
            mover.start();
        }
        List<Double> millis = new ArrayList<>();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end || millis.isEmpty()) {
            long t0 = System.nanoTime();
            cube.query(QUERY);
            millis.add((System.nanoTime() - t0) / 1e6);
        }
        stop.set(true);
        if (rate >= 0) {
            io.numacube.numa.base.Uninterruptibly.await(() -> {
                mover.join();
                return null;
            });
        }
        if (failed.get() != null) {
            throw failed.get();
        }
        double[] sorted = millis.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        return new BenchReport.QueryLatency(
                rate < 0 ? "idle" : rate == 0 ? "moving, no limit" : "moving at " + (rate >> 20) + " MiB/s",
                sorted.length,
                percentile(sorted, 50),
                percentile(sorted, 99),
                sorted[sorted.length - 1],
                moved[0],
                (int) moved[1]);
    }

    static double percentile(double[] sorted, double p) {
        int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.clamp(i, 0, sorted.length - 1)];
    }
}
