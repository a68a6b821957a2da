package io.numacube.engine.exec;

import java.util.List;

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

    void setLong(int a, int r, long v) {
        isLong[a] = true;
        longs[a][r] = v;
    }

    void setDouble(int a, int r, double v) {
        doubles[a][r] = v;
    }

    /** Stores a Long, Double or String, or null. */
    void set(int a, int r, Object v) {
        if (v == null) {
            nulls[a][r] = true;
        } else if (v instanceof Long l) {
            setLong(a, r, l);
        } else if (v instanceof String str) {
            if (strings[a] == null) {
                strings[a] = new String[nulls[a].length];
            }
            strings[a][r] = str;
        } else {
            setDouble(a, r, (Double) v);
        }
    }

    /**
     * The rows {@code kept[i]} of each of {@code parts} (all of {@code aggs} aggregates), laid end to end in order:
     * every cell as it was, so the columns read as one {@link GroupRollUp} over all the parts' groups would have filled
     * them (an aggregate's values are of one type in every part; a part where they are all NULL holds zeros).
     */
    static AggregateColumns concat(int aggs, List<AggregateColumns> parts, List<int[]> kept) {
        int n = 0;
        for (int[] k : kept) {
            n += k.length;
        }
        AggregateColumns out = new AggregateColumns(aggs, n);
        int at = 0;
        for (int p = 0; p < parts.size(); p++) {
            AggregateColumns part = parts.get(p);
            int[] rows = kept.get(p);
            for (int a = 0; a < aggs; a++) {
                out.isLong[a] |= part.isLong[a];
                if (part.strings[a] != null && out.strings[a] == null) {
                    out.strings[a] = new String[n];
                }
                if (keepsAll(part.longs[a].length, rows)) {
                    copyAll(part, a, out, at, rows.length);
                    continue;
                }
                for (int i = 0; i < rows.length; i++) {
                    int r = rows[i];
                    out.longs[a][at + i] = part.longs[a][r];
                    out.doubles[a][at + i] = part.doubles[a][r];
                    out.nulls[a][at + i] = part.nulls[a][r];
                    if (part.strings[a] != null) {
                        out.strings[a][at + i] = part.strings[a][r];
                    }
                }
            }
            at += rows.length;
        }
        return out;
    }

    /** The system property that, {@code false}, concatenates row by row even where every row is kept (an A/B). */
    static final String WHOLE_CONCAT_PROPERTY = "numacube.wholeConcat";

    /**
     * Whether {@code kept} (rows in ascending order, as HAVING keeps them) is every row of a part of {@code count}
     * rows, so that the part is copied whole.
     */
    static boolean keepsAll(int count, int[] kept) {
        return kept.length == count && !"false".equals(System.getProperty(WHOLE_CONCAT_PROPERTY));
    }

    private static void copyAll(AggregateColumns part, int a, AggregateColumns out, int at, int n) {
        System.arraycopy(part.longs[a], 0, out.longs[a], at, n);
        System.arraycopy(part.doubles[a], 0, out.doubles[a], at, n);
        System.arraycopy(part.nulls[a], 0, out.nulls[a], at, n);
        if (part.strings[a] != null) {
            System.arraycopy(part.strings[a], 0, out.strings[a], at, n);
        }
    }

    /** The value of aggregate {@code a} in row {@code r}, boxed, or null. */
    Object get(int a, int r) {
        return nulls[a][r]
                ? null
                : strings[a] != null ? strings[a][r] : isLong[a] ? (Object) longs[a][r] : (Object) doubles[a][r];
    }
}
