package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;

/**
 * The exact SUM of a BIGINT (or DECIMAL) column times one or two values looked up by code ({@code
 * SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax))}), kept as the column's sum per (group, code pair) and each
 * cell's sum multiplied by its factor when drained: one read of the column, one or two code reads and one add a row,
 * in place of a pass per operation with a checked multiply per row. The sum is the same as row by row (products and
 * sums exact, 128 bits); and so that a row whose product leaves 64 bits still raises 22003 as the row-by-row
 * evaluation does, a row whose value exceeds {@link #limit} in magnitude (the largest whose every partial product
 * fits) is computed row by row, with the same checked multiplies, and added directly.
 *
 * <p>Invariants: cells {@code (g * codes1 + c1) * codes2 + c2}; {@code sums} and {@code carries} are 0 after {@link
 * #drainInto}, which runs after every morsel; {@code factor[c1 * codes2 + c2]} is the exact product of the two
 * values. Not thread-safe: owned by one {@link AggregationState}.
 */
final class ScaledColumnSums {

    private final int column;
    private final BatchExpression.ByCode first;
    private final BatchExpression.ByCode second;
    private final String firstText;
    private final String secondText;
    private final int codes2;
    private final int cellsPerGroup;
    private final long[] factor;
    private final long limit;
    private final long[] sums;
    private final long[] carries;
    private boolean touched;
    private boolean carried;

    private ScaledColumnSums(
            int column,
            BatchExpression.Arith inner,
            BatchExpression.Arith outer,
            long[] factor,
            long limit,
            int groups) {
        this.column = column;
        this.first = (BatchExpression.ByCode) inner.right;
        this.firstText = inner.text;
        this.second = outer == null ? null : (BatchExpression.ByCode) outer.right;
        this.secondText = outer == null ? null : outer.text;
        this.codes2 = second == null ? 1 : second.longOfCode.length;
        this.cellsPerGroup = first.longOfCode.length * codes2;
        this.factor = factor;
        this.limit = limit;
        this.sums = new long[groups * cellsPerGroup];
        this.carries = new long[sums.length];
    }

    /**
     * The cells for an exact SUM of {@code argument} over {@code groups} dense groups, or null where they do not
     * serve: the argument is not {@code column * byCode} or {@code (column * byCode) * byCode} (exact values), a
     * factor of two codes leaves 64 bits, or the cells would exceed {@link CodeHistogram#MAX_CELLS}.
     */
    static ScaledColumnSums of(BatchExpression argument, long groups) {
        if (!(exact(argument) instanceof BatchExpression.Arith top) || !isScale(top)) {
            return null;
        }
        BatchExpression.Arith inner = top;
        BatchExpression.Arith outer = null;
        if (exact(top.left) instanceof BatchExpression.Arith a && isScale(a)) {
            inner = a;
            outer = top;
        }
        if (!(exact(inner.left) instanceof BatchExpression.LongColumn col)) {
            return null;
        }
        long[] f1 = ((BatchExpression.ByCode) inner.right).longOfCode;
        long[] f2 = outer == null ? new long[] {1} : ((BatchExpression.ByCode) outer.right).longOfCode;
        long cells = groups * f1.length * f2.length;
        if (groups < 1 || cells > CodeHistogram.MAX_CELLS) {
            return null;
        }
        long[] factor = new long[f1.length * f2.length];
        long bound = 1;
        try {
            for (int c1 = 0; c1 < f1.length; c1++) {
                for (int c2 = 0; c2 < f2.length; c2++) {
                    long both = Math.multiplyExact(f1[c1], f2[c2]);
                    factor[c1 * f2.length + c2] = both;
                    bound = Math.max(bound, Math.max(Math.absExact(f1[c1]), Math.absExact(both)));
                }
            }
        } catch (ArithmeticException e) {
            return null;
        }
        return new ScaledColumnSums(col.column, inner, outer, factor, Long.MAX_VALUE / bound, (int) groups);
    }

