package io.numacube.server.pgwire.types;

import io.numacube.engine.schema.Timestamps;
import io.numacube.server.query.DateTexts;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * PostgreSQL's text output format (format code 0), as a server with {@code DateStyle = ISO} and
 * {@code extra_float_digits} at least 1 writes it: {@code t}/{@code f}, integers in decimal, a float8 in its
 * shortest exact digits ({@code 1e+20}, {@code 1.5e-05}, {@code NaN}, {@code Infinity}), a numeric with every digit
 * of its scale, {@code 2025-01-02}, {@code 2025-01-02 05:00:00.25}. Stateless.
 */
public final class TextFormat {

    private TextFormat() {}

    /** The value's text in UTF-8. */
    public static byte[] encode(Object value) {
        return text(value).getBytes(StandardCharsets.UTF_8);
    }

    /** The value's text. */
    public static String text(Object value) {
        return switch (value) {
            case Boolean b -> b ? "t" : "f";
            case Double d -> float8(d);
            case Float f -> float8(f.doubleValue());
            case BigDecimal d -> d.toPlainString();
            case LocalDate d -> DateTexts.iso(d.toEpochDay());
            case LocalDateTime t -> Timestamps.format(Timestamps.ofLocalDateTime(t));
            default -> String.valueOf(value);
        };
    }

    /**
     * A double as PostgreSQL 12+ prints it with {@code extra_float_digits > 0}: the shortest digits that read back
     * exactly, in plain notation for decimal exponents -4 to 14 and as {@code d.ddde+XX} otherwise.
     */
    public static String float8(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        if (d == 0) {
            return 1 / d < 0 ? "-0" : "0";
        }
        String shortest = Double.toString(d);
        if (shortest.indexOf('E') < 0) {
            // Java writes 1e-3 <= |d| < 1e7 plainly, with the same shortest digits, inside PostgreSQL's plain range
            return shortest.endsWith(".0") ? shortest.substring(0, shortest.length() - 2) : shortest;
        }
        BigDecimal exact = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        int exponent = exact.precision() - exact.scale() - 1;
        String sign = d < 0 ? "-" : "";
        if (exponent >= -4 && exponent < 15) {
            return sign + exact.toPlainString();
        }
        String digits = exact.unscaledValue().toString();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return sign
                + mantissa
                + (exponent < 0 ? "e-" : "e+")
                + (Math.abs(exponent) < 10 ? "0" : "")
                + Math.abs(exponent);
    }
}
