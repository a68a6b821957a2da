package io.numacube.engine;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.TableSchema;
import java.math.RoundingMode;
import java.util.List;

/**
 * The new rows of an UPDATE as a batch of its table: the answer of {@link io.numacube.engine.sql.UpdateStatement#values}
 * (every column in order, assigned ones already cast to their column's type) staged with the table's schema, a DECIMAL
 * at its column's scale (rounded half up where the expression kept more digits), and the columns set to NULL null.
 * Stateless.
 */
final class UpdatedRows {

    private UpdatedRows() {}

    static TableStaging stage(TableSchema schema, QueryResult values, List<Integer> nullColumns) {
        TableStaging staging = new TableStaging(schema);
        for (int row = 0; row < values.rowCount(); row++) {
            for (int c = 0; c < schema.size(); c++) {
                if (nullColumns.contains(c) || values.isNull(row, c)) {
                    staging.setNull(c);
                } else {
                    set(staging, schema.column(c), values, row, c);
                }
            }
            staging.endRow();
        }
        return staging;
    }

    private static void set(TableStaging staging, ColumnSpec col, QueryResult r, int row, int c) {
        if (col.isDecimal()) {
            staging.setLong(
                    c,
                    r.getDecimal(row, c)
                            .setScale(col.scale(), RoundingMode.HALF_UP)
                            .unscaledValue()
                            .longValueExact());
            return;
        }
        ResultStaging.setValue(staging, c, col.type(), r, row);
    }
}
