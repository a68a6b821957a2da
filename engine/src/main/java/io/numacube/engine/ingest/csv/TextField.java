package io.numacube.engine.ingest.csv;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.numa.base.NumacubeException;
import java.nio.charset.StandardCharsets;

/**
 * One value given as text (a JSON field, an INSERT literal) set in a staged row, parsed exactly as the CSV reader
 * parses a field of its column's type ({@link FieldDecoder}: the same number, decimal, date, timestamp and boolean
 * syntax, the same range checks), so that a value reads the same however its row arrives. Not thread-safe: one per
 * batch.
 */
public final class TextField {

    private final FieldDecoder dec = new FieldDecoder();

    /**
     * Sets column {@code column} of the staging's current row to {@code text} read as the column's type.
     *
     * @return null when set, else why the text is no value of that type (nothing is set then)
     */
    public String set(TableStaging staging, int column, String text) {
        ColumnSpec spec = staging.schema().column(column);
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        String problem;
        try {
            switch (spec.type()) {
                case STRING -> {
                    staging.setString(column, text);
                    return null;
                }
                case LONG, INT -> {
                    problem = spec.isDecimal()
                            ? dec.parseDecimal(b, 0, b.length, spec.precision(), spec.scale())
                            : dec.parseLong(b, 0, b.length);
                    if (problem == null) {
                        staging.setLong(column, dec.longValue);
                    }
                }
                case DOUBLE -> {
                    problem = dec.parseDouble(b, 0, b.length);
                    if (problem == null) {
                        staging.setDouble(column, dec.doubleValue);
                    }
                }
                case DATE -> {
                    problem = dec.parseDate(b, 0, b.length);
                    if (problem == null) {
                        staging.setDate(column, (int) dec.longValue);
                    }
                }
                case TIMESTAMP -> {
                    problem = dec.parseTimestamp(b, 0, b.length);
                    if (problem == null) {
                        staging.setLong(column, dec.longValue);
                    }
                }
                case BOOLEAN -> {
                    problem = dec.parseBoolean(b, 0, b.length);
                    if (problem == null) {
                        staging.setBoolean(column, dec.longValue != 0);
                    }
                }
                default -> problem = "no value of type " + spec.type() + " can be stored";
            }
        } catch (NumacubeException refused) {
            return refused.getMessage();
        }
        return problem;
    }

    /** The SQLSTATE of a value {@link #set} refused for {@code problem}: 22003 for a DECIMAL's overflow, else 22P02. */
    public static String sqlState(String problem) {
        return FieldDecoder.sqlState(problem);
    }
}
