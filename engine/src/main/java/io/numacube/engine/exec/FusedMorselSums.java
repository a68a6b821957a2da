package io.numacube.engine.exec;

import java.lang.foreign.MemorySegment;

/**
 * The loop that folds a whole morsel into an {@link AggregationState} without batches ({@link FusedKeySums}): the row
 * count and one or two sums of bare double columns by one dense key, or one sum by two, where every row of the morsel
 * is selected (no mask active, no deleted row) and no aggregate has a FILTER; then the NULLs of each summed column
 * are counted per group from its null bits (the loop added their stored value, 0).
 *
 * <p>Invariants: made only for a plan it serves ({@link #of}); its group values are dense, indexed by the mixed-radix
 * key. Not thread-safe: owned by one state.
 */
final class FusedMorselSums {

    private final Accumulator[] accumulators;
    private final GroupKeySpace keys;
    /** How many accumulators it sums: 1 or 2. */
    private final int fusedSums;

    private final GroupValues values;

    private FusedMorselSums(PhysicalPlan plan, int fusedSums, GroupValues values) {
        this.accumulators = plan.accumulators();
        this.keys = plan.keys();
        this.fusedSums = fusedSums;
        this.values = values;
    }

    /** The fused loop for {@code plan}'s state, adding into {@code values}; null where the plan is not one it serves. */
    static FusedMorselSums of(PhysicalPlan plan, GroupValues values) {
        int n = fusedSums(plan);
        return n == 0 ? null : new FusedMorselSums(plan, n, values);
    }

    /** Whether it folds in this morsel, every row of which is selected: no FILTER, and key widths it serves. */
    boolean serves(MorselView view) {
        return !anyFilter(fusedSums) && fusedWidths(view);
    }

    /** Folds in the morsel's {@code rows} rows, every one selected, and counts the NULLs of the summed columns. */
    void sink(MorselView view, int rows) {
        sinkFused(view, rows);
        countFusedNulls(view, rows);
    }

    /**
     * How many accumulators {@link FusedKeySums} serves for this plan: 1 or 2 when it groups by one dense key, 1 when
     * by two (unless {@value #FUSED_TWO_KEYS_PROPERTY} is {@code false}, read as each block's state is made), with no
     * residual predicate and only sums of bare double columns; 0 otherwise.
     */
    private static int fusedSums(PhysicalPlan plan) {
        Accumulator[] accs = plan.accumulators();
        int keyCount = plan.keys().columns().length;
        boolean twoKeys = keyCount == 2
                && accs.length == 1
                && !"false".equals(System.getProperty(FUSED_TWO_KEYS_PROPERTY))
                && !plan.keys().dependent(1)
                && !plan.keys().multiSource(0)
                && !plan.keys().multiSource(1)
                && plan.keys().strides()[1] <= Integer.MAX_VALUE;
        if (!plan.keys().dense()
                || keyCount != 1 && !twoKeys
                || !plan.keys().allPlain()
                || plan.filter().residual() != null
                || accs.length == 0
                || accs.length > 2) {
            return 0;
        }
        for (Accumulator acc : accs) {
            if (!acc.bareDoubleSum()) {
                return 0;
            }
        }
        return accs.length;
    }

    /** The system property that keeps sums by two dense keys off the fused loop ({@code false}), for A/B. */
    static final String FUSED_TWO_KEYS_PROPERTY = "numacube.fusedTwoKeys";

    /** Whether one of the first {@code n} accumulators has a FILTER. */
    private boolean anyFilter(int n) {
        for (int i = 0; i < n; i++) {
            if (accumulators[i].filter() != null) {
                return true;
            }
        }
        return false;
    }

    /** Whether the fused loops serve this morsel's key columns: any width for one key, bytes and shorts for two. */
    private boolean fusedWidths(MorselView view) {
        int[] c = keys.columns();
        return c.length == 1 || FusedKeySums.servesTwoKeys(view.widths[c[0]], view.widths[c[1]]);
    }

    private void sinkFused(MorselView view, int rows) {
        int key = keys.columns()[0];
        MemorySegment v0 = view.columns[accumulators[0].column()];
        if (keys.columns().length == 2) {
            int key1 = keys.columns()[1];
            FusedKeySums.oneByTwoKeys(
                    view.columns[key],
                    view.widths[key],
                    view.columns[key1],
                    view.widths[key1],
                    (int) keys.strides()[1],
                    v0,
                    rows,
                    values.rowCounts,
                    values.doubleAccumulators[0]);
        } else if (fusedSums == 1) {
            FusedKeySums.one(
                    view.columns[key], view.widths[key], v0, 0, rows, values.rowCounts, values.doubleAccumulators[0]);
        } else {
            FusedKeySums.two(
                    view.columns[key],
                    view.widths[key],
                    v0,
                    view.columns[accumulators[1].column()],
                    0,
                    rows,
                    values.rowCounts,
                    values.doubleAccumulators[0],
                    values.doubleAccumulators[1]);
        }
    }

    /**
     * Counts, per group, the rows of this morsel where a fused sum's column is NULL: the fused loop added their value,
     * 0 ({@link io.numacube.engine.storage.PartitionWriter#setNull}), so only the group's value count needs them. Reads
     * one word of null bits per 64 rows and the key code of each NULL row.
     */
    private void countFusedNulls(MorselView view, int rows) {
        int key = keys.columns()[0];
        int key1 = keys.columns().length == 2 ? keys.columns()[1] : -1;
        int stride1 = key1 < 0 ? 0 : (int) keys.strides()[1];
        for (int i = 0; i < fusedSums; i++) {
            MemorySegment bits = view.nulls[accumulators[i].column()];
            if (bits == null) {
                continue;
            }
            long[] nulls = values.nulls(i);
            for (int k = 0; k < rows; ) {
                long row = view.first + k;
                int shift = (int) (row & 63);
                int span = Math.min(64 - shift, rows - k);
                long word = bits.getAtIndex(CodeKernels.LONG, row >>> 6) >>> shift;
                if (span < 64) {
                    word &= (1L << span) - 1;
                }
                while (word != 0) {
                    int r = k + Long.numberOfTrailingZeros(word);
                    int g = CodeKernels.code(view.columns[key], view.widths[key], r);
                    nulls[key1 < 0 ? g : g + CodeKernels.code(view.columns[key1], view.widths[key1], r) * stride1]++;
                    word &= word - 1;
                }
                k += span;
            }
        }
    }
}
