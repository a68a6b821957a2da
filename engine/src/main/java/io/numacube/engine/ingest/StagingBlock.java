package io.numacube.engine.ingest;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.DictionaryBuilder;

/**
 * A fixed number of rows of one table, column by column, decoded off the staging thread (a Parquet row group, say)
 * and then appended to a {@link TableStaging} with {@link TableStaging#append}. A loader fills it by writing into its
 * arrays, one value per row and column:
 *
 * <ul>
 *   <li>a dimension (STRING, INT, DATE, BOOLEAN): {@link #codes(int)}, codes of the block's own
 *       {@link #dictionary(int)} (first-seen order within the block), which the append maps to the staging's;
 *   <li>a DOUBLE: {@link #doubles(int)}, finite values only (the append refuses others);
 *   <li>a LONG or TIMESTAMP: {@link #longs(int)};
 *   <li>SQL NULL in any column: {@link #setNull(int, int)} (a dimension gets its dictionary's NULL code, a measure a
 *       0 and a bit in {@link #nulls(int)}).
 * </ul>
 *
 * <p>Invariant, once filled: every row of every column holds a value or NULL, and every code is one of its
 * dictionary's. A row left unwritten reads as 0 (a measure) or code 0 (a dimension), so a loader must write them all.
 *
 * <p>Not thread-safe: one thread fills it; the thread that appends it must see the writes (hand it over through a
 * future, a lock or a queue). The block is on-heap and garbage-collected; the staging copies it.
 */
public final class StagingBlock {

    private final TableSchema schema;
    private final int rows;
    private final DictionaryBuilder[] dictionaries;
    private final int[][] codes;
    private final double[][] doubles;
    private final long[][] longs;
    /** Per measure column, a bit per row set for NULL; null until its first NULL. */
    private final long[][] nullBits;

    /**
     * @param schema the columns, as the staging it will be appended to has them
     * @param rows   the block's row count, at least 0
     */
    public StagingBlock(TableSchema schema, int rows) {
        if (rows < 0) {
            throw new IllegalArgumentException("a block has at least 0 rows: rows=" + rows);
        }
        this.schema = schema;
        this.rows = rows;
        int n = schema.size();
        dictionaries = new DictionaryBuilder[n];
        codes = new int[n][];
        doubles = new double[n][];
        longs = new long[n][];
        nullBits = new long[n][];
        for (int c = 0; c < n; c++) {
            ColumnType t = schema.column(c).type();
            if (t.isDimension()) {
                dictionaries[c] = new DictionaryBuilder(t);
                codes[c] = new int[rows];
            } else if (t == ColumnType.DOUBLE) {
                doubles[c] = new double[rows];
            } else {
                longs[c] = new long[rows];
            }
        }
    }

    public TableSchema schema() {
        return schema;
    }

    public int rows() {
        return rows;
    }

    /** The block's dictionary of a dimension column (codes in first-seen order within the block); null for a measure. */
    public DictionaryBuilder dictionary(int column) {
        return dictionaries[column];
    }

    /** One code per row of a dimension column, of {@link #dictionary(int)}; null for a measure. */
    public int[] codes(int column) {
        return codes[column];
    }

    /** One value per row of a DOUBLE column; null otherwise. */
    public double[] doubles(int column) {
        return doubles[column];
    }

    /** One value per row of a LONG or TIMESTAMP column; null otherwise. */
    public long[] longs(int column) {
        return longs[column];
    }

    /**
     * The NULL set of a measure column: bit {@code r & 63} of word {@code r >>> 6} is set when row {@code r} is NULL;
     * null when the column has no NULL (and for dimensions, whose NULL is a dictionary code).
     */
    public long[] nulls(int column) {
        return nullBits[column];
    }

    /** Sets SQL NULL in row {@code row} of {@code column}, of any type. */
    public void setNull(int column, int row) {
        if (dictionaries[column] != null) {
            codes[column][row] = dictionaries[column].nullCode();
            return;
        }
        if (nullBits[column] == null) {
            nullBits[column] = new long[(rows + 63) >>> 6];
        }
        nullBits[column][row >>> 6] |= 1L << row;
        if (doubles[column] != null) {
            doubles[column][row] = 0;
        } else {
            longs[column][row] = 0;
        }
    }
}
