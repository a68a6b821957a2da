package io.numacube.server.query;

import io.numacube.engine.schema.Timestamps;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * The SQL literal that stands for a value in a statement's text, for both front ends' parameters: text becomes a
 * {@code '...'} string with its quotes doubled (the engine's strings have no other escape), so a value can never
 * become SQL; numbers are written from their parsed value, never copied from the client's text, and a negative one is
 * parenthesised so that {@code a-$1} cannot become a comment. Stateless.
 */
public final class SqlLiteral {

    private SqlLiteral() {}

    /**
     * The literal for {@code value}: {@code NULL} for null; a Long, Double or BigDecimal as a number (a double as an
     * approximate literal, {@code 1.5E0}, which the engine reads as a DOUBLE); a Boolean as {@code TRUE} or
     * {@code FALSE}; a LocalDate as {@code DATE '...'}, a LocalDateTime as {@code TIMESTAMP '...'}; anything else as
     * the text of {@code toString()}.
     *
     * @throws io.numacube.numa.base.NumacubeException 22021 for text holding a NUL character
     */
    public static String of(Object value) {
        return switch (value) {
            case null -> "NULL";
            case Long l -> l < 0 ? "(" + l + ")" : l.toString();
            case Double d -> double8(d);
            case BigDecimal d -> d.signum() < 0 ? "(" + d.toPlainString() + ")" : d.toPlainString();
            case Boolean b -> b ? "TRUE" : "FALSE";
            case LocalDate d -> "DATE '" + d + "'";
            case LocalDateTime t -> "TIMESTAMP '" + Timestamps.format(Timestamps.ofLocalDateTime(t)) + "'";
            default -> string(value.toString());
        };
    }

    /** {@code 'text'} with each quote doubled. */
    public static String string(String text) {
        if (text.indexOf('\0') >= 0) {
            throw ClientError.of("22021", "invalid byte sequence for encoding \"UTF8\": 0x00")
                    .toException();
        }
        return "'" + text.replace("'", "''") + "'";
    }

    private static String double8(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return "CAST('" + (Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity") + "' AS DOUBLE)";
        }
        String s = Double.toString(Math.abs(d));
        s = s.contains("E") ? s : s + "E0";
        return d < 0 || (d == 0 && 1 / d < 0) ? "(-" + s + ")" : s;
    }
}
