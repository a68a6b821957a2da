package io.numacube.engine.plan;

import io.numacube.engine.schema.BooleanText;
import io.numacube.numa.base.NumacubeException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * The value conversions of CAST, as DuckDB does them: a DOUBLE to BIGINT rounds half to even (C's nearbyint, as
 * DuckDB and PostgreSQL: 2.5 is 2, 3.5 is 4) and fails beyond BIGINT; text to a number or date must be a whole
 * number, a number, or a yyyy-mm-dd date (surrounding spaces allowed), else 22018 naming the value. Digits are
 * ASCII only and a number is written as SQL writes one ({@code 12}, {@code -1.5e3}, {@code .5}, and for a DOUBLE
 * {@code inf}, {@code infinity} and {@code nan} in any case, as DuckDB): Java's parsers also read other scripts'
 * digits ({@code '１２'}) and Java's own suffixes and hex floats ({@code '1d'}, {@code '0x1p3'}), which DuckDB refuses.
 * Stateless.
 */
final class Casts {

    private static final java.util.regex.Pattern INTEGER_TEXT = java.util.regex.Pattern.compile("[+-]?[0-9]+");
    private static final java.util.regex.Pattern NUMBER_TEXT =
            java.util.regex.Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    private static final java.util.regex.Pattern NOT_FINITE_TEXT =
            java.util.regex.Pattern.compile("([+-]?)(inf|infinity|nan)", java.util.regex.Pattern.CASE_INSENSITIVE);

    private Casts() {}

    /** Whether {@code text} (stripped) is a number in SQL's notation with ASCII digits: {@code 12}, {@code -1.5e3}. */
    static boolean isNumberText(String text) {
        return NUMBER_TEXT.matcher(text).matches();
    }

    static Object toBigint(Object v) {
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof Double d) {
            double r = Math.rint(d);
            if (!(r >= -0x1p63 && r < 0x1p63)) {
                throw fail(v, "BIGINT", "22003");
            }
            return (long) r;
        }
        String text = ((String) v).strip();
        if (!INTEGER_TEXT.matcher(text).matches()) {
            throw fail(v, "BIGINT", "22018");
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw fail(v, "BIGINT", "22018");
        }
    }

    /**
     * {@code v} where it fits a signed integer of {@code bits} bits (INTEGER 32, SMALLINT 16, TINYINT 8), else
     * DuckDB's conversion error (22003): a CAST to a narrower integer type never answers a value outside it.
     */
    static long inIntegerRange(long v, int bits) {
        long max = (1L << (bits - 1)) - 1;
        if (v < -max - 1 || v > max) {
            String type = "INT" + bits;
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "22003",
                    "Type INT64 with value " + v
                            + " can't be cast because the value is out of range for the destination" + " type " + type,
                    null,
                    null);
        }
        return v;
    }

    static Object toDouble(Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        String text = ((String) v).strip();
        java.util.regex.Matcher notFinite = NOT_FINITE_TEXT.matcher(text);
        if (notFinite.matches()) {
            return notFinite.group(2).equalsIgnoreCase("nan")
                    ? Double.NaN
                    : notFinite.group(1).equals("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (!isNumberText(text)) {
            throw fail(v, "DOUBLE", "22018");
        }
        return Double.parseDouble(text);
    }

    /**
     * CAST to BOOLEAN, as 1 or 0: a number is true unless zero (DuckDB's); text as PostgreSQL reads it ({@link
     * BooleanText}: prefixes of {@code true false yes no}, {@code on off}, {@code 1 0}, any case, blanks around), which
     * takes every text DuckDB takes.
     */
    static Object toBoolean(Object v) {
        if (v instanceof Long l) {
            return l != 0 ? 1L : 0L;
        }
        if (v instanceof Double d) {
            return d != 0 ? 1L : 0L;
        }
        return switch (BooleanText.parse((String) v)) {
            case 1 -> 1L;
            case 0 -> 0L;
            default -> throw fail(v, "BOOLEAN", "22018");
        };
    }

    static Object toDate(Object v) {
        if (v instanceof Long l) {
            return l;
        }
        long day;
        try {
            day = LocalDate.parse(DateTexts.canonicalDate(((String) v).strip())).toEpochDay();
        } catch (DateTimeParseException e) {
            throw fail(v, "DATE", "22018");
        }
        if (!io.numacube.engine.schema.Timestamps.dayInRange(day)) {
            throw fail(v, "DATE (years 0001 to 9999)", "22008");
        }
        return day;
    }

    /** {@code make_date(y, m, d)}; a day that does not exist is an error naming it. */
    static Object makeDate(long year, long month, long day) {
        try {
            long d = LocalDate.of(Math.toIntExact(year), Math.toIntExact(month), Math.toIntExact(day))
                    .toEpochDay();
            if (!io.numacube.engine.schema.Timestamps.dayInRange(d)) {
                throw new java.time.DateTimeException("beyond years 0001 to 9999");
            }
            return d;
        } catch (java.time.DateTimeException | ArithmeticException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "22008",
                    "make_date(" + year + ", " + month + ", " + day + ") is not a date",
                    null,
                    null);
        }
    }

    private static NumacubeException fail(Object v, String type, String code) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT, code, "could not convert '" + v + "' to " + type, null, null);
    }
}
