package io.numacube.engine.ingest.csv;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Test sink: keeps every row as boxed values in schema order (dates as LocalDate, timestamps as LocalDateTime, NULL as null); checks each column is
 * set once.
 */
class RecordingSink implements CsvRowSink {

    final List<List<Object>> rows = new ArrayList<>();
    private final Object[] current;
    private final boolean[] set;

    RecordingSink(int columns) {
        current = new Object[columns];
        set = new boolean[columns];
    }

    private void put(int column, Object v) {
        if (set[column]) {
            throw new AssertionError("column set twice in one row: column=" + column);
        }
        set[column] = true;
        current[column] = v;
    }

    @Override
    public void setString(int column, String value) {
        put(column, value);
    }

    @Override
    public void setLong(int column, long value) {
        put(column, value);
    }

    @Override
    public void setDouble(int column, double value) {
        put(column, value);
    }

    @Override
    public void setDate(int column, long epochDay) {
        put(column, LocalDate.ofEpochDay(epochDay));
    }

    @Override
    public void setTimestamp(int column, long micros) {
        put(column, io.numacube.engine.schema.Timestamps.toLocalDateTime(micros));
    }

    @Override
    public void setBoolean(int column, boolean value) {
        put(column, value);
    }

    @Override
    public void setNull(int column) {
        put(column, null);
    }

    @Override
    public void endRow() {
        for (int i = 0; i < set.length; i++) {
            if (!set[i]) {
                throw new AssertionError("column not set before endRow: column=" + i);
            }
        }
        rows.add(Arrays.asList(current.clone()));
        Arrays.fill(set, false);
    }
}
