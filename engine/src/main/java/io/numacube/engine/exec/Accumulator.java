package io.numacube.engine.exec;

/**
 * One per-group accumulator of an {@link AggregationState}: a sum, minimum or maximum, kept as doubles or exactly as
 * 64-bit longs, of a bare column or a batch expression. Identical accumulators are planned once and shared by the
 * aggregates that need them (AVG and SUM of one argument share its sum). Immutable.
 *
 * <p>Invariants: for every kind but COUNT, exactly one of {@code column >= 0} (a bare column read directly from the
 * morsel) and {@code argument != null}; COUNT has no column (it counts the rows where {@code nulls} marks no NULL,
 * and computes its argument only where that can fail: integer arithmetic that may overflow); a
 * bare column of a {@code *_DOUBLE} kind is a DOUBLE measure, of a {@code *_LONG} kind a BIGINT measure
 * or, with {@code overCodes}, a dimension whose codes follow value order (only MIN_LONG and MAX_LONG).
 *
 * @param kind      the operation and its number type
 * @param column    a fact column read directly, or -1
 * @param argument  the argument when not a bare column, else null
 * @param overCodes MIN_LONG/MAX_LONG over the dictionary codes of a dimension column
 * @param text      the argument's SQL text for errors, or null for a bare column
 * @param nulls     where the argument is NULL: those rows are skipped and counted per group ({@link
 *                  NullMask#NONE} when it cannot be NULL)
 * @param filter    the aggregate's FILTER (WHERE ...): rows where it is not TRUE are skipped like NULLs; or null
 * @param ranks     for MIN/MAX of a text or date value that is no fact column (a joined table's column, a function
 *                  of one dimension): the values in order, the accumulator keeping the rank; else null
 */
record Accumulator(
        Kind kind,
        int column,
        BatchExpression argument,
        boolean overCodes,
        String text,
        NullMask nulls,
        BatchPredicate filter,
        io.numacube.engine.storage.Dictionary ranks) {

    /** What one accumulator holds per group. The {@code _LONG} kinds are exact: a sum that leaves 64 bits fails. */
    enum Kind {
        SUM_DOUBLE,
        SUM_LONG,
        MIN_DOUBLE,
        MAX_DOUBLE,
        MIN_LONG,
        MAX_LONG,
        /** Only the per-group count of NULL arguments: COUNT(x) of an x that may be NULL. */
        COUNT;

        /** Whether this kind keeps longs (else doubles). */
        boolean exact() {
            return this == SUM_LONG || this == MIN_LONG || this == MAX_LONG || this == COUNT;
        }
    }

    /** A bare column accumulator. */
    static Accumulator ofColumn(Kind kind, int column, boolean overCodes, NullMask nulls, BatchPredicate filter) {
        return new Accumulator(kind, column, null, overCodes, null, nulls, filter, null);
    }

    /** Whether rows may be skipped (a NULL argument or a FILTER): the state then counts them per group. */
    boolean nullable() {
        return !nulls.isEmpty() || filter != null;
    }

    /** Whether some rows of this morsel may be skipped. */
    boolean skipsRowsIn(MorselView view) {
        return filter != null || (!nulls.isEmpty() && nulls.mayHaveNulls(view));
    }

    /** Whether this is a double sum of a bare column: the case {@link FusedKeySums} and the fused count-and-sum serve. */
    boolean bareDoubleSum() {
        return kind == Kind.SUM_DOUBLE && column >= 0;
    }
}
