package io.numacube.server.pgwire.types;

import io.numacube.engine.result.QueryResult;
import io.numacube.server.query.SqlTypeNames;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's answer as rows for the wire: each result column as its {@link PgType#of} type, a DECIMAL as
 * {@code numeric(18, scale)}. Immutable (the result is).
 */
public final class EngineRows implements RowSet {

    private final QueryResult result;
    private final List<PgColumn> columns;

    public EngineRows(QueryResult result) {
        this.result = result;
        List<PgColumn> cols = new ArrayList<>();
        for (int c = 0; c < result.columnCount(); c++) {
            PgType t = PgType.of(result.columnTypes().get(c));
            int typmod = t == PgType.NUMERIC
                    ? PgType.numericTypmod(SqlTypeNames.RESULT_DECIMAL_PRECISION, result.scale(c))
                    : -1;
            cols.add(new PgColumn(result.columnNames().get(c), t, typmod));
        }
        this.columns = List.copyOf(cols);
    }

    @Override
    public List<PgColumn> columns() {
        return columns;
    }

    @Override
    public int rowCount() {
        return result.rowCount();
    }

    /** The engine's answer these rows are. */
    public QueryResult result() {
        return result;
    }

    @Override
    public Object value(int row, int column) {
        return result.getObject(row, column);
    }
}
