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
    /** The value of every row of each column that is the transaction's clock, by position; empty for none. */
    private final java.util.Map<Integer, Object> constants;

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
        this.constants = java.util.Map.of();
    }

    private EngineRows(QueryResult result, List<PgColumn> columns, java.util.Map<Integer, Object> constants) {
        this.result = result;
        this.columns = List.copyOf(columns);
        this.constants = java.util.Map.copyOf(constants);
    }

    /**
     * These rows with each column of {@code names} (position to PostgreSQL's name, empty to keep the engine's) sent
     * as a {@code timestamptz}, {@code clock} in every row: a PostgreSQL clock function of the transaction ({@code
     * now()}) alone as a column, whose engine value is {@code clock}'s wall clock as a TIMESTAMP.
     */
    public EngineRows withZonedClock(java.util.Map<Integer, String> names, java.time.OffsetDateTime clock) {
        List<PgColumn> cols = new ArrayList<>(columns);
        java.util.Map<Integer, Object> values = new java.util.HashMap<>(constants);
        names.forEach((c, name) -> {
            cols.set(c, new PgColumn(name.isEmpty() ? cols.get(c).name() : name, PgType.TIMESTAMPTZ, -1));
            values.put(c, clock);
        });
        return new EngineRows(result, cols, values);
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
        Object constant = constants.get(column);
        return constant != null ? constant : result.getObject(row, column);
    }
}
