package io.numacube.bench.probe;

import io.numacube.bench.stats.Summary;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A STREAM-like read-bandwidth probe: every thread sums its share of a large off-heap array of longs (int-indexed
 * loops over 8 MiB {@code asSlice} windows, 4 independent accumulators, so the loop is bound by memory, not by add
 * latency); the array is first written by the same threads. Bandwidth is bytes read / wall time of the slowest
 * thread, best of the repetitions (as STREAM reports).
 *
 * <p>Not thread-safe: one probe at a time. The array is freed when {@link #measure} returns.
 */
public final class BandwidthProbe {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final int WINDOW_LONGS = 1 << 20;
    /** What the kernel is, for reports: say which probe a figure comes from. */
    public static final String KERNEL = "sum of longs, Java FFM, int index over 8 MiB asSlice windows, 4 accumulators";

    private final ThreadTeam team;

    public BandwidthProbe(ThreadTeam team) {
        this.team = team;
    }

    /**
     * Result of one probe configuration.
     *
     * @param threads      threads reading at once
     * @param bytes        bytes read per repetition
     * @param gbPerSecond  summary over the repetitions, GB/s (10^9 bytes per second)
     * @param best         the best repetition, GB/s: the figure the bench divides by
     */
    public record Result(int threads, long bytes, Summary gbPerSecond, double best) {}

    /**
     * Measures read bandwidth with {@code threads} threads over an array of {@code bytes} bytes.
     *
     * @throws IllegalArgumentException when bytes is below 64 KiB or threads below 1
     */
    public Result measure(long bytes, int threads, int repetitions) {
        if (bytes < 65536 || threads < 1 || repetitions < 1) {
            throw new IllegalArgumentException("probe needs bytes >= 65536, threads >= 1, repetitions >= 1: bytes="
                    + bytes + " threads=" + threads + " repetitions=" + repetitions);
        }
        long longs = bytes / 8;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment array = arena.allocate(longs * 8, 4096);
            team.run(threads, t -> fill(array, from(longs, threads, t), from(longs, threads, t + 1)));
            AtomicLong sink = new AtomicLong();
            long warmLongs = Math.min(longs, WINDOW_LONGS);
            for (int i = 0; i < 50; i++) {
                sink.addAndGet(sum(array, 0, warmLongs));
            }
            double[] gbs = new double[repetitions];
            for (int r = 0; r < repetitions; r++) {
                CyclicBarrier start = new CyclicBarrier(threads);
                long[] endNanos = new long[threads];
                long[] startNanos = new long[threads];
                team.run(threads, t -> {
                    await(start);
                    startNanos[t] = System.nanoTime();
                    sink.addAndGet(sum(array, from(longs, threads, t), from(longs, threads, t + 1)));
                    endNanos[t] = System.nanoTime();
                });
                long first = Long.MAX_VALUE;
                long last = Long.MIN_VALUE;
                for (int t = 0; t < threads; t++) {
                    first = Math.min(first, startNanos[t]);
                    last = Math.max(last, endNanos[t]);
                }
                gbs[r] = longs * 8.0 / (last - first);
            }
            if (sink.get() == 42) {
                System.out.print("");
            }
            Summary s = Summary.of(gbs);
            return new Result(threads, longs * 8, s, s.max());
        }
    }

    private static long from(long longs, int threads, int t) {
        return t == threads ? longs : longs / threads * t;
    }

    private static void fill(MemorySegment array, long fromIndex, long toIndex) {
        for (long w = fromIndex; w < toIndex; w += WINDOW_LONGS) {
            int n = (int) Math.min(WINDOW_LONGS, toIndex - w);
            MemorySegment s = array.asSlice(w * 8, n * 8L);
            for (int i = 0; i < n; i++) {
                s.setAtIndex(LONG, i, w + i);
            }
        }
    }

    static long sum(MemorySegment array, long fromIndex, long toIndex) {
        long a0 = 0;
        long a1 = 0;
        long a2 = 0;
        long a3 = 0;
        for (long w = fromIndex; w < toIndex; w += WINDOW_LONGS) {
            int n = (int) Math.min(WINDOW_LONGS, toIndex - w);
            MemorySegment s = array.asSlice(w * 8, n * 8L);
            int i = 0;
            for (; i + 3 < n; i += 4) {
                a0 += s.getAtIndex(LONG, i);
                a1 += s.getAtIndex(LONG, i + 1);
                a2 += s.getAtIndex(LONG, i + 2);
                a3 += s.getAtIndex(LONG, i + 3);
            }
            for (; i < n; i++) {
                a0 += s.getAtIndex(LONG, i);
            }
        }
        return a0 + a1 + a2 + a3;
    }

    private static void await(CyclicBarrier b) {
        try {
            b.await();
        } catch (Exception e) {
            throw new IllegalStateException("probe threads could not start together", e);
        }
    }
}
