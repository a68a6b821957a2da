package io.numacube.bench.tpch;

import io.numacube.bench.BenchOptions;
import io.numacube.bench.stats.Summary;

/**
 * Steady-state timing of one query in two engines, run by run in turn (a, b, b, a, a, b, ...: neither always goes
 * first), so that a ratio of their figures is not the ratio of two different minutes of a shared machine. Warm-up:
 * at least {@link BenchOptions#warmups()} rounds and {@link BenchOptions#warmupSeconds()}, stopping at a quarter of
 * {@link BenchOptions#timeBudgetSeconds()}; then as many timed rounds as fit in the budget, at least 3 and at most
 * {@link BenchOptions#repetitions()}. Stateless apart from its options; not thread-safe to share a body.
 */
final class SteadyTimer {

    /** A timed body that may throw. */
    @FunctionalInterface
    interface Body {
        void run() throws Exception;
    }

    private final BenchOptions options;

    SteadyTimer(BenchOptions options) {
        this.options = options;
    }

    /** Seconds of the timed runs of {@code a} and of {@code b}, in that order. */
    Summary[] time(Body a, Body b) throws Exception {
        Body[] bodies = {a, b};
        long start = System.nanoTime();
        double round = Double.NaN;
        for (int i = 0; ; i++) {
            double elapsed = (System.nanoTime() - start) / 1e9;
            if (i >= options.warmups() && elapsed >= options.warmupSeconds()
                    || i > 0 && elapsed > options.timeBudgetSeconds() / 4) {
                break;
            }
            long t0 = System.nanoTime();
            a.run();
            b.run();
            round = (System.nanoTime() - t0) / 1e9;
        }
        int runs =
                (int) Math.max(3, Math.min(options.repetitions(), options.timeBudgetSeconds() / Math.max(round, 1e-9)));
        double[][] seconds = new double[2][runs];
        for (int i = 0; i < runs; i++) {
            for (int k = 0; k < 2; k++) {
                int c = (i + k) % 2;
                long t0 = System.nanoTime();
                bodies[c].run();
                seconds[c][i] = (System.nanoTime() - t0) / 1e9;
            }
        }
        return new Summary[] {Summary.of(seconds[0]), Summary.of(seconds[1])};
    }
}
