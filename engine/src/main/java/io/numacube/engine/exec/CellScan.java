package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import java.lang.foreign.MemorySegment;

/**
 * One loop over a morsel's rows for the common shape of a scan whose every aggregate {@link CodeCells} serves, but
 * for at most one counted per code ({@link CodeHistogram}): TPC-H Q1 (a date mask, two one-byte flags as keys, the
 * cells by discount and tax, the quantity's histogram). Per row it reads the mask's code, the key codes, the cells'
 * codes and value, and the histogram's code, and adds the row to its cell and its histogram cell times the mask's
 * verdict (0 or 1): no selection vector, no group-id vector, no pass per aggregate. The answer is the one the
 * per-aggregate paths give (the same rows, counted and summed exactly as {@link CodeCells} and {@link CodeHistogram}
 * count and sum them).
 *
 * <p>It serves a morsel where {@link #serves} holds: dense keys of one or two plain one-byte code columns, at most one
 * active mask (on one- or two-byte codes, passing at least half of its codes), the cells' code columns and the
 * histogram's of one byte, no deleted row, no residual predicate; the caller checked {@link CodeCells#servesRowsOf} and
 * {@link CodeCells#boundsHold}. Not thread-safe: owned by one {@link AggregationState}.
 */
final class CellScan {

    private final CodeCells cells;
    private final CodeHistogram histogram;
    private final int[] keyColumns;
    private final int[] keyStrides;

    private CellScan(CodeCells cells, CodeHistogram histogram, int[] keyColumns, int[] keyStrides) {
        this.cells = cells;
        this.histogram = histogram;
        this.keyColumns = keyColumns;
        this.keyStrides = keyStrides;
        this.spareCounts = histogram == null ? new int[cells.groups() * 256] : null;
    }

    /**
     * The fused loop for a plan, or null where its shape is not this one: keys not one or two plain codes, or an
     * accumulator neither served by {@code cells} nor the one histogram (without FILTER).
     */
    static CellScan of(PhysicalPlan plan, CodeCells cells, CodeHistogram[] histograms) {
        GroupKeySpace keys = plan.keys();
        int n = keys.columns().length;
        if (cells == null
                || !keys.dense()
                || n < 1
                || n > 2
                || !keys.allPlain()
                || plan.filter().residual() != null) {
            return null;
        }
        int[] columns = new int[2];
        int[] strides = new int[2];
        for (int i = 0; i < n; i++) {
            if (keys.dependent(i) || keys.multiSource(i) || keys.failures()[i] != null) {
                return null;
            }
            columns[i] = keys.columns()[i];
            strides[i] = (int) keys.strides()[i];
        }
        if (n == 1) {
            columns[1] = columns[0];
        }
        CodeHistogram histogram = null;
        Accumulator[] accs = plan.accumulators();
        for (int i = 0; i < accs.length; i++) {
            if (cells.serves(i)) {
                continue;
            }
            if (histogram != null || histograms[i] == null || accs[i].filter() != null) {
                return null;
            }
            histogram = histograms[i];
        }
        return new CellScan(cells, histogram, columns, strides);
    }

    /** Whether the loop serves this morsel with {@code mask} (or null) its one active mask. */
    boolean serves(MorselView view, RowFilter.CodeMask mask, Accumulator[] accs) {
        CodeWidth[] w = view.widths;
        if (w[keyColumns[0]] != CodeWidth.BYTE || w[keyColumns[1]] != CodeWidth.BYTE || !cells.byteCodes(view)) {
            return false;
        }
        if (histogram != null && w[histogram.column()] != CodeWidth.BYTE) {
            return false;
        }
        for (int i = 0; i < accs.length; i++) {
            if (!cells.serves(i) && accs[i].skipsRowsIn(view)) {
                return false;
            }
        }
        if (mask == null) {
            return true;
        }
        CodeWidth mw = w[mask.column()];
        int passing = mask.passing();
        return (mw == CodeWidth.BYTE || mw == CodeWidth.SHORT) && 2 * passing >= mask.passes().length;
    }

    /** Folds the morsel's {@code rows} rows in, those whose code passes {@code mask} (every row where it is null). */
    void sink(MorselView view, int rows, RowFilter.CodeMask mask) {
        int[] hc = histogram == null ? spareCounts : histogram.countsToAdd();
        int hcodes = histogram == null ? 256 : histogram.codes();
        MemorySegment h = view.columns[histogram == null ? keyColumns[0] : histogram.column()];
        Rows r = new Rows(view, keyColumns, cells, h);
        boolean shortMask = mask != null && view.widths[mask.column()] == CodeWidth.SHORT;
        MemorySegment m = view.columns[mask == null ? keyColumns[0] : mask.column()];
        byte[] pass = mask == null ? ALL : passOf(mask);
        for (int b = 0; b < rows; b += AggregationState.BATCH) {
            int end = Math.min(rows, b + AggregationState.BATCH);
            batch.load(r, m, shortMask, b, end - b);
            addBatch(end - b, pass, hc, hcodes, r.c2Mask());
        }
        cells.touch();
    }

    private final Batch batch = new Batch();

