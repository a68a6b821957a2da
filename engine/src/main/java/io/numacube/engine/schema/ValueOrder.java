package io.numacube.engine.schema;

/**
 * The order of two non-null scalar values of comparable types, as the engine evaluates them one at a time (comparisons,
 * GREATEST/LEAST, ORDER BY and grouping keys outside the coded paths): numbers with numbers (two BIGINTs exactly, else
 * as doubles), strings with strings ({@link TextOrder}), booleans false before true. Doubles in DuckDB's order: NaN
 * equals NaN and is above every other value, -0.0 equals 0.0. Stateless.
 */
public final class ValueOrder {

    private ValueOrder() {}

    /** Negative, zero or positive as {@code a} is below, equal to or above {@code b}. */
    public static int compare(Object a, Object b) {
        if (a instanceof String s) {
            return TextOrder.compare(s, (String) b);
        }
        if (a instanceof Boolean x) {
            return Boolean.compare(x, (Boolean) b);
        }
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        double x = ((Number) a).doubleValue();
        double y = ((Number) b).doubleValue();
        return x < y ? -1 : x > y ? 1 : x == y ? 0 : Boolean.compare(x != x, y != y);
    }
}