    /**
     * The exact operation an integer expression computes: the compiler wraps each integer operation in {@link
     * BatchExpression.ExactAsDouble} (for readers of doubles), whose {@code evalLong} is the operation's own.
     */
    private static BatchExpression exact(BatchExpression e) {
        return e instanceof BatchExpression.ExactAsDouble x ? exact(x.exact) : e;
    }

    private static boolean isScale(BatchExpression.Arith a) {
        return a.op == '*'
                && a.right instanceof BatchExpression.ByCode b
                && b.longOfCode != null
                && b.errorOfCode == null;
    }

    /** The column whose values are scaled. */
    int column() {
        return column;
    }

    /** The factors' code columns, the first's then the second's (one entry when there is one factor). */
    int[] factorColumns() {
        return second == null ? new int[] {first.column} : new int[] {first.column, second.column};
    }

    /** The factors' exact values by code, in the order of {@link #factorColumns}. */
    long[][] factorValues() {
        return second == null ? new long[][] {first.longOfCode} : new long[][] {first.longOfCode, second.longOfCode};
    }

    /** The largest magnitude of a value whose every partial product with the factors fits 64 bits. */
    long limit() {
        return limit;
    }

    /** Adds {@code n} rows (at {@code b + k}, or {@code sel[k]}) of groups {@code g[k]}; slow rows go to {@code direct}. */
    void add(MorselView view, int b, int n, int[] sel, int[] g, CodeHistogram.Sink direct) {
        MemorySegment values = view.columns[column];
        MemorySegment s1 = view.columns[first.column];
        CodeWidth w1 = view.widths[first.column];
        MemorySegment s2 = second == null ? null : view.columns[second.column];
        CodeWidth w2 = second == null ? null : view.widths[second.column];
        long[] cells = sums;
        long lim = limit;
        touched |= n > 0;
        for (int k = 0; k < n; k++) {
            int row = sel == null ? b + k : sel[k];
            long v = values.getAtIndex(CodeKernels.LONG, row);
            int c1 = CodeKernels.code(s1, w1, row);
            int c2 = s2 == null ? 0 : CodeKernels.code(s2, w2, row);
            if (v > lim || v < -lim) {
                slowRow(v, c1, c2, g[k], direct);
                continue;
            }
            int cell = g[k] * cellsPerGroup + c1 * codes2 + c2;
            long x = cells[cell];
            long sum = x + v;
            if (((x ^ sum) & (v ^ sum)) < 0) {
                carries[cell] += v < 0 ? -1 : 1;
                carried = true;
            }
            cells[cell] = sum;
        }
    }

    /** A row whose product may leave 64 bits: multiplied as row by row (22003 when it does), added directly. */
    private void slowRow(long v, int c1, int c2, int group, CodeHistogram.Sink direct) {
        long f1 = first.longOfCode[c1];
        long p;
        try {
            p = Math.multiplyExact(v, f1);
        } catch (ArithmeticException e) {
            throw BatchExpression.overflow(firstText, '*', v, f1);
        }
        if (second != null) {
            long f2 = second.longOfCode[c2];
            try {
                p = Math.multiplyExact(p, f2);
            } catch (ArithmeticException e) {
                throw BatchExpression.overflow(secondText, '*', p, f2);
            }
        }
        direct.add(group, p >> 63, p);
    }

    /** Hands each cell's sum times its factor (128 bits) to {@code sink}, per group, and clears the cells. */
    void drainInto(CodeHistogram.Sink sink) {
        if (!touched) {
            return;
        }
        for (int cell = 0; cell < sums.length; cell++) {
            long s = sums[cell];
            long c = carried ? carries[cell] : 0;
            if (s == 0 && c == 0) {
                continue;
            }
            sums[cell] = 0;
            long f = factor[cell % cellsPerGroup];
            int group = cell / cellsPerGroup;
            if (c == 0) {
                sink.add(group, Math.multiplyHigh(s, f), s * f);
            } else {
                carries[cell] = 0;
                BigInteger p = BigInteger.valueOf(c)
                        .shiftLeft(64)
                        .add(BigInteger.valueOf(s))
                        .multiply(BigInteger.valueOf(f));
                sink.add(group, p.shiftRight(64).longValueExact(), p.longValue());
            }
        }
        touched = false;
        carried = false;
    }
}
