package io.numacube.engine.exec;

import java.util.Arrays;

/**
 * Folds a batch's selected rows, their group slots assigned, into an {@link AggregationState}'s {@link GroupValues}:
 * the row count, fused with the first one or two bare double sums where they have no NULL; then every other
 * accumulator by its family's loop ({@link AccumulatorKernels}) or per code ({@link CodeSums}), over the rows its
 * argument is not NULL and its FILTER holds, the skipped rows counted per group as NULLs.
 *
 * <p>Invariants: the group values hold every slot of the batch's group-id vector; a COUNT is the group's rows less its
 * NULLs, its argument evaluated but its values unused. Not thread-safe: owned by one state, and it writes the batch vectors it shares with the
 * other states of its worker.
 */
final class BatchAccumulation {

    private final Accumulator[] accumulators;
    private final BatchVectors vectors;
    private final GroupValues values;
    private final CodeSums codeSums;

    BatchAccumulation(Accumulator[] accumulators, BatchVectors vectors, GroupValues values, CodeSums codeSums) {
        this.accumulators = accumulators;
        this.vectors = vectors;
        this.values = values;
        this.codeSums = codeSums;
    }

    /**
     * Counts the selected rows of batch {@code [b, b + cnt)} (at {@code b + k}, or {@code sel[k]}) per group (their
     * slots in the group-id vector) and folds them into every accumulator, fusing the common sums.
     */
    void add(MorselView view, int b, int cnt, int[] sel) {
        Accumulator[] accs = accumulators;
        int[] gid = vectors.groupIds();
        boolean byCells = codeSums.addToCells(view, b, cnt, sel, gid);
        int from = byCells ? 0 : countAndFuse(view, b, cnt, sel, gid);
        for (int i = from; i < accs.length; i++) {
            if (byCells && codeSums.cellsServe(i)) {
                continue;
            }
            if (accs[i].skipsRowsIn(view)) {
                int m = skipNulls(view, i, b, cnt, sel);
                accumulate(view, i, 0, m, vectors.valueRows(), vectors.valueGroups());
            } else {
                accumulate(view, i, b, cnt, sel, gid);
            }
        }
    }

    /**
     * Counts the selected rows per group, summing the first one or two accumulators in the same loop where they are
     * bare double sums with no NULL here; returns how many it summed.
     */
    private int countAndFuse(MorselView view, int b, int cnt, int[] sel, int[] gid) {
        Accumulator[] accs = accumulators;
        if (accs.length > 1 && fusable(accs[0], view) && fusable(accs[1], view)) {
            AccumulatorKernels.countAndSum2(
                    values.rowCounts,
                    gid,
                    view.columns[accs[0].column()],
                    values.doubleAccumulators[0],
                    view.columns[accs[1].column()],
                    values.doubleAccumulators[1],
                    b,
                    cnt,
                    sel);
            return 2;
        }
        if (accs.length > 0 && fusable(accs[0], view)) {
            AccumulatorKernels.countAndSum(
                    values.rowCounts, gid, view.columns[accs[0].column()], values.doubleAccumulators[0], b, cnt, sel);
            return 1;
        }
        long[] cts = values.rowCounts;
        for (int k = 0; k < cnt; k++) {
            cts[gid[k]]++;
        }
        return 0;
    }

    /** A bare double sum with no NULL in this morsel: the fused count-and-sum loops serve it. */
    private static boolean fusable(Accumulator acc, MorselView view) {
        return acc.bareDoubleSum() && !acc.skipsRowsIn(view);
    }

    /**
     * Counts, per group, the selected rows accumulator {@code i} skips (its argument is NULL, or its FILTER is not
     * TRUE), and writes the others' rows and groups into the value vectors; returns how many there are.
     */
    private int skipNulls(MorselView view, int i, int b, int cnt, int[] sel) {
        boolean[] isNull = vectors.isNull();
        Accumulator acc = accumulators[i];
        boolean[] pass = null;
        if (acc.filter() != null) {
            pass = vectors.filterPass();
            acc.filter().eval(view, b, cnt, sel, pass, vectors.scratch());
        }
        if (acc.nulls().mayHaveNulls(view)) {
            acc.nulls().mark(view, b, cnt, sel, isNull, pass);
        } else {
            Arrays.fill(isNull, 0, cnt, false);
        }
        if (pass != null) {
            for (int k = 0; k < cnt; k++) {
                isNull[k] |= !pass[k];
            }
        }
        int[] gid = vectors.groupIds();
        int[] rows = vectors.valueRows();
        int[] groups = vectors.valueGroups();
        long[] nulls = values.nullCounts[i];
        int m = 0;
        for (int k = 0; k < cnt; k++) {
            if (isNull[k]) {
                if (nulls == null) {
                    nulls = values.nulls(i);
                }
                nulls[gid[k]]++;
            } else {
                rows[m] = sel == null ? b + k : sel[k];
                groups[m++] = gid[k];
            }
        }
        return m;
    }

    /** Folds {@code n} rows (at {@code b + k}, or {@code sel[k]}) of groups {@code g[k]} into accumulator {@code i}. */
    private void accumulate(MorselView view, int i, int b, int n, int[] sel, int[] g) {
        Accumulator acc = accumulators[i];
        if (n == 0) {
            return;
        }
        if (acc.kind() == Accumulator.Kind.COUNT) {
            if (acc.argument() != null) {
                acc.argument().evalLong(view, b, n, sel, vectors.exactValues(), vectors.scratch());
            }
            return;
        }
        if (acc.column() >= 0 && acc.kind().exact()) {
            AccumulatorKernels.accumulateLongColumn(view, acc, values, i, values.longAccumulators[i], b, n, sel, g);
        } else if (acc.column() >= 0) {
            AccumulatorKernels.accumulateDoubleColumn(
                    view.columns[acc.column()], acc.kind(), values.doubleAccumulators[i], b, n, sel, g);
        } else if (codeSums.add(view, i, b, n, sel, g)) {
            return;
        } else if (acc.kind().exact()) {
            AccumulatorKernels.accumulateExactExpression(
                    view, acc, vectors, values, i, values.longAccumulators[i], b, n, sel, g);
        } else {
            AccumulatorKernels.accumulateDoubleExpression(
                    view, acc, vectors, values.doubleAccumulators[i], b, n, sel, g);
        }
    }
}
