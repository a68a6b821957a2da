package io.numacube.engine.exec;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.storage.DeletedRows;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One column of a joined table by row (rows numbered across its partitions in order), read onto the heap without a
 * boxed value per row: a dimension as its codes into its dictionary, a plain column as longs or doubles with a NULL
 * flag per row. Immutable once read; shared by the queries that join the table.
 *
 * <p>Invariant: exactly one of {@code codes}, {@code longs} and {@code doubles} is set; {@code dictionary} is set
 * with {@code codes}; {@code nulls} is set with {@code longs} or {@code doubles} when the column holds a NULL.
 */
final class RowValues {

    private final Dictionary dictionary;
    private final int[] codes;
    private final long[] longs;
    private final double[] doubles;
    private final boolean[] nulls;
    private final ColumnType type;

    private RowValues(
            ColumnType type, Dictionary dictionary, int[] codes, long[] longs, double[] doubles, boolean[] nulls) {
        this.type = type;
        this.dictionary = dictionary;
        this.codes = codes;
        this.longs = longs;
        this.doubles = doubles;
        this.nulls = nulls;
    }

    /** Column {@code c} of {@code table}, read. */
    static RowValues read(FactTable table, int c) {
        int rows = (int) table.rowCount();
        ColumnSpec spec = table.schema().column(c);
        if (spec.isDimension()) {
            int[] codes = new int[rows];
            int r = 0;
            for (Partition p : table.partitions()) {
                long[] deleted = table.deleted().of(p.id());
                for (int i = 0; i < p.rows(); i++) {
                    if (deleted == null || !DeletedRows.isSet(deleted, i)) {
                        codes[r++] = p.code(c, i);
                    }
                }
            }
            return new RowValues(spec.type(), table.dictionary(c), codes, null, null, null);
        }
        boolean doubles = spec.type() == ColumnType.DOUBLE;
        long[] l = doubles ? null : new long[rows];
        double[] d = doubles ? new double[rows] : null;
        boolean[] nulls = table.mayBeNull(c) ? new boolean[rows] : null;
        int r = 0;
        for (Partition p : table.partitions()) {
            long[] deleted = table.deleted().of(p.id());
            if (deleted == null && p.column(c) != null && p.column(c).byteSize() >= 8L * p.rows()) {
                copy(p, c, r, l, d, nulls);
                r += p.rows();
                continue;
            }
            for (int i = 0; i < p.rows(); i++) {
                if (deleted != null && DeletedRows.isSet(deleted, i)) {
                    continue;
                }
                int at = r++;
                if (nulls != null && p.isNull(c, i)) {
                    nulls[at] = true;
                } else if (doubles) {
                    d[at] = p.doubleValue(c, i);
                } else {
                    l[at] = p.longValue(c, i);
                }
            }
        }
        return new RowValues(spec.type(), null, null, l, d, nulls);
    }

    /**
     * The rows of {@code p} (none deleted) of plain column {@code c} into {@code longs} or {@code doubles} from
     * {@code at} on, in one copy; a NULL's value 0 and its flag set.
     */
    private static void copy(Partition p, int c, int at, long[] longs, double[] doubles, boolean[] nulls) {
        if (doubles != null) {
            MemorySegment.copy(p.column(c), ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, doubles, at, p.rows());
        } else {
            MemorySegment.copy(p.column(c), ValueLayout.JAVA_LONG_UNALIGNED, 0, longs, at, p.rows());
        }
        if (nulls == null) {
            return;
        }
        for (int i = 0; i < p.rows(); i++) {
            if (p.isNull(c, i)) {
                nulls[at + i] = true;
                if (doubles != null) {
                    doubles[at + i] = 0;
                } else {
                    longs[at + i] = 0;
                }
            }
        }
    }

    /** 64-bit integers by row, NULL where {@code nulls} (null: none) says; the arrays are taken, not copied. */
    static RowValues ofLongs(long[] values, boolean[] nulls) {
        return new RowValues(ColumnType.LONG, null, null, values, null, nulls);
    }

    /** The codes by row of a dimension column; null for a plain one. Shared: read only. */
    int[] codes() {
        return codes;
    }

    int rows() {
        return codes != null ? codes.length : longs != null ? longs.length : doubles.length;
    }

    boolean isNull(int row) {
        return codes != null ? dictionary.isNull(codes[row]) : nulls != null && nulls[row];
    }

    /** Whether every value is a 64-bit integer ({@link #longAt}): any type but text and DOUBLE. */
    boolean integers() {
        return type != ColumnType.STRING && type != ColumnType.DOUBLE;
    }

    /** The value of {@code row} as a long; only for {@link #integers} and a row that is not NULL. */
    long longAt(int row) {
        return codes != null ? dictionary.longValue(codes[row]) : longs[row];
    }

    /** The value of {@code row} as a double; only for a numeric column and a row that is not NULL. */
    double doubleAt(int row) {
        if (codes != null) {
            return type == ColumnType.DOUBLE ? dictionary.doubleValue(codes[row]) : dictionary.longValue(codes[row]);
        }
        return doubles != null ? doubles[row] : longs[row];
    }

    /** The value of {@code row} as the scalar evaluator sees it: a String, Long or Double, or null for NULL. */
    Object at(int row) {
        if (codes != null) {
            return QueryCompiler.scalar(dictionary, codes[row]);
        }
        if (nulls != null && nulls[row]) {
            return null;
        }
        return doubles != null ? (Object) doubles[row] : (Object) longs[row];
    }
}
