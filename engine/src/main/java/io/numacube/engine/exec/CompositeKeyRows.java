package io.numacube.engine.exec;

import io.numacube.engine.storage.FactTable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The row of each key of several columns of a dimension table (TPC-H's {@code partsupp} on {@code (ps_partkey,
 * ps_suppkey)}). Where every key column holds integers and the product of their ranges fits in 62 bits, a key is the
 * one long {@code sum((v[i] - min[i]) * stride[i])}, kept in a {@link KeyRows} of one column (a direct table where
 * those longs are narrow, else a primitive hash map); a key with a value outside a column's range is in no row. Other
 * keys (text, doubles, wide ranges) are kept boxed, as lists. A key with a NULL in any column is in no row and
 * matches nothing.
 *
 * <p>Invariant: every key is in one row only; a duplicate is an error naming the table, the columns, the values and
 * both rows. Read-only after construction; shared by the queries that join the table.
 */
final class CompositeKeyRows extends KeyRows {

    /** Most bits the combined long of a key may take. */
    private static final long MAX_COMBINED = 1L << 62;

    /** Per key column, its smallest value; null for boxed keys. */
    private final long[] mins;
    /** Per key column, its largest value; null for boxed keys. */
    private final long[] maxes;
    /** Per key column, what its offset from the smallest is multiplied by; null for boxed keys. */
    private final long[] strides;
    /** The rows of the combined longs; null for boxed keys. */
    private final KeyRows combined;
    /** The rows of the boxed keys; null for combined ones. */
    private final Map<List<Object>, Integer> boxed;

    private CompositeKeyRows(
            long[] mins, long[] maxes, long[] strides, KeyRows combined, Map<List<Object>, Integer> boxed) {
        this.mins = mins;
        this.maxes = maxes;
        this.strides = strides;
        this.combined = combined;
        this.boxed = boxed;
    }

    /** The rows of {@code keys}, columns {@code keyColumns} of {@code dim}, checked unique. */
    static CompositeKeyRows of(FactTable dim, List<RowValues> keys, List<Integer> keyColumns) {
        KeyName name = new KeyName(
                dim,
                "columns="
                        + String.join(
                                ",",
                                keyColumns.stream()
                                        .map(c -> dim.schema().column(c).name())
                                        .toList()),
                row -> "("
                        + String.join(
                                ", ",
                                keys.stream()
                                        .map(k -> String.valueOf(k.at(row)))
                                        .toList()) + ")");
        int n = keys.size();
        int rows = n == 0 ? 0 : keys.get(0).rows();
        long[] mins = new long[n];
        long[] maxes = new long[n];
        long[] strides = keys.stream().allMatch(RowValues::integers) ? strides(keys, mins, maxes) : null;
        if (strides == null) {
            return new CompositeKeyRows(null, null, null, null, boxed(name, keys, rows));
        }
        long[] values = new long[rows];
        boolean[] nulls = new boolean[rows];
        for (int r = 0; r < rows; r++) {
            for (int i = 0; i < n && !nulls[r]; i++) {
                if (keys.get(i).isNull(r)) {
                    nulls[r] = true;
                } else {
                    values[r] += (keys.get(i).longAt(r) - mins[i]) * strides[i];
                }
            }
        }
        return new CompositeKeyRows(mins, maxes, strides, KeyRows.of(name, RowValues.ofLongs(values, nulls)), null);
    }

    /**
     * Fills each column's smallest and largest value (over its non-NULL rows) and returns its stride, or null where a
     * column has no value or the ranges' product does not fit {@link #MAX_COMBINED}.
     */
    private static long[] strides(List<RowValues> keys, long[] mins, long[] maxes) {
        long[] strides = new long[keys.size()];
        long stride = 1;
        for (int i = 0; i < keys.size(); i++) {
            RowValues k = keys.get(i);
            mins[i] = Long.MAX_VALUE;
            maxes[i] = Long.MIN_VALUE;
            for (int r = 0; r < k.rows(); r++) {
                if (!k.isNull(r)) {
                    mins[i] = Math.min(mins[i], k.longAt(r));
                    maxes[i] = Math.max(maxes[i], k.longAt(r));
                }
            }
            long span = maxes[i] - mins[i] + 1;
            if (mins[i] > maxes[i] || span <= 0 || span > MAX_COMBINED / stride) {
                return null;
            }
            strides[i] = stride;
            stride *= span;
        }
        return strides;
    }

    private static Map<List<Object>, Integer> boxed(KeyName name, List<RowValues> keys, int rows) {
        Map<List<Object>, Integer> out = new HashMap<>();
        for (int r = 0; r < rows; r++) {
            Object[] key = new Object[keys.size()];
            boolean hasNull = false;
            for (int i = 0; i < key.length; i++) {
                key[i] = keys.get(i).at(r);
                hasNull |= key[i] == null;
            }
            Integer before = hasNull ? null : out.put(Arrays.asList(key), r);
            if (before != null) {
                throw duplicate(name, before, r);
            }
        }
        return out;
    }

    @Override
    int rowOf(Object key) {
        throw new IllegalStateException("a key of " + (mins == null ? "several" : mins.length) + " columns");
    }

    @Override
    int rowOf(Object[] key) {
        if (boxed != null) {
            for (Object k : key) {
                if (k == null) {
                    return -1;
                }
            }
            return boxed.getOrDefault(Arrays.asList(key), -1);
        }
        long value = 0;
        for (int i = 0; i < key.length; i++) {
            if (!(key[i] instanceof Long l) || l < mins[i] || l > maxes[i]) {
                return -1;
            }
            value += (l - mins[i]) * strides[i];
        }
        return combined.rowOf(value);
    }

    @Override
    int rowOf(List<RowValues> keys, int row) {
        if (boxed != null) {
            Object[] key = new Object[keys.size()];
            for (int i = 0; i < key.length; i++) {
                key[i] = keys.get(i).at(row);
            }
            return rowOf(key);
        }
        long value = 0;
        for (int i = 0; i < keys.size(); i++) {
            RowValues k = keys.get(i);
            if (!k.integers() || k.isNull(row) || k.longAt(row) < mins[i] || k.longAt(row) > maxes[i]) {
                return -1;
            }
            value += (k.longAt(row) - mins[i]) * strides[i];
        }
        return combined.rowOf(value);
    }
}
