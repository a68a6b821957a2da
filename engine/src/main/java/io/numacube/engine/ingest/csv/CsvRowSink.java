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

    /**
     * As {@link #setString}, returning the value's code in the column's dictionary where the sink codes values (then
     * {@link #setCode} sets the same value again by that code, for the rest of the read), else -1 (the default).
     */
    default int setStringCoded(int column, String value) {
        setString(column, value);
        return -1;
    }

    /**
     * Sets the STRING value that {@link #setStringCoded} gave {@code code} for {@code column} earlier in this read: the
     * reader looks a repeated value up once per read, not once per row. Only called with such a code.
     */
    default void setCode(int column, int code) {
        throw new UnsupportedOperationException("this sink codes no values: column=" + column + " code=" + code);
    }

    /**
     * The code of the STRING value whose UTF-8 bytes are {@code bytes[from, to)} (of {@link
     * io.numacube.engine.storage.TextCodeIndex#hash} {@code hash}) among the values the sink knows before the read (a
     * table's dictionary), for {@link #setCode}; -1 when it knows none (the default) or not this one: then the reader
     * decodes the value and sets it as a String.
     */
    default int knownCode(int column, byte[] bytes, int from, int to, int hash) {
        return -1;
    }

    /** Whether {@link #knownCode} may find codes for {@code column}; false by default. */
    default boolean knowsValues(int column) {
        return false;
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
