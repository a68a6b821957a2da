package io.numacube.engine;

import io.numacube.engine.ingest.StagingBlock;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;

/**
 * A query's answer staged column by column as one {@link StagingBlock}, for a subquery's temporary table
 * ({@link Subqueries}): a column held as longs is copied whole, a dimension coded value by value in its own pass. Appended
 * to an empty {@link io.numacube.engine.ingest.TableStaging} of the same schema, the block leaves the rows, values,
 * NULLs and dictionaries (first-seen order) that setting the rows one by one leaves, without a setter's checks per
 * value (TPC-H Q13 places 150,000 rows of its derived table, and before it 100,000 of its orders per customer, at
 * every run). Stateless.
 */
final class ResultBlock {

    /** The system property that, {@code false}, stages a subquery's rows one by one (for an A/B of one process). */
    static final String PROPERTY = "numacube.columnPlace";

    private ResultBlock() {}

    static boolean enabled() {
        return !"false".equals(System.getProperty(PROPERTY));
    }

    /**
     * The rows of {@code r} as a block of {@code schema}'s columns (one per column of {@code r}: its type, an INT as
     * INT or LONG, a DECIMAL as a LONG of its scale), or null when a value would fail staging (a DOUBLE that is not
     * finite, a STRING that is null without being NULL): staging the rows one by one then fails with its own error.
     */
    static StagingBlock of(QueryResult r, TableSchema schema) {
        int n = r.rowCount();
        StagingBlock block = new StagingBlock(schema, n);
        for (int c = 0; c < schema.size(); c++) {
            ColumnType to = schema.column(c).type();
            boolean filled = to.isDimension()
                    ? dimension(block, r, c, to, n)
                    : to == ColumnType.DOUBLE ? doubles(block, r, c, n) : longs(block, r, c, n);
            if (!filled) {
                return null;
            }
        }
        return block;
    }

    private static boolean longs(StagingBlock block, QueryResult r, int c, int n) {
        r.copyLongs(c, 0, block.longs(c), 0, n);
        if (r.mayHoldNulls(c)) {
            for (int row = 0; row < n; row++) {
                if (r.isNull(row, c)) {
                    block.setNull(c, row);
                }
            }
        }
        return true;
    }

    private static boolean doubles(StagingBlock block, QueryResult r, int c, int n) {
        double[] to = block.doubles(c);
        for (int row = 0; row < n; row++) {
            if (r.isNull(row, c)) {
                block.setNull(c, row);
                continue;
            }
            double v = r.getDouble(row, c);
            if (!Double.isFinite(v)) {
                return false;
            }
            to[row] = v;
        }
        return true;
    }

    private static boolean dimension(StagingBlock block, QueryResult r, int c, ColumnType to, int n) {
        io.numacube.engine.storage.DictionaryBuilder d = block.dictionary(c);
        int[] codes = block.codes(c);
        for (int row = 0; row < n; row++) {
            if (r.isNull(row, c)) {
                block.setNull(c, row);
                continue;
            }
            switch (to) {
                case STRING -> {
                    String s = r.getString(row, c);
                    if (s == null) {
                        return false;
                    }
                    codes[row] = d.codeOf(s);
                }
                case DATE -> codes[row] = d.codeOf((int) r.getLong(row, c));
                case BOOLEAN -> codes[row] = d.codeOf(r.getLong(row, c) != 0 ? 1 : 0);
                default -> codes[row] = d.codeOf(r.getLong(row, c));
            }
        }
        return true;
    }
}
