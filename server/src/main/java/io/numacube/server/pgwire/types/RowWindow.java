package io.numacube.server.pgwire.types;

import java.util.List;

/**
 * Consecutive rows of another {@link RowSet}: rows {@code from} to {@code from + count - 1} of {@code base}, as a
 * cursor's FETCH answers them without copying. Immutable (its base is).
 *
 * @param base  the rows it is a window of
 * @param from  the first of them, 0-based
 * @param count how many
 */
public record RowWindow(RowSet base, int from, int count) implements RowSet {

    public RowWindow {
        if (from < 0 || count < 0 || (long) from + count > base.rowCount()) {
            throw new IllegalArgumentException(
                    "a window past its rows: from=" + from + " count=" + count + " rows=" + base.rowCount());
        }
    }

    @Override
    public List<PgColumn> columns() {
        return base.columns();
    }

    @Override
    public int rowCount() {
        return count;
    }

    @Override
    public Object value(int row, int column) {
        return base.value(from + row, column);
    }
}
