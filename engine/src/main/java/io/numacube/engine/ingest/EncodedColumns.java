package io.numacube.engine.ingest;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.DictionaryBuilder;
import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.engine.workers.WorkerPool;
import java.util.ArrayList;
import java.util.List;

/**
 * How a staged table's columns are stored once loaded: dimension columns as the staging coded them, and BIGINT columns
 * with at most {@link #MAX_DISTINCT} distinct values re-coded through a dictionary (as an INT column; unless the staging
 * {@linkplain TableStaging#keepLongsPlain keeps them plain}), so that they can
 * be grouped by, filtered by code masks and partitioned by like any dimension, while their sums stay exact; other
 * BIGINT and DOUBLE columns stay plain. Built once per load (the BIGINT columns tried on the pool's workers, one
 * task each); read-only afterwards.
 *
 * <p>Invariants: {@code schema} is the staging's schema with re-coded columns typed INT; for every column of a
 * dictionary type in {@code schema}, {@code builders[c]} and {@code codes[c]} hold its first-seen dictionary and one
 * code per staged row (a NULL as the dictionary's NULL code); both are null for plain columns.
 *
 * @param schema   the columns as loaded
 * @param builders per column, its dictionary in first-seen order, or null
 * @param codes    per column, its code per staged row, or null
 */
record EncodedColumns(TableSchema schema, DictionaryBuilder[] builders, int[][] codes) {

    /** Most distinct values of a BIGINT column that is stored with a dictionary (2-byte codes). */
    static final int MAX_DISTINCT = 1 << 16;

    static EncodedColumns of(TableStaging staging) {
        return of(staging, null);
    }

    /**
     * As {@link #of(TableStaging)}, the BIGINT columns tried for re-coding one per task on {@code pool}'s workers (null:
     * one after another on the calling thread, which must not be one of the pool's workers).
     */
    static EncodedColumns of(TableStaging staging, WorkerPool pool) {
        TableSchema staged = staging.schema();
        int n = staged.size();
        DictionaryBuilder[] builders = new DictionaryBuilder[n];
        int[][] codes = new int[n][];
        staging.settle(pool);
        List<Integer> bigints = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            builders[c] = staging.dictionary(c);
            codes[c] = staging.codes(c);
            if (staged.column(c).type() == ColumnType.LONG && !staging.longsPlain()) {
                bigints.add(c);
            }
        }
        ThreadWorkerPool.runEach(pool, bigints.size(), i -> recode(staging, bigints.get(i), builders, codes));
        List<ColumnSpec> columns = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            ColumnSpec spec = staged.column(c);
            columns.add(builders[c] != null && spec.type() == ColumnType.LONG ? spec.withType(ColumnType.INT) : spec);
        }
        return new EncodedColumns(new TableSchema(staged.name(), columns), builders, codes);
    }

    /** Codes BIGINT column {@code c} through a dictionary when it has few distinct values; leaves it plain otherwise. */
    private static void recode(TableStaging staging, int c, DictionaryBuilder[] builders, int[][] codes) {
        int rows = staging.rows();
        long[] values = staging.longs(c);
        long[] nulls = staging.nulls(c);
        DictionaryBuilder b = new DictionaryBuilder(ColumnType.INT);
        int[] out = new int[rows];
        for (int r = 0; r < rows; r++) {
            boolean isNull = nulls != null && (nulls[r >>> 6] & (1L << r)) != 0;
            out[r] = isNull ? b.nullCode() : b.codeOf(values[r]);
            if (b.size() > MAX_DISTINCT) {
                return;
            }
        }
        builders[c] = b;
        codes[c] = out;
    }
}
