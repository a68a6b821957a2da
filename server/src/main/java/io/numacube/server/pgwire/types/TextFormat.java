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
            case java.time.OffsetDateTime t -> timestamptz(t);
            case java.util.List<?> elements -> array(elements);
            default -> String.valueOf(value);
        };
    }

    /**
     * A {@code timestamptz} as PostgreSQL writes it in the session's zone (the value's offset): the wall clock, then
     * the offset in hours, with minutes and seconds only where they are not zero ({@code +00}, {@code +05:30}).
     */
    static String timestamptz(java.time.OffsetDateTime t) {
        int total = t.getOffset().getTotalSeconds();
        int abs = Math.abs(total);
        StringBuilder sb = new StringBuilder(Timestamps.format(Timestamps.ofLocalDateTime(t.toLocalDateTime())))
                .append(total < 0 ? '-' : '+')
                .append(String.format(java.util.Locale.ROOT, "%02d", abs / 3600));
        if (abs % 3600 != 0) {
            sb.append(String.format(java.util.Locale.ROOT, ":%02d", abs / 60 % 60));
        }
        if (abs % 60 != 0) {
            sb.append(String.format(java.util.Locale.ROOT, ":%02d", abs % 60));
        }
        return sb.toString();
    }

    /**
     * An array's text as PostgreSQL writes it: {@code {a,"b c",NULL}}, an element quoted (with {@code "} and
     * {@code \} escaped) when it is empty, is {@code NULL} in any case, or holds a delimiter, brace, quote, backslash
     * or white space.
     */
    static String array(java.util.List<?> elements) {
        StringBuilder sb = new StringBuilder("{");
        for (Object e : elements) {
            if (sb.length() > 1) {
                sb.append(',');
            }
            if (e == null) {
                sb.append("NULL");
                continue;
            }
            String t = text(e);
            boolean quote = t.isEmpty() || t.equalsIgnoreCase("NULL") || t.matches("(?s).*[{},\"\\\\\\s].*");
            sb.append(quote ? '"' + t.replace("\\", "\\\\").replace("\"", "\\\"") + '"' : t);
        }
        return sb.append('}').toString();
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
        return fromScientific(shortest);
    }

    /**
     * Java's {@code [-]M.FFFE[-]X} (M one digit, its shortest digits) as PostgreSQL writes it, by moving its digits,
     * without parsing them into a number.
     */
    private static String fromScientific(String java) {
        boolean negative = java.charAt(0) == '-';
        int e = java.indexOf('E');
        int exponent = Integer.parseInt(java, e + 1, java.length(), 10);
        StringBuilder digits = new StringBuilder(24);
        for (int i = negative ? 1 : 0; i < e; i++) {
            char c = java.charAt(i);
            if (c != '.') {
                digits.append(c);
            }
        }
        int last = digits.length();
        while (last > 1 && digits.charAt(last - 1) == '0') {
            last--;
        }
        digits.setLength(last);
        if (last == 2) {
            // Java picks the closest of at least two digits (4.9E-324); PostgreSQL one where one reads back (5e-324)
            int rounded = ((digits.charAt(0) - '0') * 10 + digits.charAt(1) - '0' + 5) / 10;
            int oneExponent = rounded == 10 ? exponent + 1 : exponent;
            int oneDigit = rounded == 10 ? 1 : rounded;
            if (Double.parseDouble(oneDigit + "E" + oneExponent) == Math.abs(Double.parseDouble(java))) {
                digits.setLength(0);
                digits.append(oneDigit);
                exponent = oneExponent;
            }
        }
        StringBuilder out = new StringBuilder(32);
        if (negative) {
            out.append('-');
        }
        if (exponent >= -4 && exponent < 15) {
            plain(out, digits, exponent);
        } else {
            out.append(digits.charAt(0));
            if (digits.length() > 1) {
                out.append('.').append(digits, 1, digits.length());
            }
            int magnitude = Math.abs(exponent);
            out.append(exponent < 0 ? "e-" : "e+")
                    .append(magnitude < 10 ? "0" : "")
                    .append(magnitude);
        }
        return out.toString();
    }

    /** The digits {@code d.ddd} times ten to {@code exponent} written plainly, without trailing zeros. */
    private static void plain(StringBuilder out, CharSequence digits, int exponent) {
        if (exponent < 0) {
            out.append("0.").repeat('0', -exponent - 1).append(digits);
            return;
        }
        int whole = exponent + 1;
        if (digits.length() <= whole) {
            out.append(digits).repeat('0', whole - digits.length());
        } else {
            out.append(digits, 0, whole).append('.').append(digits, whole, digits.length());
        }
    }
}
