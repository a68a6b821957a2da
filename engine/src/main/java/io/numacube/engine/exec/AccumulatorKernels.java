package io.numacube.engine.exec;

import java.lang.foreign.MemorySegment;

/**
 * The per-row loops that fold a batch into an {@link AggregationState}'s {@link GroupValues}, one per accumulator family
 * (a double or exact accumulator, over a bare column or an expression) and the fused count-and-sum of bare double
 * columns; and the per-value operations they and the combine share ({@link #minD}, {@link #maxD}, {@link #carryOf}).
 *
 * <p>Every loop takes the batch's rows ({@code b + k}, or {@code s[k]} where the selection {@code s} is not null, for
 * {@code k < n}) and their group slots {@code g[k]}, which the arrays it writes must hold. An exact SUM adds in 128
 * bits: where 64 overflow, the wrapped value stays and the carry goes to the {@link GroupValues}. Each loop is a plain
 * loop over arrays, with no allocation and no call per row but the memory reads. Stateless and thread-safe.
 */
final class AccumulatorKernels {

    private AccumulatorKernels() {}

    /** Count the rows and sum two bare double columns in one pass. */
    static void countAndSum2(
            long[] cts,
            int[] g,
            MemorySegment seg0,
            double[] a0,
            MemorySegment seg1,
            double[] a1,
            int b,
            int n,
            int[] s) {
        if (s == null) {
            for (int k = 0; k < n; k++) {
                int x = g[k];
                cts[x]++;
                a0[x] += seg0.getAtIndex(CodeKernels.DOUBLE, b + k);
                a1[x] += seg1.getAtIndex(CodeKernels.DOUBLE, b + k);
            }
        } else {
            for (int k = 0; k < n; k++) {
                int x = g[k];
                int r = s[k];
                cts[x]++;
                a0[x] += seg0.getAtIndex(CodeKernels.DOUBLE, r);
                a1[x] += seg1.getAtIndex(CodeKernels.DOUBLE, r);
            }
        }
    }

    /** The common case fused: count the rows and sum a bare double column in one pass. */
    static void countAndSum(long[] cts, int[] g, MemorySegment seg, double[] a, int b, int n, int[] s) {
        if (s == null) {
            for (int k = 0; k < n; k++) {
                int x = g[k];
                cts[x]++;
                a[x] += seg.getAtIndex(CodeKernels.DOUBLE, b + k);
            }
        } else {
            for (int k = 0; k < n; k++) {
                int x = g[k];
                cts[x]++;
                a[x] += seg.getAtIndex(CodeKernels.DOUBLE, s[k]);
            }
        }
    }

    static void accumulateDoubleColumn(
            MemorySegment seg, Accumulator.Kind kind, double[] a, int b, int n, int[] s, int[] g) {
        switch (kind) {
            case SUM_DOUBLE -> {
                if (s == null) {
                    for (int k = 0; k < n; k++) {
                        a[g[k]] += seg.getAtIndex(CodeKernels.DOUBLE, b + k);
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        a[g[k]] += seg.getAtIndex(CodeKernels.DOUBLE, s[k]);
                    }
                }
            }
            case MIN_DOUBLE -> {
                for (int k = 0; k < n; k++) {
                    double v = seg.getAtIndex(CodeKernels.DOUBLE, s == null ? b + k : s[k]);
                    a[g[k]] = minD(a[g[k]], v);
                }
            }
            case MAX_DOUBLE -> {
                for (int k = 0; k < n; k++) {
                    double v = seg.getAtIndex(CodeKernels.DOUBLE, s == null ? b + k : s[k]);
                    a[g[k]] = maxD(a[g[k]], v);
                }
            }
            default -> throw new IllegalStateException("exact accumulator on the double path: " + kind);
        }
    }

