package io.numacube.engine.ingest.csv;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.numa.base.NumacubeException;
import java.nio.charset.StandardCharsets;

/**
 * One value given as text (a JSON field, an INSERT literal) set in a staged row, parsed exactly as the CSV reader
 * parses a field of its column's type ({@link FieldDecoder}: the same number, decimal, date and timestamp syntax, the
 * same range checks), so that a value reads the same however its row arrives; a BOOLEAN as PostgreSQL reads its text
 * ({@link io.numacube.engine.schema.BooleanText}), as the server's COPY reads it too: these values are written through
 * the server. Not thread-safe: one per
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
        try {
            String problem = parse(spec, text);
            if (problem == null) {
                switch (spec.type()) {
                    case STRING -> staging.setString(column, text);
                    case LONG, INT, TIMESTAMP -> staging.setLong(column, dec.longValue);
                    case DOUBLE -> staging.setDouble(column, dec.doubleValue);
                    case DATE -> staging.setDate(column, (int) dec.longValue);
                    case BOOLEAN -> staging.setBoolean(column, dec.longValue != 0);
                    default -> throw new IllegalStateException("no value of type " + spec.type());
                }
            }
            return problem;
        } catch (NumacubeException refused) {
            return refused.getMessage();
        }
    }

    /**
     * Why {@code text} is no value of {@code column}'s type, as {@link #set} says it; null where it is one (an UPDATE's
     * quoted literal is checked so, to be refused as an INSERT of it is).
     */
    public static String problem(ColumnSpec column, String text) {
        try {
            return new TextField().parse(column, text);
        } catch (NumacubeException refused) {
            return refused.getMessage();
        }
    }

    private String parse(ColumnSpec spec, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return switch (spec.type()) {
            case STRING -> null;
            case LONG, INT ->
                spec.isDecimal()
                        ? dec.parseDecimal(b, 0, b.length, spec.precision(), spec.scale())
                        : dec.parseLong(b, 0, b.length);
            case DOUBLE -> dec.parseDouble(b, 0, b.length);
            case DATE -> dec.parseDate(b, 0, b.length);
            case TIMESTAMP -> dec.parseTimestamp(b, 0, b.length);
            case BOOLEAN -> dec.parsePostgresBoolean(b, 0, b.length);
            default -> "no value of type " + spec.type() + " can be stored";
        };
    }

    /** The SQLSTATE of a value {@link #set} refused for {@code problem}, PostgreSQL's (22P02, 22003, 22007, 22008). */
    public static String sqlState(String problem) {
        return FieldDecoder.sqlState(problem);
    }
}
