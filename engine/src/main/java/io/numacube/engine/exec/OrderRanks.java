package io.numacube.engine.exec;

import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.ValueOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ORDER BY's order of result rows read from ranks: per ORDER BY key, each kept row's value replaced by its rank among
 * the distinct values of the kept rows, sorted once by {@link ScalarEvaluator#compare}. Values that compare equal get
 * one rank, and a lower rank is a value that sorts before, so comparing two rows' ranks orders them exactly as
 * comparing their values does, with an int comparison instead of a comparison of two strings (a sort of 18,000 rows
 * by two text keys compared their strings 250,000 times; ranking hashes each of them once and sorts the few distinct
 * ones). NULL has no rank and is placed as the key says. Ties by row number. Stateless.
 */
final class OrderRanks {

    /** The system property that, {@code false}, compares the values themselves (for an A/B of one process). */
    static final String PROPERTY = "numacube.rankedSort";

    /** A row's rank where its value is NULL. */
    private static final int NULL = -1;

    private OrderRanks() {}

    /** Whether ORDER BY's full sorts read ranks; on unless {@value #PROPERTY} is {@code false}. */
    static boolean enabled() {
        return !"false".equals(System.getProperty(PROPERTY));
    }

    /**
     * The order of {@code kept} rows by their ORDER BY values: {@code values[r][i]} is row {@code r}'s value of key
     * {@code i} (null: SQL NULL), for each row of {@code kept}.
     */
    static RowSort.RowOrder order(LogicalQuery.Order[] orders, Object[][] values, int[] kept) {
        int[][] ranks = new int[orders.length][];
        for (int i = 0; i < orders.length; i++) {
            ranks[i] = ranks(values, i, kept);
        }
        return (x, y) -> {
            for (int i = 0; i < orders.length; i++) {
                int c = compare(orders[i], ranks[i][x], ranks[i][y]);
                if (c != 0) {
                    return c;
                }
            }
            return Integer.compare(x, y);
        };
    }

    /**
     * {@code kept} sorted by their ORDER BY values ({@code values} as {@link #order} reads them), ties by row number,
     * through one long per row that packs the keys' ranks, each in the bits its distinct values need (inverted where
     * descending, NULL below or above every rank), then the row number: sorting the longs is the order. Null where
     * they need more than 63 bits.
     */
    static int[] sorted(LogicalQuery.Order[] orders, Object[][] values, int[] kept) {
        int rowBits = bitsFor(values.length);
        int[][] ranks = new int[orders.length][];
        int[] distinct = new int[orders.length];
        int bits = rowBits;
        for (int i = 0; i < orders.length; i++) {
            ranks[i] = ranks(values, i, kept);
            int max = -1;
            for (int r : kept) {
                max = Math.max(max, ranks[i][r]);
            }
            distinct[i] = max + 1;
            bits += bitsFor(distinct[i] + 1);
            if (bits > 63) {
                return null;
            }
        }
        long[] packed = new long[kept.length];
        for (int k = 0; k < kept.length; k++) {
            int r = kept[k];
            long key = 0;
            for (int i = 0; i < orders.length; i++) {
                key = key << bitsFor(distinct[i] + 1) | slot(orders[i], ranks[i][r], distinct[i]);
            }
            packed[k] = key << rowBits | r;
        }
        java.util.Arrays.sort(packed);
        int[] out = new int[kept.length];
        long rowMask = (1L << rowBits) - 1;
        for (int k = 0; k < kept.length; k++) {
            out[k] = (int) (packed[k] & rowMask);
        }
        return out;
    }

    /** The bits that hold every number below {@code n}. */
    private static int bitsFor(int n) {
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(Math.max(1, n - 1)));
    }

    /** A rank's place among {@code 0..distinct}: ascending or inverted, NULL at 0 or at {@code distinct}. */
    private static long slot(LogicalQuery.Order o, int rank, int distinct) {
        if (rank == NULL) {
            return o.nullsFirst() ? 0 : distinct;
        }
        int at = o.descending() ? distinct - 1 - rank : rank;
        return o.nullsFirst() ? at + 1 : at;
    }

    private static int compare(LogicalQuery.Order o, int a, int b) {
        if (a == NULL || b == NULL) {
            return SortKeyOrder.nulls(o, a == NULL, b == NULL);
        }
        return SortKeyOrder.directed(o, Integer.compare(a, b));
    }

    /** Per row (indexed as {@code values}), the rank of its value of key {@code i}; {@link #NULL} for NULL. */
    private static int[] ranks(Object[][] values, int i, int[] kept) {
        Map<Object, Integer> indexOf = new HashMap<>();
        List<Object> distinct = new ArrayList<>();
        int[] index = new int[values.length];
        for (int r : kept) {
            Object v = values[r][i];
            if (v == null) {
                index[r] = NULL;
                continue;
            }
            Integer at = indexOf.putIfAbsent(v, distinct.size());
            if (at == null) {
                at = distinct.size();
                distinct.add(v);
            }
            index[r] = at;
        }
        int[] rankOf = rankOfIndex(distinct);
        for (int r : kept) {
            if (index[r] != NULL) {
                index[r] = rankOf[index[r]];
            }
        }
        return index;
    }

    /** Per distinct value (by its index), its rank: values that compare equal share one. */
    private static int[] rankOfIndex(List<Object> distinct) {
        Integer[] byValue = new Integer[distinct.size()];
        for (int d = 0; d < byValue.length; d++) {
            byValue[d] = d;
        }
        java.util.Arrays.sort(byValue, (a, b) -> ValueOrder.compare(distinct.get(a), distinct.get(b)));
        int[] rankOf = new int[byValue.length];
        int rank = 0;
        for (int s = 0; s < byValue.length; s++) {
            if (s > 0 && ValueOrder.compare(distinct.get(byValue[s - 1]), distinct.get(byValue[s])) != 0) {
                rank++;
            }
            rankOf[byValue[s]] = rank;
        }
        return rankOf;
    }
}
