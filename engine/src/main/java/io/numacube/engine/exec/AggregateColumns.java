package io.numacube.engine.exec;

/**
 * The finished value of every aggregate per result row, unboxed: per aggregate a column of longs, doubles or strings
 * (the MIN/MAX of a string dimension), and a null flag per cell (an aggregate over no rows). Filled once by {@link
 * GroupRollUp}, then read. Not thread-safe.
 */
final class AggregateColumns {
    final long[][] longs;
    final double[][] doubles;
    final String[][] strings;
    final boolean[][] nulls;
    final boolean[] isLong;

    AggregateColumns(int aggs, int rows) {
        longs = new long[aggs][];
        doubles = new double[aggs][];
        nulls = new boolean[aggs][rows];
        isLong = new boolean[aggs];
        strings = new String[aggs][];
        for (int a = 0; a < aggs; a++) {
            longs[a] = new long[rows];
            doubles[a] = new double[rows];
        }
    }

    /** Stores a Long, Double or String, or null. */
    void set(int a, int r, Object v) {
        if (v == null) {
            nulls[a][r] = true;
        } else if (v instanceof Long l) {
            isLong[a] = true;
            longs[a][r] = l;
        } else if (v instanceof String str) {
            if (strings[a] == null) {
                strings[a] = new String[nulls[a].length];
            }
            strings[a][r] = str;
        } else {
            doubles[a][r] = (Double) v;
        }
    }

    /** The value of aggregate {@code a} in row {@code r}, boxed, or null. */
    Object get(int a, int r) {
        return nulls[a][r]
                ? null
                : strings[a] != null ? strings[a][r] : isLong[a] ? (Object) longs[a][r] : (Object) doubles[a][r];
    }
}
