package io.numacube.engine.ingest.csv;

/**
 * Receives the typed values of one row at a time from {@link CsvTableReader}: every column of the schema is set
 * exactly once (in any order) and then {@link #endRow()} is called. Column indexes are schema positions, not CSV
 * field positions. Which setter is called follows the column type: STRING → {@link #setString}, LONG and INT →
 * {@link #setLong}, DOUBLE → {@link #setDouble} (always finite), DATE → {@link #setDate}, BOOLEAN → {@link #setBoolean}; a NULL of any type →
 * {@link #setNull}.
 *
 * <p>Called by the single reading thread only. A sink may throw {@link io.numacube.numa.base.NumacubeException}; the
 * reader adds the row's location and stops.
 */
public interface CsvRowSink {

    void setString(int column, String value);

    /** A STRING value of a column of free text (nearly every value new); by default {@link #setString}. */
    default void setFreeText(int column, String value) {
        setString(column, value);
    }

    void setLong(int column, long value);

    void setDouble(int column, double value);

    /** @param epochDay days since 1970-01-01 */
    void setDate(int column, long epochDay);

    void setBoolean(int column, boolean value);

    /** A TIMESTAMP, as microseconds since 1970-01-01 00:00:00; a plain long of its column unless a sink says more. */
    default void setTimestamp(int column, long micros) {
        setLong(column, micros);
    }

    /** SQL NULL in {@code column}, of any type. */
    void setNull(int column);

    void endRow();
}
