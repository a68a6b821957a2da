package io.numacube.engine.schema;

import java.io.IOException;

/**
 * Receives the rows of a table one value at a time: for each row, one call per column in the schema's order, then
 * {@link #endRow}. How a value arrives depends on its column ({@link ColumnSpec}): SQL NULL as {@link #nullValue}
 * whatever the type; STRING as {@link #stringValue}; DOUBLE as {@link #doubleValue}; every other type as {@link
 * #longValue}: INT and LONG their value (a DECIMAL(p,s) its value times 10^s), DATE days since 1970-01-01, BOOLEAN 0
 * or 1, TIMESTAMP microseconds since 1970-01-01 00:00:00. What a visitor gets is what the table holds: feeding it
 * back into a staging of the same schema rebuilds the same values.
 *
 * <p>Implementations are called from one thread at a time (the exporting one) and need not be thread-safe. An
 * {@link IOException} a method throws ends the export and reaches its caller.
 */
public interface RowVisitor {

    /** Column {@code column} of the current row is NULL. */
    void nullValue(int column) throws IOException;

    /** The value of a STRING column. */
    void stringValue(int column, String value) throws IOException;

    /** The value of an INT, LONG, DECIMAL, DATE, BOOLEAN or TIMESTAMP column, as the type's long (see above). */
    void longValue(int column, long value) throws IOException;

    /** The value of a DOUBLE column. */
    void doubleValue(int column, double value) throws IOException;

    /** The current row is complete. */
    void endRow() throws IOException;
}
