package io.numacube.server.pgwire.types;

import io.numacube.engine.result.QueryResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's answer as rows for the wire: each result column as its {@link PgType#of} type. A DECIMAL that is a
 * table's column is {@code numeric(precision, scale)} as declared; a computed one (SUM, MIN, arithmetic) is plain
 * {@code numeric} (typmod -1), as PostgreSQL types {@code sum(numeric(4,1))}. Immutable (the result is).
 */
public final class EngineRows implements RowSet {

    private final QueryResult result;
    private final List<PgColumn> columns;

    public EngineRows(QueryResult result) {
        this.result = result;
        List<PgColumn> cols = new ArrayList<>();
        for (int c = 0; c < result.columnCount(); c++) {
            PgType t = PgType.of(result.columnTypes().get(c));
            int typmod = t == PgType.NUMERIC && result.precision(c) > 0
                    ? PgType.numericTypmod(result.precision(c), result.scale(c))
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
