package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import java.lang.foreign.MemorySegment;

/**
 * One table of cells per (group, code of a first column, code of a second) that serves, in one pass over the rows,
 * the row count and every exact SUM that is a weighted sum of the cells: {@code SUM(v)} of a plain BIGINT or DECIMAL
 * column, {@code SUM(v * f(c1) [* g(c2)])} ({@link ScaledColumnSums}' shape) and {@code SUM(f(c1))}, {@code
 * SUM(g(c2))} ({@link CodeHistogram}'s shape). TPC-H Q1's count, {@code SUM(l_extendedprice)}, its two products with
 * {@code (1 - l_discount)} and {@code (1 + l_tax)} and {@code AVG(l_discount)}'s sum all come from one table of 6 x
 * 11 x 9 cells: per row one read of the column, two code reads, one increment and one add, in place of a pass per
 * aggregate.
 *
 * <p>Exactness: a cell keeps its rows' count and the plain sum of their values; after each morsel {@link #drainInto}
 * hands each aggregate {@code count * weight} or {@code sum * weight} in 128 bits, so every SUM is the one adding row
 * by row gives. The cells take a batch only where {@link #within} proved, from its smallest and largest value, that no
 * row's product with the weights leaves 64 bits (as row by row, where such a row raises 22003) and no cell's sum of
 * at most a morsel's rows does; otherwise, or where an aggregate skips rows (a NULL in this morsel, {@link
 * #servesRowsOf}), the batch takes the per-aggregate paths.
 *
 * <p>Invariants: cell {@code (g * codes1 + c1) * codes2 + c2}; {@code counts} and {@code sums} are 0 after {@link
 * #drainInto}. Not thread-safe: owned by one {@link AggregationState}.
 */
final class CodeCells {

    private final int column;
    private final int column1;
    private final int column2;
    private final int codes2;
    private final int cellsPerGroup;
    private final long productLimit;
    /** Per accumulator, whether the cells serve it, its weight per cell of a group, and whether it weighs counts. */
    private final boolean[] serves;

    private final long[][] weights;
    private final boolean[] ofCount;
    private final int[] counts;
    private final long[] sums;

    /**
     * The values {@link #within} reads a morsel's rows into, a batch at a time: a loop over the segment itself kept
     * trapping on C2's profiled loop predicates (see {@link CellScan}).
     */
    private final long[] valuesChunk = new long[AggregationState.BATCH];

    private boolean touched;

    private CodeCells(
            int column, int[] factorColumns, long[][] factorValues, long productLimit, Accumulator[] accs, int groups) {
        this.column = column;
        this.column1 = factorColumns[0];
        this.column2 = factorColumns.length > 1 ? factorColumns[1] : -1;
        this.codes2 = factorColumns.length > 1 ? factorValues[1].length : 1;
        this.cellsPerGroup = factorValues[0].length * codes2;
        this.productLimit = productLimit;
        this.serves = new boolean[accs.length];
        this.weights = new long[accs.length][];
        this.ofCount = new boolean[accs.length];
        this.counts = new int[groups * cellsPerGroup];
        this.sums = new long[counts.length];
    }

    /**
     * The cells for {@code accs} over {@code groups} dense groups, laid out by the first of {@code scaled} with two
     * factors (else with one), or null where none serves: no scaled sum, too many cells ({@link
     * CodeHistogram#MAX_CELLS}), or a served aggregate with a FILTER.
     */
    static CodeCells of(Accumulator[] accs, CodeHistogram[] histograms, ScaledColumnSums[] scaled, long groups) {
        ScaledColumnSums layout = null;
        for (ScaledColumnSums s : scaled) {
            if (s != null && (layout == null || s.factorColumns().length > layout.factorColumns().length)) {
                layout = s;
            }
        }
        if (layout == null || groups < 1) {
            return null;
        }
        long[][] values = layout.factorValues();
        long cells = groups * values[0].length * (values.length > 1 ? values[1].length : 1);
        if (cells > CodeHistogram.MAX_CELLS) {
            return null;
        }
        CodeCells c =
                new CodeCells(layout.column(), layout.factorColumns(), values, layout.limit(), accs, (int) groups);
        for (int i = 0; i < accs.length; i++) {
            if (accs[i].filter() == null) {
                c.serve(i, accs[i], histograms[i], scaled[i]);
            }
        }
        return c;
    }

