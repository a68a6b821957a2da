package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import java.lang.foreign.MemorySegment;

/**
 * The exact SUM of a value looked up by a code ({@link BatchExpression.ByCode}: {@code SUM(l_quantity)} of a DECIMAL
 * column of 50 values, {@code SUM(1 - l_discount)}) kept as a count of rows per (group, code) instead of a gather and
 * an overflow-checked add per row: one byte read and one increment a row. {@link #drainInto} turns the counts into
 * the sums, {@code count * value} per cell in 128 bits, so the sum is the same as adding row by row, and its overflow
 * is decided as late (by the final 128-bit sum, never by the order of the rows).
 *
 * <p>Invariants: {@code counts} holds {@code groups * codes} cells, cell {@code g * codes + code}; every cell is 0
 * after {@link #drainInto}; a cell counts the rows of at most one morsel (drained after each), so it never overflows
 * an int. Not thread-safe: owned by one {@link AggregationState}.
 */
final class CodeHistogram {

    /** Most cells (groups times codes) a histogram may have: draining it costs a pass over them per morsel. */
    static final int MAX_CELLS = 1 << 12;

    private final int column;
    private final long[] valueOfCode;
    private final int codes;
    private final int[] counts;
    private boolean touched;

    private CodeHistogram(int column, long[] valueOfCode, int groups) {
        this.column = column;
        this.valueOfCode = valueOfCode;
        this.codes = valueOfCode.length;
        this.counts = new int[groups * codes];
    }

    /**
     * A histogram for an exact SUM of {@code argument} over {@code groups} dense groups, or null where it does not
     * serve: the argument is no code lookup with exact values (or one with errors: {@link CodeErrors}), or the cells would exceed {@link #MAX_CELLS}.
     */
    static CodeHistogram of(BatchExpression argument, long groups) {
        if (!(argument instanceof BatchExpression.ByCode byCode)
                || byCode.longOfCode == null
                || byCode.errorOfCode != null) {
            return null;
        }
        long cells = groups * byCode.longOfCode.length;
        if (groups < 1 || cells > MAX_CELLS) {
            return null;
        }
        return new CodeHistogram(byCode.column, byCode.longOfCode, (int) groups);
    }

    /** The code column counted. */
    int column() {
        return column;
    }

    /** The exact value of each code. */
    long[] valueOfCode() {
        return valueOfCode;
    }

    /** The number of codes: a group's cells. */
    int codes() {
        return codes;
    }

    /** The counts per cell {@code g * codes + code}, for a loop that counts rows itself ({@link CellScan}). */
    int[] countsToAdd() {
        touched = true;
        return counts;
    }

    /** Counts {@code n} rows (at {@code b + k}, or {@code sel[k]}) of groups {@code g[k]} by their code. */
    void add(MorselView view, int b, int n, int[] sel, int[] g) {
        MemorySegment seg = view.columns[column];
        CodeWidth w = view.widths[column];
        int[] c = counts;
        int stride = codes;
        touched |= n > 0;
        if (w == CodeWidth.BYTE) {
            if (sel == null) {
                for (int k = 0; k < n; k++) {
                    c[g[k] * stride + (seg.get(CodeKernels.BYTE, b + k) & 0xFF)]++;
                }
            } else {
                for (int k = 0; k < n; k++) {
                    c[g[k] * stride + (seg.get(CodeKernels.BYTE, sel[k]) & 0xFF)]++;
                }
            }
            return;
        }
        for (int k = 0; k < n; k++) {
            c[g[k] * stride + CodeKernels.code(seg, w, sel == null ? b + k : sel[k])]++;
        }
    }

    /** Receives one group's share of the sum: {@code high * 2^64 + low}, {@code low} read unsigned. */
    @FunctionalInterface
    interface Sink {
        void add(int group, long high, long low);
    }

    /** Hands each counted cell's {@code count * value} (128 bits) to {@code sink} and clears the counts. */
    void drainInto(Sink sink) {
        if (!touched) {
            return;
        }
        int[] c = counts;
        for (int cell = 0; cell < c.length; cell++) {
            int count = c[cell];
            if (count == 0) {
                continue;
            }
            c[cell] = 0;
            long v = valueOfCode[cell % codes];
            sink.add(cell / codes, Math.multiplyHigh(count, v), count * v);
        }
        touched = false;
    }
}
