package io.numacube.engine.exec;

import io.numacube.engine.storage.FactTable;
import io.numacube.numa.base.NumacubeException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The row of each key of a dimension table, for joining fact codes to it: integer keys (BIGINT, INT, DATE, the
 * common case, with millions of them for a table such as TPC-H's orders) in a primitive open-addressing map, others
 * (text, doubles) in a hash map; a key of several columns as one long where they are integers of ranges whose product
 * fits ({@link CompositeKeyRows}). A NULL key (a NULL in any key column) is in no row and matches nothing. Built on
 * first use and kept with its table; read-only after.
 *
 * <p>Invariant: every key is in one row only; a duplicate is an error naming the table, the value and both rows.
 */
abstract class KeyRows {

    /** The row whose key equals {@code key}, or -1 (none, or a NULL key). */
    abstract int rowOf(Object key);

    /** The row whose key equals row {@code row} of {@code keys} (another table's column), or -1. */
    int rowOf(RowValues keys, int row) {
        return rowOf(keys.at(row));
    }

    /** The row whose integer key equals {@code key}, or -1. */
    int rowOf(long key) {
        return rowOf((Object) key);
    }

    /** The row whose key columns equal {@code key}'s values, one per key column (null for NULL), or -1. */
    int rowOf(Object[] key) {
        return rowOf(key[0]);
    }

    /** The row whose key columns equal row {@code row} of {@code keys} (another table's columns, one each), or -1. */
    int rowOf(List<RowValues> keys, int row) {
        return rowOf(keys.get(0), row);
    }

    /**
     * How a key is named in the error when it is not unique.
     *
     * @param dim        the table
     * @param columns    {@code column=NAME}, or {@code columns=A,B} for a key of several columns
     * @param valueOfRow the key's value in a row, as the error shows it
     */
    record KeyName(FactTable dim, String columns, IntFunction<Object> valueOfRow) {}

    /** Integer keys spanning at most this many values per key (plus a little) are kept in a direct table. */
    static final int DENSE_SPAN_PER_KEY = 4;

    /** Most slots of a direct table (512 MiB of rows). */
    static final long DENSE_MAX_SPAN = 1L << 27;

    /** The rows of {@code keys} (columns {@code keyColumns} of {@code dim}, one or more), checked unique. */
    static KeyRows of(FactTable dim, List<RowValues> keys, List<Integer> keyColumns) {
        if (keys.size() > 1) {
            return CompositeKeyRows.of(dim, keys, keyColumns);
        }
        RowValues k = keys.get(0);
        return of(
                new KeyName(
                        dim, "column=" + dim.schema().column(keyColumns.get(0)).name(), k::at),
                k);
    }

    /** The rows of {@code keys}, checked unique ({@code name} names the key in the error). */
    static KeyRows of(KeyName name, RowValues keys) {
        if (!keys.integers()) {
            return new Values(name, keys);
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        long count = 0;
        boolean ascending = true;
        for (int r = 0; r < keys.rows(); r++) {
            if (!keys.isNull(r)) {
                long k = keys.longAt(r);
                ascending &= count == 0 || k > max;
                min = Math.min(min, k);
                max = Math.max(max, k);
                count++;
            }
        }
        if (count > 0 && max - min >= 0 && max - min < Math.min(DENSE_MAX_SPAN, DENSE_SPAN_PER_KEY * count + 1024)) {
            return new Dense(name, keys, min, (int) (max - min + 1));
        }
        if (min == Long.MIN_VALUE) {
            return new Values(name, keys);
        }
        return ascending && sortedKeys() ? new Sorted(keys, (int) count) : new Integers(name, keys);
    }

    static NumacubeException duplicate(KeyName name, int before, int row) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                "a dimension table's join key must be unique: table="
                        + name.dim().schema().name() + " " + name.columns() + " value="
                        + name.valueOfRow().apply(row)
                        + " rows=" + (before + 1) + "," + (row + 1)
                        + " — remove the duplicate rows (a many-to-many join is not the cube's job)");
    }

    /** Integer keys: their slot in a {@link LongIntHashMap} (insertion order), and each slot's row. */
    private static final class Integers extends KeyRows {
        private final LongIntHashMap slots;
        private final int[] rowOfSlot;

        Integers(KeyName name, RowValues keys) {
            slots = new LongIntHashMap(Math.max(16, keys.rows()));
            rowOfSlot = new int[keys.rows()];
            for (int r = 0; r < keys.rows(); r++) {
                if (keys.isNull(r)) {
                    continue;
                }
                int before = slots.size();
                int slot = slots.slotOf(keys.longAt(r));
                if (slot < before) {
                    throw duplicate(name, rowOfSlot[slot], r);
                }
                rowOfSlot[slot] = r;
            }
        }

        @Override
        int rowOf(RowValues keys, int row) {
            if (!keys.integers()) {
                return super.rowOf(keys, row);
            }
            if (keys.isNull(row) || keys.longAt(row) == Long.MIN_VALUE) {
                return -1;
            }
            int slot = slots.find(keys.longAt(row));
            return slot < 0 ? -1 : rowOfSlot[slot];
        }

        @Override
        int rowOf(Object key) {
            return key instanceof Long l ? rowOf(l.longValue()) : -1;
        }

        @Override
        int rowOf(long key) {
            if (key == Long.MIN_VALUE) {
                return -1;
            }
            int slot = slots.find(key);
            return slot < 0 ? -1 : rowOfSlot[slot];
        }
    }

    /**
     * Integer keys of a narrow range (TPC-H's order, customer and part keys): the row of each value at its offset
     * from the smallest, -1 where no row has it; built and probed without hashing, and probed in order where the fact
     * column's dictionary is.
     */
    private static final class Dense extends KeyRows {
        private final long min;
        private final int[] rowAt;

        Dense(KeyName name, RowValues keys, long min, int span) {
            this.min = min;
            this.rowAt = new int[span];
            java.util.Arrays.fill(rowAt, -1);
            for (int r = 0; r < keys.rows(); r++) {
                if (keys.isNull(r)) {
                    continue;
                }
                int at = (int) (keys.longAt(r) - min);
                if (rowAt[at] >= 0) {
                    throw duplicate(name, rowAt[at], r);
                }
                rowAt[at] = r;
            }
        }

        @Override
        int rowOf(long key) {
            long at = key - min;
            return key < min || at < 0 || at >= rowAt.length ? -1 : rowAt[(int) at];
        }

        @Override
        int rowOf(Object key) {
            return key instanceof Long l ? rowOf(l.longValue()) : -1;
        }

        @Override
        int rowOf(RowValues keys, int row) {
            if (!keys.integers()) {
                return super.rowOf(keys, row);
            }
            return keys.isNull(row) ? -1 : rowOf(keys.longAt(row));
        }
    }

    /**
     * The system property that, {@code false}, hashes ascending integer keys as any others, as before {@link Sorted}
     * (an A/B of one process).
     */
    static final String SORTED_PROPERTY = "numacube.sortedKeyRows";

    private static boolean sortedKeys() {
        return !"false".equals(System.getProperty(SORTED_PROPERTY));
    }

    /**
     * Integer keys that ascend strictly down the rows (NULLs aside), hence unique: a subquery's keys grouped in order
     * (TPC-H Q21's EXISTS table, 10^5 order keys spread over 6 million values), kept as the sorted values and their
     * rows, found by binary search; built by a copy, without hashing.
     */
    private static final class Sorted extends KeyRows {
        private final long[] values;
        private final int[] rows;

        Sorted(RowValues keys, int count) {
            values = new long[count];
            rows = new int[count];
            int n = 0;
            for (int r = 0; r < keys.rows(); r++) {
                if (!keys.isNull(r)) {
                    values[n] = keys.longAt(r);
                    rows[n++] = r;
                }
            }
        }

        @Override
        int rowOf(long key) {
            int at = java.util.Arrays.binarySearch(values, key);
            return at < 0 ? -1 : rows[at];
        }

        @Override
        int rowOf(Object key) {
            return key instanceof Long l ? rowOf(l.longValue()) : -1;
        }

        @Override
        int rowOf(RowValues keys, int row) {
            if (!keys.integers()) {
                return super.rowOf(keys, row);
            }
            return keys.isNull(row) ? -1 : rowOf(keys.longAt(row));
        }
    }

    /** Other keys, boxed. */
    private static final class Values extends KeyRows {
        private final Map<Object, Integer> rows = new HashMap<>();

        Values(KeyName name, RowValues keys) {
            for (int r = 0; r < keys.rows(); r++) {
                Object key = keys.at(r);
                Integer before = key == null ? null : rows.put(key, r);
                if (before != null) {
                    throw duplicate(name, before, r);
                }
            }
        }

        @Override
        int rowOf(Object key) {
            return key == null ? -1 : rows.getOrDefault(key, -1);
        }
    }
}