    /** Takes accumulator {@code i} into the cells where its SUM is a weighted sum of them. */
    private void serve(int i, Accumulator acc, CodeHistogram histogram, ScaledColumnSums scale) {
        long[] w = null;
        boolean count = false;
        if (scale != null && scale.column() == column) {
            w = scaledWeights(scale.factorColumns(), scale.factorValues());
        } else if (histogram != null) {
            w = codeWeights(histogram.column(), histogram.valueOfCode());
            count = true;
        } else if (acc.kind() == Accumulator.Kind.SUM_LONG && acc.column() == column && !acc.overCodes()) {
            w = new long[cellsPerGroup];
            java.util.Arrays.fill(w, 1);
        }
        if (w != null) {
            serves[i] = true;
            weights[i] = w;
            ofCount[i] = count;
        }
    }

    /** Weights of a product of factors read by this table's columns, or null where one reads another column. */
    private long[] scaledWeights(int[] factorColumns, long[][] factorValues) {
        long[] w = new long[cellsPerGroup];
        java.util.Arrays.fill(w, 1);
        for (int f = 0; f < factorColumns.length; f++) {
            long[] part = codeWeights(factorColumns[f], factorValues[f]);
            if (part == null) {
                return null;
            }
            for (int cell = 0; cell < cellsPerGroup; cell++) {
                try {
                    w[cell] = Math.multiplyExact(w[cell], part[cell]);
                } catch (ArithmeticException e) {
                    return null;
                }
            }
        }
        return w;
    }

    /** Weights of a value by code of {@code col}, or null where {@code col} is neither of this table's columns. */
    private long[] codeWeights(int col, long[] valueOfCode) {
        int codes1 = cellsPerGroup / codes2;
        if (col == column1 ? valueOfCode.length != codes1 : col != column2 || valueOfCode.length != codes2) {
            return null;
        }
        long[] w = new long[cellsPerGroup];
        for (int cell = 0; cell < cellsPerGroup; cell++) {
            w[cell] = valueOfCode[col == column1 ? cell / codes2 : cell % codes2];
        }
        return w;
    }

    /** The plain column summed. */
    int column() {
        return column;
    }

    /** The first factor's code column. */
    int column1() {
        return column1;
    }

    /** The second factor's code column, or -1 where there is one factor. */
    int column2() {
        return column2;
    }

    /** Codes of the second column (1 where there is none). */
    int codes2() {
        return codes2;
    }

    /** Cells per group: codes of the first column times {@link #codes2}. */
    int cellsPerGroup() {
        return cellsPerGroup;
    }

    /** The number of groups. */
    int groups() {
        return counts.length / cellsPerGroup;
    }

    /** The row count per cell, for a loop that adds rows itself ({@link CellScan}); it then calls {@link #touch}. */
    int[] counts() {
        return counts;
    }

    /** The value sum per cell, for a loop that adds rows itself. */
    long[] sums() {
        return sums;
    }

    /** Notes that rows were added since the last drain. */
    void touch() {
        touched = true;
    }

    /** Whether both code columns hold one-byte codes in this morsel. */
    boolean byteCodes(MorselView view) {
        return view.widths[column1] == CodeWidth.BYTE && (column2 < 0 || view.widths[column2] == CodeWidth.BYTE);
    }

    /** Whether the cells serve accumulator {@code i} (in morsels and batches they may take). */
    boolean serves(int i) {
        return serves[i];
    }

    /** Whether no served aggregate skips a row of this morsel (no NULL in what they read), so the cells may take it. */
    boolean servesRowsOf(MorselView view, Accumulator[] accs) {
        for (int i = 0; i < accs.length; i++) {
            if (serves[i] && accs[i].skipsRowsIn(view)) {
                return false;
            }
        }
        return view.nulls[column] == null;
    }

    /**
     * Whether every value of the morsel lies within the bound where its products with the weights and every cell's
     * sum of the morsel's rows fit 64 bits: read whole, for a loop that reads every row ({@link CellScan}).
     */
    boolean boundsHold(MorselView view) {
        return within(view, 0, view.rows, null);
    }

