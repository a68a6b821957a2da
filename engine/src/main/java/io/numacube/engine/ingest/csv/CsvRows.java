package io.numacube.engine.ingest.csv;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.RowVisitor;
import io.numacube.engine.schema.TableSchema;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * Writes rows handed over value by value ({@link RowVisitor}, as {@code CubeSnapshot.export} hands them) as CSV rows of
 * {@code schema}'s columns, so that {@link CsvStagingLoader} reading the text with the same schema stages the same
 * values: NULL as an empty field, a DECIMAL with every digit of its scale, a DATE as {@code yyyy-MM-dd}, a BOOLEAN as
 * {@code true}/{@code false}, a TIMESTAMP as {@code 2013-01-01 05:00:00[.ffffff]} ({@link CsvWriter} does the
 * quoting). Writes no header: call {@link CsvWriter#writeHeader} first.
 *
 * <p>Not thread-safe, like the writer it fills; the caller flushes and closes the writer.
 */
public final class CsvRows implements RowVisitor {

    private final CsvWriter out;
    private final ColumnSpec[] columns;

    public CsvRows(CsvWriter out, TableSchema schema) {
        this.out = java.util.Objects.requireNonNull(out, "out must not be null");
        this.columns = schema.columns().toArray(ColumnSpec[]::new);
    }

    @Override
    public void nullValue(int column) throws IOException {
        out.writeNull();
    }

    @Override
    public void stringValue(int column, String value) throws IOException {
        out.writeString(value);
    }

    @Override
    public void longValue(int column, long value) throws IOException {
        ColumnSpec c = columns[column];
        if (c.isDecimal()) {
            out.writeDecimal(BigDecimal.valueOf(value, c.scale()));
            return;
        }
        switch (c.type()) {
            case DATE -> out.writeDate(value);
            case BOOLEAN -> out.writeBoolean(value != 0);
            case TIMESTAMP -> out.writeTimestamp(value);
            default -> out.writeLong(value);
        }
    }

    @Override
    public void doubleValue(int column, double value) throws IOException {
        out.writeDouble(value);
    }

    @Override
    public void endRow() throws IOException {
        out.endRow();
    }
}