    /**
     * Adds the {@code n} rows of {@link #batch} to their cells and histogram cells. It reads plain arrays, not the
     * segments: a loop over the segments inlines their access checks, and C2's profiled loop predicates hoisted from
     * those kept trapping (-Xlog:deoptimization: profile_predicate at the loop's entry) and recompiling the loop
     * about every half second with 16 threads on 16 cores (Q1 of TPC-H SF 1 took 8.7 to 18 s, 0.009 s from arrays), the loop running profiled in
     * C1 meanwhile. The batch's columns are copied in by {@link MemorySegment#copy} instead, a few KiB within L1.
     */
    private void addBatch(int n, byte[] pass, int[] hc, int hcodes, int c2Mask) {
        int[] counts = cells.counts();
        long[] sums = cells.sums();
        int per = cells.cellsPerGroup();
        int codes2 = cells.codes2();
        int s0 = keyStrides[0];
        int s1 = keyStrides[1];
        Batch t = batch;
        short[] mk = t.mask;
        byte[] k0 = t.k0;
        byte[] k1 = t.k1;
        byte[] c1 = t.c1;
        byte[] c2 = t.c2;
        byte[] hh = t.h;
        long[] v = t.values;
        for (int i = 0; i < n; i++) {
            int ok = pass[mk[i] & 0xFFFF];
            int g = (k0[i] & 0xFF) * s0 + (k1[i] & 0xFF) * s1;
            int cell = g * per + (c1[i] & 0xFF) * codes2 + (c2[i] & c2Mask);
            counts[cell] += ok;
            sums[cell] += v[i] & -(long) ok;
            hc[g * hcodes + (hh[i] & 0xFF)] += ok;
        }
    }

    /**
     * One batch of a morsel's rows copied out of its segments: the mask's codes widened to shorts, the key, cell and
     * histogram codes, the values. Only the first {@code n} entries of the last {@link #load} are meaningful.
     */
    private static final class Batch {
        final short[] mask = new short[AggregationState.BATCH];
        final byte[] maskBytes = new byte[AggregationState.BATCH];
        final byte[] k0 = new byte[AggregationState.BATCH];
        final byte[] k1 = new byte[AggregationState.BATCH];
        final byte[] c1 = new byte[AggregationState.BATCH];
        final byte[] c2 = new byte[AggregationState.BATCH];
        final byte[] h = new byte[AggregationState.BATCH];
        final long[] values = new long[AggregationState.BATCH];

        void load(Rows r, MemorySegment m, boolean shortMask, int from, int n) {
            if (shortMask) {
                MemorySegment.copy(m, CodeKernels.SHORT, (long) from * Short.BYTES, mask, 0, n);
            } else {
                MemorySegment.copy(m, CodeKernels.BYTE, from, maskBytes, 0, n);
                for (int i = 0; i < n; i++) {
                    mask[i] = (short) (maskBytes[i] & 0xFF);
                }
            }
            MemorySegment.copy(r.k0(), CodeKernels.BYTE, from, k0, 0, n);
            MemorySegment.copy(r.k1(), CodeKernels.BYTE, from, k1, 0, n);
            MemorySegment.copy(r.c1(), CodeKernels.BYTE, from, c1, 0, n);
            MemorySegment.copy(r.c2(), CodeKernels.BYTE, from, c2, 0, n);
            MemorySegment.copy(r.h(), CodeKernels.BYTE, from, h, 0, n);
            MemorySegment.copy(r.values(), CodeKernels.LONG, (long) from * Long.BYTES, values, 0, n);
        }
    }

    /** Every code of a byte passes: the mask of a morsel that none filters. */
    private static final byte[] ALL = filled(256);

    private static byte[] filled(int n) {
        byte[] a = new byte[n];
        java.util.Arrays.fill(a, (byte) 1);
        return a;
    }

    /** The histogram's counts where the plan has none (never drained; the loop counts into it regardless). */
    private int[] spareCounts;

    private RowFilter.CodeMask lastMask;
    private byte[] lastPass;

    /** The mask's verdict per code as 0 or 1, kept for the next morsel of the same mask. */
    private byte[] passOf(RowFilter.CodeMask mask) {
        if (mask != lastMask) {
            boolean[] p = mask.passes();
            lastPass = new byte[p.length];
            for (int c = 0; c < p.length; c++) {
                lastPass[c] = (byte) (p[c] ? 1 : 0);
            }
            lastMask = mask;
        }
        return lastPass;
    }

    /** The segments one morsel's loop reads; {@code c2} is {@code c1} with {@code c2Mask} 0 where there is one factor. */
    private record Rows(
            MemorySegment k0,
            MemorySegment k1,
            MemorySegment c1,
            MemorySegment c2,
            int c2Mask,
            MemorySegment values,
            MemorySegment h) {

        Rows(MorselView view, int[] keyColumns, CodeCells cells, MemorySegment h) {
            this(
                    view.columns[keyColumns[0]],
                    view.columns[keyColumns[1]],
                    view.columns[cells.column1()],
                    view.columns[cells.column2() < 0 ? cells.column1() : cells.column2()],
                    cells.column2() < 0 ? 0 : 0xFF,
                    view.columns[cells.column()],
                    h);
        }
    }
}