    /**
     * {@link #boundsHold} for the rows of one batch (at {@code b + k}, or {@code sel[k]}): the values the cells would
     * add, read before they are added, so a scan that selects few rows reads few values.
     */
    boolean within(MorselView view, int b, int n, int[] sel) {
        MemorySegment values = view.columns[column];
        long min = 0;
        long max = 0;
        if (sel == null) {
            long[] chunk = valuesChunk;
            for (int at = 0; at < n; at += chunk.length) {
                int len = Math.min(chunk.length, n - at);
                MemorySegment.copy(values, CodeKernels.LONG, (long) (b + at) * Long.BYTES, chunk, 0, len);
                for (int k = 0; k < len; k++) {
                    min = Math.min(min, chunk[k]);
                    max = Math.max(max, chunk[k]);
                }
            }
        } else {
            for (int k = 0; k < n; k++) {
                long v = values.getAtIndex(CodeKernels.LONG, sel[k]);
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        long limit = Math.min(productLimit, Long.MAX_VALUE / Math.max(1, view.rows));
        return max <= limit && min >= -limit;
    }

    /** Counts and sums {@code n} rows (at {@code b + k}, or {@code sel[k]}) of groups {@code g[k]} into their cells. */
    void add(MorselView view, int b, int n, int[] sel, int[] g) {
        MemorySegment values = view.columns[column];
        MemorySegment s1 = view.columns[column1];
        CodeWidth w1 = view.widths[column1];
        MemorySegment s2 = column2 < 0 ? null : view.columns[column2];
        CodeWidth w2 = column2 < 0 ? null : view.widths[column2];
        touched |= n > 0;
        if (w1 == CodeWidth.BYTE && w2 == CodeWidth.BYTE) {
            addBytes(values, s1, s2, b, n, sel, g);
            return;
        }
        int[] c = counts;
        long[] s = sums;
        for (int k = 0; k < n; k++) {
            int row = sel == null ? b + k : sel[k];
            int c2 = s2 == null ? 0 : CodeKernels.code(s2, w2, row);
            int cell = (g[k] * cellsPerGroup) + CodeKernels.code(s1, w1, row) * codes2 + c2;
            c[cell]++;
            s[cell] += values.getAtIndex(CodeKernels.LONG, row);
        }
    }

    /** {@link #add} where both code columns are bytes. */
    private void addBytes(MemorySegment values, MemorySegment s1, MemorySegment s2, int b, int n, int[] sel, int[] g) {
        int[] c = counts;
        long[] s = sums;
        int per = cellsPerGroup;
        int stride = codes2;
        if (sel == null) {
            for (int k = 0; k < n; k++) {
                int row = b + k;
                int cell = g[k] * per
                        + (s1.get(CodeKernels.BYTE, row) & 0xFF) * stride
                        + (s2.get(CodeKernels.BYTE, row) & 0xFF);
                c[cell]++;
                s[cell] += values.getAtIndex(CodeKernels.LONG, row);
            }
            return;
        }
        for (int k = 0; k < n; k++) {
            int row = sel[k];
            int cell = g[k] * per
                    + (s1.get(CodeKernels.BYTE, row) & 0xFF) * stride
                    + (s2.get(CodeKernels.BYTE, row) & 0xFF);
            c[cell]++;
            s[cell] += values.getAtIndex(CodeKernels.LONG, row);
        }
    }

    /**
     * Adds each cell's count to its group's {@code rowCounts} and hands each served accumulator {@code i} its weighted
     * share (128 bits) through {@code sinks[i]}; clears the cells.
     */
    void drainInto(long[] rowCounts, CodeHistogram.Sink[] sinks) {
        if (!touched) {
            return;
        }
        for (int cell = 0; cell < counts.length; cell++) {
            int count = counts[cell];
            if (count == 0) {
                continue;
            }
            long sum = sums[cell];
            counts[cell] = 0;
            sums[cell] = 0;
            int group = cell / cellsPerGroup;
            int inGroup = cell % cellsPerGroup;
            rowCounts[group] += count;
            for (int i = 0; i < weights.length; i++) {
                if (serves[i]) {
                    long x = ofCount[i] ? count : sum;
                    long w = weights[i][inGroup];
                    sinks[i].add(group, Math.multiplyHigh(x, w), x * w);
                }
            }
        }
        touched = false;
    }
}
