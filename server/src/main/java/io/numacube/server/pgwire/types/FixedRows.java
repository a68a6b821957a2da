package io.numacube.server.pgwire.types;

import java.util.ArrayList;
import java.util.List;

/**
 * Rows the server makes itself, held as arrays of values (see {@link RowSet} for their Java types). Immutable once
 * built; built on one thread.
 */
public final class FixedRows implements RowSet {

    private final List<PgColumn> columns;
    private final List<Object[]> rows;

    public FixedRows(List<PgColumn> columns, List<Object[]> rows) {
        this.columns = List.copyOf(columns);
        this.rows = new ArrayList<>(rows.size());
        for (Object[] r : rows) {
            if (r.length != columns.size()) {
                throw new IllegalArgumentException(
                        "a row has " + r.length + " values for " + columns.size() + " columns");
            }
            this.rows.add(r.clone());
        }
    }

    /** One row of one column. */
    public static FixedRows single(PgColumn column, Object value) {
        return new FixedRows(List.of(column), List.<Object[]>of(new Object[] {value}));
    }

    @Override
    public List<PgColumn> columns() {
        return columns;
    }

    @Override
    public int rowCount() {
        return rows.size();
    }

    @Override
    public Object value(int row, int column) {
        return rows.get(row)[column];
    }
}