    /** A bare BIGINT column (exact sums, minimums, maximums) or the codes of a dimension (minimums, maximums). */
    static void accumulateLongColumn(
            MorselView view, Accumulator acc, GroupValues values, int i, long[] a, int b, int n, int[] s, int[] g) {
        MemorySegment seg = view.columns[acc.column()];
        if (acc.overCodes()) {
            CodeKernels.minMaxCodes(
                    seg, view.widths[acc.column()], b, n, s, g, a, acc.kind() == Accumulator.Kind.MIN_LONG);
            return;
        }
        switch (acc.kind()) {
            case SUM_LONG -> {
                int k = 0;
                while (k < n) {
                    try {
                        for (; k < n; k++) {
                            a[g[k]] =
                                    Math.addExact(a[g[k]], seg.getAtIndex(CodeKernels.LONG, s == null ? b + k : s[k]));
                        }
                    } catch (ArithmeticException e) {
                        values.addWrapping(i, a, g[k], seg.getAtIndex(CodeKernels.LONG, s == null ? b + k : s[k]));
                        k++;
                    }
                }
            }
            case MIN_LONG -> {
                for (int k = 0; k < n; k++) {
                    a[g[k]] = Math.min(a[g[k]], seg.getAtIndex(CodeKernels.LONG, s == null ? b + k : s[k]));
                }
            }
            case MAX_LONG -> {
                for (int k = 0; k < n; k++) {
                    a[g[k]] = Math.max(a[g[k]], seg.getAtIndex(CodeKernels.LONG, s == null ? b + k : s[k]));
                }
            }
            default -> throw new IllegalStateException("double accumulator on the exact path: " + acc);
        }
    }

    /** A double accumulator over an expression, evaluated a batch at a time. */
    static void accumulateDoubleExpression(
            MorselView view, Accumulator acc, BatchVectors vectors, double[] a, int b, int n, int[] s, int[] g) {
        double[] v = vectors.values();
        acc.argument().eval(view, b, n, s, v, vectors.scratch());
        switch (acc.kind()) {
            case SUM_DOUBLE -> {
                for (int k = 0; k < n; k++) {
                    a[g[k]] += v[k];
                }
            }
            case MIN_DOUBLE -> {
                for (int k = 0; k < n; k++) {
                    a[g[k]] = minD(a[g[k]], v[k]);
                }
            }
            case MAX_DOUBLE -> {
                for (int k = 0; k < n; k++) {
                    a[g[k]] = maxD(a[g[k]], v[k]);
                }
            }
            default -> throw new IllegalStateException("long accumulator over an expression: " + acc);
        }
    }

    /** A BIGINT accumulator over an integer expression: evaluated and accumulated exactly in 64 bits. */
    static void accumulateExactExpression(
            MorselView view,
            Accumulator acc,
            BatchVectors vectors,
            GroupValues values,
            int i,
            long[] a,
            int b,
            int n,
            int[] s,
            int[] g) {
        long[] v = vectors.exactValues();
        acc.argument().evalLong(view, b, n, s, v, vectors.scratch());
        switch (acc.kind()) {
            case SUM_LONG -> {
                int k = 0;
                while (k < n) {
                    try {
                        for (; k < n; k++) {
                            a[g[k]] = Math.addExact(a[g[k]], v[k]);
                        }
                    } catch (ArithmeticException e) {
                        values.addWrapping(i, a, g[k], v[k]);
                        k++;
                    }
                }
            }
            case MIN_LONG -> {
                for (int k = 0; k < n; k++) {
                    a[g[k]] = Math.min(a[g[k]], v[k]);
                }
            }
            case MAX_LONG -> {
                for (int k = 0; k < n; k++) {
                    a[g[k]] = Math.max(a[g[k]], v[k]);
                }
            }
            default -> throw new IllegalStateException("double accumulator on the exact path: " + acc);
        }
    }

    /** The carry of the wrapped 64-bit sum {@code sum = x + v}: +1 past the top, -1 past the bottom, else 0. */
    static int carryOf(long x, long v, long sum) {
        return ((x ^ sum) & (v ^ sum)) < 0 ? (v < 0 ? -1 : 1) : 0;
    }

    /** The smaller double in DuckDB's order, where NaN is above every value (Math.min would prefer NaN); a NaN
     * accumulator (MIN's initial value) takes any value. */
    static double minD(double a, double v) {
        return v < a || a != a ? v : a;
    }

    /** The larger double in DuckDB's order: NaN is above every value. */
    static double maxD(double a, double v) {
        return v > a || v != v ? v : a;
    }
}
