package io.numacube.engine.exec;

import io.numacube.engine.schema.ColumnType;
import java.util.List;
import java.util.function.IntFunction;

/**
 * One column of a query result as it is filled: the array of its type ({@code String[]} for STRING, {@code double[]}
 * for DOUBLE, {@code long[]} for the integer types and DATE) and its null flags. Shared by the aggregation finalizer
 * and the projection executor. Stateless.
 */
final class OutputColumn {

    private OutputColumn() {}

    /** An empty column of {@code rows} values of type {@code t}. */
    static Object of(ColumnType t, int rows) {
        return switch (t) {
            case STRING -> new String[rows];
            case DOUBLE -> new double[rows];
            default -> new long[rows];
        };
    }

    /**
     * Fills {@code col} with {@code value(i)} for each of its {@code rows} rows (String, Number or null); returns the
     * null flags, or null when no value is NULL.
     */
    static boolean[] fill(Object col, int rows, IntFunction<Object> value) {
        return fill(col, rows, 0, rows, value);
    }

    /**
     * {@link #fill(Object, int, IntFunction)} of the rows {@code [from, to)} alone: the null flags returned, if any,
     * hold all {@code rows} rows, and only that range's are set, so ranges may be filled side by side.
     */
    static boolean[] fill(Object col, int rows, int from, int to, IntFunction<Object> value) {
        boolean[] nulls = null;
        for (int i = from; i < to; i++) {
            Object v = value.apply(i);
            if (v == null) {
                if (nulls == null) {
                    nulls = new boolean[rows];
                }
                nulls[i] = true;
                continue;
            }
            switch (col) {
                case String[] s -> s[i] = String.valueOf(v);
                case double[] d -> d[i] = ((Number) v).doubleValue();
                case long[] l -> l[i] = v instanceof Double dd ? Math.round(dd) : ((Number) v).longValue();
                default -> throw new IllegalStateException("column array: " + col);
            }
        }
        return nulls;
    }

    /** The null flags of ranges filled side by side ({@link OutputColumn#fill}), or'ed; null when none is set. */
    static boolean[] orNulls(List<boolean[]> parts) {
        boolean[] nulls = null;
        for (boolean[] part : parts) {
            if (part != null && nulls == null) {
                nulls = part;
            } else if (part != null) {
                for (int i = 0; i < part.length; i++) {
                    nulls[i] |= part[i];
                }
            }
        }
        return nulls;
    }
}
