package io.numacube.engine.exec;

import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.ValueOrder;

/**
 * How one ORDER BY key orders two rows' values: two NULLs are equal, a NULL goes first or last as the key says, and
 * two values that are not NULL compare as ascending, reversed where the key is descending. Every sort of result rows
 * (by value, by rank, by numeric aggregate, a projection's) orders through it, so they agree. Stateless.
 */
final class SortKeyOrder {

    private SortKeyOrder() {}

    /** Two values ({@code null}: SQL NULL) as {@code key} orders them, by {@link ValueOrder#compare} where not NULL. */
    static int compare(LogicalQuery.Order key, Object a, Object b) {
        if (a == null || b == null) {
            return nulls(key, a == null, b == null);
        }
        return directed(key, ValueOrder.compare(a, b));
    }

    /** Two values of which at least one is NULL ({@code aNull}, {@code bNull}) as {@code key} orders them. */
    static int nulls(LogicalQuery.Order key, boolean aNull, boolean bNull) {
        return aNull == bNull ? 0 : aNull == key.nullsFirst() ? -1 : 1;
    }

    /** {@code ascending}, the comparison of two values that are not NULL, in {@code key}'s direction. */
    static int directed(LogicalQuery.Order key, int ascending) {
        return key.descending() ? -ascending : ascending;
    }
}
