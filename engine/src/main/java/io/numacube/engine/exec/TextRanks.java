package io.numacube.engine.exec;

import io.numacube.engine.schema.TextOrder;
import io.numacube.engine.storage.Dictionary;
import java.util.Arrays;

/**
 * Two text columns' codes as ranks in one order, so that a row's two values compare as two integers: each code of
 * either dictionary gets the rank of its value among the values of both, in {@link TextOrder} (by code point, as
 * DuckDB and PostgreSQL's C collation), equal values the same rank. A NULL code gets rank 0 (the caller guards NULLs).
 * Immutable after construction.
 *
 * @param left  rank per code of the first dictionary
 * @param right rank per code of the second
 */
record TextRanks(long[] left, long[] right) {

    /** The ranks of {@code a}'s and {@code b}'s codes. */
    static TextRanks of(Dictionary a, Dictionary b) {
        String[] values = new String[a.size() + b.size()];
        int n = 0;
        n = addValues(a, values, n);
        n = addValues(b, values, n);
        String[] sorted = Arrays.copyOf(values, n);
        Arrays.sort(sorted, TextOrder::compare);
        int distinct = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (distinct == 0 || TextOrder.compare(sorted[distinct - 1], sorted[i]) != 0) {
                sorted[distinct++] = sorted[i];
            }
        }
        String[] order = Arrays.copyOf(sorted, distinct);
        return new TextRanks(ranks(a, order), ranks(b, order));
    }

    private static int addValues(Dictionary d, String[] into, int n) {
        for (int code = 0; code < d.size(); code++) {
            if (!d.isNull(code)) {
                into[n++] = d.string(code);
            }
        }
        return n;
    }

    private static long[] ranks(Dictionary d, String[] order) {
        long[] ranks = new long[Math.max(1, d.size())];
        for (int code = 0; code < d.size(); code++) {
            ranks[code] = d.isNull(code) ? 0 : 1 + Arrays.binarySearch(order, d.string(code), TextOrder::compare);
        }
        return ranks;
    }

    /** The ranks as doubles, for a {@link BatchExpression.ByCode}. */
    static double[] doubles(long[] ranks) {
        double[] d = new double[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            d[i] = ranks[i];
        }
        return d;
    }
}
