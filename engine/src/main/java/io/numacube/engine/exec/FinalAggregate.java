package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;

/**
 * How one SQL aggregate is finished from the merged {@link AggregationState}, in {@link ResultFinalizer}. Immutable.
 *
 * <p>Invariants: {@code ROW_COUNT} uses no accumulator; {@code FROM_ACCUMULATORS} and {@code SCALED_BY_LOOKUP} use
 * {@code sum} (SUM, AVG) or {@code min} and {@code max} (MIN uses min, MAX max; scaled MIN/MAX use both, since a
 * negative factor swaps them), the others being -1; {@code factorByJoinKeyCode} is non-null exactly for {@code
 * SCALED_BY_LOOKUP}.
 *
 * @param kind                the SQL aggregate
 * @param finish              where its value comes from
 * @param sum                 accumulator index of sums, or -1
 * @param min                 accumulator index of minimums, or -1
 * @param max                 accumulator index of maximums, or -1
 * @param factorByJoinKeyCode the post-aggregation step of {@code SCALED_BY_LOOKUP}: the lookup factor (an FX rate,
 *                            say) of each fact join-key code, multiplied into the per-join-key accumulators before
 *                            they roll up into the result row
 * @param longResult          the SQL result type is BIGINT
 * @param averageScale        for AVG of a DECIMAL, its argument's scale: the sum of its unscaled values over {@code
 *                            count * 10^averageScale}, rounded once; 0 otherwise
 */
record FinalAggregate(
        Expr.AggKind kind,
        Finish finish,
        int sum,
        int min,
        int max,
        double[] factorByJoinKeyCode,
        boolean longResult,
        int averageScale) {

    /** An aggregate of no DECIMAL average ({@code averageScale} 0). */
    FinalAggregate(
            Expr.AggKind kind,
            Finish finish,
            int sum,
            int min,
            int max,
            double[] factorByJoinKeyCode,
            boolean longResult) {
        this(kind, finish, sum, min, max, factorByJoinKeyCode, longResult, 0);
    }

    /** Where an aggregate's value comes from. */
    enum Finish {
        /** COUNT(*) and COUNT(x) of a non-nullable x: the group's row count. */
        ROW_COUNT,
        /** The group's accumulators as they are. */
        FROM_ACCUMULATORS,
        /**
         * Like an ActivePivot post-processor: accumulated per (group, join key), then each join key's value times
         * its lookup factor, rolled up into the group.
         */
        SCALED_BY_LOOKUP,
        /** COUNT(DISTINCT x): x is an appended group key ({@code sum} is its index among those); the roll-up counts
         * the distinct non-NULL codes it meets per row. */
        DISTINCT_VALUES
    }

    static FinalAggregate rowCount(Expr.AggKind kind) {
        return new FinalAggregate(kind, Finish.ROW_COUNT, -1, -1, -1, null, true);
    }

    /** The accumulator a FROM_ACCUMULATORS aggregate reads: its sum, min or max. */
    int accumulator() {
        return switch (kind) {
            case MIN -> min;
            case MAX -> max;
            default -> sum;
        };
    }
}
