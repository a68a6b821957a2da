package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.storage.FactTable;

/**
 * The physical plan of one query, produced by {@link QueryCompiler}: code masks per filtered dimension (with prefix
 * counts for zone-map checks), an optional general row predicate, the group-key columns and their mixed-radix
 * strides, the accumulators every worker keeps, and how each aggregate is finished from them (directly, or like an
 * ActivePivot post-processor: per join-key partial times a lookup factor, then rolled up). Immutable; shared by all
 * workers of the query.
 */
final class CompiledQuery {

    /** What one accumulator column holds per group. */
    enum AccKind {
        SUM_D,
        SUM_L,
        MIN_D,
        MAX_D,
        MIN_L,
        MAX_L
    }

    /**
     * One accumulator.
     *
     * @param kind   the operation
     * @param column a bare fact measure column read directly, or -1
     * @param expr   the argument when not a bare column (null for a bare column)
     * @param codes  MIN_L/MAX_L over the dictionary codes of a dimension column (codes follow value order)
     * @param text   the argument's SQL text, for errors
     */
    record Acc(AccKind kind, int column, NumVec expr, boolean codes, String text) {
        Acc(AccKind kind, int column, NumVec expr, boolean codes) {
            this(kind, column, expr, codes, null);
        }
    }

    /** How an aggregate is finished. */
    enum Mode {
        COUNT,
        DIRECT,
        POST
    }

    /**
     * @param kind          the SQL aggregate
     * @param mode          COUNT (from group row counts), DIRECT (from its accumulators), POST (accumulators per
     *                      join-key code times {@code factorByCode}, then rolled up)
     * @param sumAcc        accumulator of sums, or -1
     * @param minAcc        accumulator of minimums, or -1
     * @param maxAcc        accumulator of maximums, or -1
     * @param factorByCode  POST: the lookup factor of each join-key code
     * @param longResult    the result is LONG
     */
    record AggPlan(
            Expr.AggKind kind,
            Mode mode,
            int sumAcc,
            int minAcc,
            int maxAcc,
            double[] factorByCode,
            boolean longResult) {}

    final LogicalQuery logical;
    final FactTable fact;
    final int[] maskColumns;
    final boolean[][] masks;
    final int[][] maskPrefix;
    final boolean empty;
    final RowPred generic;
    final int[] keyColumns;
    final long[] keyStrides;
    final int[] keyCards;
    final int logicalKeys;
    final long logicalSpace;
    final long groupSpace;
    final boolean dense;
    final Acc[] accs;
    final AggPlan[] aggs;
    final int[] readColumns;
    final int[] bytesPerValue;
    final long bytesPerRow;
    final int doubleSlots;
    final int booleanSlots;
    final String description;

    CompiledQuery(
            LogicalQuery logical,
            FactTable fact,
            int[] maskColumns,
            boolean[][] masks,
            int[][] maskPrefix,
            boolean empty,
            RowPred generic,
            int[] keyColumns,
            long[] keyStrides,
            int[] keyCards,
            int logicalKeys,
            long logicalSpace,
            long groupSpace,
            boolean dense,
            Acc[] accs,
            AggPlan[] aggs,
            int[] readColumns,
            int[] bytesPerValue,
            long bytesPerRow,
            int doubleSlots,
            int booleanSlots,
            String description) {
        this.logical = logical;
        this.fact = fact;
        this.maskColumns = maskColumns;
        this.masks = masks;
        this.maskPrefix = maskPrefix;
        this.empty = empty;
        this.generic = generic;
        this.keyColumns = keyColumns;
        this.keyStrides = keyStrides;
        this.keyCards = keyCards;
        this.logicalKeys = logicalKeys;
        this.logicalSpace = logicalSpace;
        this.groupSpace = groupSpace;
        this.dense = dense;
        this.accs = accs;
        this.aggs = aggs;
        this.readColumns = readColumns;
        this.bytesPerValue = bytesPerValue;
        this.bytesPerRow = bytesPerRow;
        this.doubleSlots = doubleSlots;
        this.booleanSlots = booleanSlots;
        this.description = description;
    }
}
