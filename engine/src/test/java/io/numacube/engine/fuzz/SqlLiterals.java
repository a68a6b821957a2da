package io.numacube.engine.fuzz;

import io.numacube.engine.schema.ColumnType;
import java.time.LocalDate;

/**
 * Writes values as SQL literals both engines read alike: strings quoted with {@code ''} escapes, dates as
 * {@code DATE 'yyyy-mm-dd'}, integers plain, and doubles always with an exponent ({@code 2.5e0}) so DuckDB reads a
 * DOUBLE, never a DECIMAL (whose arithmetic with BIGINT would be exact decimal, unlike numacube's). Stateless.
 */
final class SqlLiterals {

    private SqlLiterals() {}

    /** {@code value} (String, Long — epoch day for DATE, 1 or 0 for BOOLEAN — or Double) as a literal of a column of type {@code type}. */
    static String of(ColumnType type, Object value) {
        return switch (type) {
            case STRING -> "'" + ((String) value).replace("'", "''") + "'";
            case DATE -> "DATE '" + LocalDate.ofEpochDay((Long) value) + "'";
            case DOUBLE -> ofDouble(((Number) value).doubleValue());
            case INT, LONG -> String.valueOf(value);
            case BOOLEAN -> (Long) value != 0 ? "true" : "false";
            case TIMESTAMP -> "TIMESTAMP '" + io.numacube.engine.schema.Timestamps.format((Long) value) + "'";
            case DECIMAL -> throw new IllegalArgumentException("DECIMAL is a result type");
        };
    }

    /** A finite double as a literal with an exponent. */
    static String ofDouble(double v) {
        String s = Double.toString(v);
        return s.contains("E") ? s : s + "e0";
    }

    /** A value of the column's type that no row holds, or NULL never equals (for empty answers). */
    static Object missing(ColumnType type) {
        return switch (type) {
            case STRING -> "no-such-value";
            case INT, LONG -> 987_654_321_987L;
            case DATE -> LocalDate.of(2200, 1, 1).toEpochDay();
            case DOUBLE -> 1.25e300;
            case TIMESTAMP ->
                LocalDate.of(2200, 1, 1).toEpochDay() * io.numacube.engine.schema.Timestamps.MICROS_PER_DAY;
            case BOOLEAN ->
                throw new IllegalArgumentException("a BOOLEAN column may hold both values: no value is missing");
            case DECIMAL -> throw new IllegalArgumentException("DECIMAL is a result type");
        };
    }
}
