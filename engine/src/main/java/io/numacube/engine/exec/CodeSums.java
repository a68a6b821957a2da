package io.numacube.engine.exec;

import java.util.function.BiFunction;
import java.util.function.IntFunction;

/**
 * The exact SUMs (and the row count) that an {@link AggregationState} over dense keys keeps per code rather than per
 * group, then drains into its {@link GroupValues} in 128 bits: SUMs of code lookups counted per code
 * ({@link CodeHistogram}), SUMs of a column times code lookups summed per code ({@link ScaledColumnSums}), and the
 * table of cells that serves the row count and several such SUMs at once ({@link CodeCells}, folded in by one loop
 * over a morsel where {@link CellScan} serves it).
 *
 * <p>Invariants: what it holds between {@link #drain}s is owed to the group values, and a morsel's sink ends with a
 * drain, so the values are whole between morsels; {@link #addToCells} serves only a morsel {@link #startMorsel} found
 * the cells serve. Each kind is off only to compare (its system property {@code false}, read as each block's state is
 * made). Not thread-safe: owned by one state.
 */
final class CodeSums {

    private final Accumulator[] accumulators;
    private final RowFilter.CodeMask[] masks;
    /** Per accumulator, its {@link CodeHistogram} where an exact SUM of a code lookup is counted per code, or null. */
    private final CodeHistogram[] histograms;
    /** Per accumulator, its {@link ScaledColumnSums} where an exact SUM of a column times code lookups is, or null. */
    private final ScaledColumnSums[] scaled;
    /** The table of cells that serves the row count and several exact SUMs at once, or null ({@link CodeCells}). */
    private final CodeCells cells;
    /** Whether {@link #cells} may serve the morsel being sunk (each batch within its bound, {@link CodeCells#within}). */
    private boolean cellsOn;
    /** The one loop over a morsel for scans whose aggregates {@link #cells} serves, or null ({@link CellScan}). */
    private final CellScan cellScan;
    /** Per accumulator, where a 128-bit share of its SUM goes in the group values. */
    private final CodeHistogram.Sink[] sumSinks;
    /** The state's group values, which {@link #drain} adds into. */
    private final GroupValues values;

    CodeSums(PhysicalPlan plan, GroupValues values) {
        this.accumulators = plan.accumulators();
        this.masks = plan.filter().masks();
        this.values = values;
        this.histograms = histograms(plan);
        this.scaled = scaledSums(plan);
        this.cells = codeCells()
                ? CodeCells.of(accumulators, histograms, scaled, plan.keys().size())
                : null;
        this.cellScan = cellScan() ? CellScan.of(plan, cells, histograms) : null;
        this.sumSinks = sumSinks(values, accumulators.length);
    }

    /** Begins a morsel: whether the cells serve its rows (then {@link #addToCells} may take its batches). */
    boolean startMorsel(MorselView view) {
        cellsOn = cells != null && cells.servesRowsOf(view, accumulators);
        return cellsOn;
    }

    /**
     * Counts the batch's selected rows and adds the SUMs the cells serve into the cells, where the morsel's cells are
     * on and the batch is within their bound; false (nothing done) where not.
     */
    boolean addToCells(MorselView view, int b, int cnt, int[] sel, int[] gid) {
        boolean byCells = cellsOn && cells.within(view, b, cnt, sel);
        if (byCells) {
            cells.add(view, b, cnt, sel, gid);
        }
        return byCells;
    }

    /** Whether the cells serve accumulator {@code i} (so a batch {@link #addToCells} took needs nothing more). */
    boolean cellsServe(int i) {
        return cells.serves(i);
    }

    /**
     * Folds {@code n} rows (at {@code b + k}, or {@code sel[k]}) of groups {@code g[k]} into accumulator {@code i}'s
     * histogram or scaled sums, where it has one; false (nothing done) where it has neither.
     */
    boolean add(MorselView view, int i, int b, int n, int[] sel, int[] g) {
        if (histograms[i] != null) {
            histograms[i].add(view, b, n, sel, g);
            return true;
        }
        if (scaled[i] != null) {
            scaled[i].add(view, b, n, sel, g, sumSinks[i]);
            return true;
        }
        return false;
    }

    /**
     * Whether exact SUMs of code lookups are counted per code ({@link CodeHistogram}) and those of a column times code
     * lookups summed per code ({@link ScaledColumnSums}); off (system property {@value #CODE_SUMS_PROPERTY} {@code
     * false}, read as each block's state is made) only to compare.
     */
    private static boolean codeSums() {
        return !"false".equals(System.getProperty(CODE_SUMS_PROPERTY));
    }

    /** The system property that turns the per-code sums off ({@code false}), for A/B measurements. */
    static final String CODE_SUMS_PROPERTY = "numacube.codeSums";

    /**
     * Whether the row count and the exact SUMs that one table of cells serves are kept there ({@link CodeCells}); off
     * (system property {@value #CODE_CELLS_PROPERTY} {@code false}, read as each block's state is made) only to
     * compare.
     */
    private static boolean codeCells() {
        return !"false".equals(System.getProperty(CODE_CELLS_PROPERTY));
    }

    /** The system property that turns the table of cells off ({@code false}), for A/B measurements. */
    static final String CODE_CELLS_PROPERTY = "numacube.codeCells";

    /**
     * Whether a morsel of a scan whose aggregates the cells serve is folded in by one loop ({@link CellScan}); off
     * (system property {@value #CELL_SCAN_PROPERTY} {@code false}, read as each block's state is made) only to
     * compare.
     */
    private static boolean cellScan() {
        return !"false".equals(System.getProperty(CELL_SCAN_PROPERTY));
    }

    /** The system property that turns the one-loop scan of the cells off ({@code false}), for A/B measurements. */
    static final String CELL_SCAN_PROPERTY = "numacube.cellScan";

    /**
     * Folds the morsel {@link #startMorsel} began, of no deleted row, in by {@link #cellScan} where it serves (the
     * cells serve its rows, their bounds hold, at most one mask is active); false where it does not, having done
     * nothing.
     */
    boolean sinkCellScan(MorselView view, int rows, long activeMasks) {
        if (!cellsOn || cellScan == null || !cells.boundsHold(view)) {
            return false;
        }
        RowFilter.CodeMask mask = null;
        for (int i = 0; i < masks.length; i++) {
            if (i >= 63 || (activeMasks & (1L << i)) != 0) {
                if (mask != null) {
                    return false;
                }
                mask = masks[i];
            }
        }
        if (!cellScan.serves(view, mask, accumulators)) {
            return false;
        }
        cellScan.sink(view, rows, mask);
        drain();
        return true;
    }

    private static CodeHistogram[] histograms(PhysicalPlan plan) {
        return perExpressionSum(plan, CodeHistogram[]::new, CodeHistogram::of);
    }

    private static ScaledColumnSums[] scaledSums(PhysicalPlan plan) {
        return perExpressionSum(plan, ScaledColumnSums[]::new, ScaledColumnSums::of);
    }

    /**
     * Per accumulator, what {@code of} makes of an exact SUM of an expression over dense keys (its argument and the
     * key space's size), or null: for every other accumulator, and all of them when the per-code sums are off.
     */
    private static <T> T[] perExpressionSum(
            PhysicalPlan plan, IntFunction<T[]> array, BiFunction<BatchExpression, Long, T> of) {
        Accumulator[] accs = plan.accumulators();
        T[] h = array.apply(accs.length);
        for (int i = 0; i < accs.length && plan.keys().dense() && codeSums(); i++) {
            if (accs[i].kind() == Accumulator.Kind.SUM_LONG && accs[i].column() < 0) {
                h[i] = of.apply(accs[i].argument(), plan.keys().size());
            }
        }
        return h;
    }

    /** Per accumulator, where a 128-bit share of its SUM goes: the low word wraps in, the rest carries. */
    private static CodeHistogram.Sink[] sumSinks(GroupValues values, int accumulators) {
        CodeHistogram.Sink[] sinks = new CodeHistogram.Sink[accumulators];
        for (int i = 0; i < sinks.length; i++) {
            int acc = i;
            sinks[i] = (g, high, low) -> {
                values.addWrapping(acc, values.longAccumulators[acc], g, low);
                long carry = high + (low < 0 ? 1 : 0);
                if (carry != 0) {
                    values.carries(acc)[g] += carry;
                }
            };
        }
        return sinks;
    }

    /** Adds the rows the histograms counted and the scaled sums summed into their SUMs, exactly. */
    void drain() {
        if (cells != null) {
            cells.drainInto(values.rowCounts, sumSinks);
        }
        for (int i = 0; i < histograms.length; i++) {
            if (histograms[i] != null) {
                histograms[i].drainInto(sumSinks[i]);
            }
            if (scaled[i] != null) {
                scaled[i].drainInto(sumSinks[i]);
            }
        }
    }
}
