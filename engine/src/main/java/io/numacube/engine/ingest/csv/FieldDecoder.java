package io.numacube.engine.ingest.csv;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.Timestamps;
import java.nio.charset.StandardCharsets;

/**
 * Parses numbers and dates straight from UTF-8 bytes, without allocating on the common path. Each {@code parse*}
 * method returns null on success (the result is in {@link #longValue} or {@link #doubleValue}) or the reason the text
 * is not a value of that type ({@link #EMPTY} for a field of blanks only). Leading and trailing ASCII spaces and tabs
 * are ignored; nothing else is. Empty fields and other NULLs are the caller's ({@link NullMarkers}).
 *
 * <p>Grammars: LONG {@code [+-]?[0-9]+} within 64 bits; DOUBLE {@code [+-]?([0-9]+(.[0-9]*)?|.[0-9]+)([eE][+-]?[0-9]+)?}
 * and finite (no hex, no {@code d}/{@code f} suffix), correctly rounded; NaN and infinities ({@code nan},
 * {@code inf}, {@code infinity} in any case, optionally negative, and numbers beyond the double range) are reported
 * as {@link #NOT_FINITE}, not {@link #NOT_NUMBER}, because DuckDB infers such a column as DOUBLE; DATE
 * {@code yyyy-MM-dd}, a real calendar day, as days since 1970-01-01; BOOLEAN as DuckDB casts text to BOOLEAN
 * ({@code true false t f yes no y n 1 0}, any case, and no blanks around them: DuckDB refuses {@code " true"}), as 1
 * or 0.
 *
 * <p>Not thread-safe (results are held in fields): one per reading thread.
 */
final class FieldDecoder {

    private static final double[] POW10 = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22
    };
    private static final long MAX_EXACT = 1L << 53;

    /** Blanks only: not a value, and not NULL either (an empty field is, before any parsing). */
    static final String EMPTY = "blank value (spaces or tabs only; an empty field is NULL)";

    static final String NOT_INTEGER = "not an integer";
    static final String INTEGER_RANGE = "integer out of the 64-bit range";
    static final String NOT_NUMBER = "not a number";
    /** NaN, an infinity, or a number beyond the double range: DuckDB reads these as a DOUBLE nan or inf. */
    static final String NOT_FINITE = "not a finite number (DOUBLE columns hold finite values only; NaN and "
            + "infinities are not supported, and no option changes that)";

    static final String NOT_DECIMAL = "not a decimal number";

    private static final int MAX_DECIMAL_DIGITS = 18;

    static final String NOT_BOOLEAN = "not a boolean (true/false, t/f, yes/no, y/n or 1/0, any case)";

    static final String NOT_POSTGRES_BOOLEAN =
            "not a boolean (a prefix of true, false, yes or no; on, off, 1 or 0; any case, blanks around allowed)";

    static final String NOT_DATE = "not a date (expected yyyy-MM-dd)";
    static final String BAD_DAY = "not a calendar day";
    static final String NOT_TIMESTAMP = "not a timestamp (expected yyyy-MM-dd HH:mm:ss[.ffffff])";

    long longValue;
    double doubleValue;

    private static boolean blank(byte c) {
        return c == ' ' || c == '\t';
    }

    /**
     * Whether the field, blanks trimmed, starts as a number whose integer part has a leading zero: an optional sign,
     * {@code 0}, then a digit ({@code 007}, {@code -01.5}; not {@code 0}, {@code 0.5} or {@code 0e3}). Such a value is
     * a code to DuckDB's sniffer (strict number parsing), so inference keeps its column as text; the caller checks that the
     * field is a number at all (a date such as {@code 0999-12-31} starts the same way).
     */
    static boolean hasLeadingZero(byte[] b, int from, int to) {
        while (from < to && blank(b[from])) {
            from++;
        }
        if (from < to && (b[from] == '-' || b[from] == '+')) {
            from++;
        }
        return to - from >= 2 && b[from] == '0' && b[from + 1] >= '0' && b[from + 1] <= '9';
    }

    String parseLong(byte[] b, int from, int to) {
        while (from < to && blank(b[from])) {
            from++;
        }
        while (to > from && blank(b[to - 1])) {
            to--;
        }
        if (from == to) {
            return EMPTY;
        }
        int p = from;
        boolean negative = false;
        if (b[p] == '-' || b[p] == '+') {
            negative = b[p] == '-';
            p++;
        }
        if (p == to) {
            return NOT_INTEGER;
        }
        // accumulate negatively so that Long.MIN_VALUE fits
        long acc = 0;
        for (; p < to; p++) {
            int d = b[p] - '0';
            if (d < 0 || d > 9) {
                return NOT_INTEGER;
            }
            if (acc < Long.MIN_VALUE / 10) {
                return scanRestDigits(b, p, to) ? INTEGER_RANGE : NOT_INTEGER;
            }
            acc *= 10;
            if (acc < Long.MIN_VALUE + d) {
                return scanRestDigits(b, p + 1, to) ? INTEGER_RANGE : NOT_INTEGER;
            }
            acc -= d;
        }
        if (!negative) {
            if (acc == Long.MIN_VALUE) {
                return INTEGER_RANGE;
            }
            acc = -acc;
        }
        longValue = acc;
        return null;
    }

    /**
     * Parses a DECIMAL(precision, scale) into {@link #longValue} as its value times 10^scale: {@code [+-]?} digits with
     * an optional point and fraction (and an optional exponent), more fraction digits than the scale rounded half away
     * from zero, as DuckDB casts text to DECIMAL; a value with more than {@code precision - scale} integer digits once
     * rounded is {@link ColumnSpec#decimalOverflow} (PostgreSQL's 22003, which {@link #sqlState} gives it).
     */
    String parseDecimal(byte[] b, int from, int to, int precision, int scale) {
        while (from < to && blank(b[from])) {
            from++;
        }
        while (to > from && blank(b[to - 1])) {
            to--;
        }
        if (from == to) {
            return EMPTY;
        }
        int p = from;
        boolean negative = b[p] == '-';
        if (b[p] == '-' || b[p] == '+') {
            p++;
        }
        long unscaled = 0;
        int digits = 0;
        int fraction = -1;
        boolean sawDigit = false;
        for (; p < to; p++) {
            int d = b[p] - '0';
            if (d >= 0 && d <= 9) {
                sawDigit = true;
                if (digits > 0 || d != 0) {
                    digits++;
                }
                unscaled = digits <= MAX_DECIMAL_DIGITS ? unscaled * 10 + d : unscaled;
                fraction = fraction >= 0 ? fraction + 1 : -1;
            } else if (b[p] == '.' && fraction < 0) {
                fraction = 0;
            } else {
                break;
            }
        }
        int fractionDigits = Math.max(fraction, 0);
        if (p < to || digits > MAX_DECIMAL_DIGITS || fractionDigits > scale) {
            return slowDecimal(b, from, to, precision, scale);
        }
        if (!sawDigit) {
            return NOT_DECIMAL;
        }
        if (digits - fractionDigits > precision - scale && unscaled != 0) {
            return ColumnSpec.decimalOverflow(precision, scale);
        }
        long v = unscaled * ColumnSpec.powerOfTen(scale - fractionDigits);
        longValue = negative ? -v : v;
        return null;
    }

    /** {@link #parseDecimal} of a field with an exponent, more than 18 digits or more fraction digits than the scale. */
    private String slowDecimal(byte[] b, int from, int to, int precision, int scale) {
        java.math.BigDecimal v;
        try {
            v = new java.math.BigDecimal(new String(b, from, to - from, java.nio.charset.StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            return NOT_DECIMAL;
        }
        v = v.setScale(scale, java.math.RoundingMode.HALF_UP);
        if (v.signum() != 0 && v.precision() - v.scale() > precision - scale) {
            return ColumnSpec.decimalOverflow(precision, scale);
        }
        longValue = v.unscaledValue().longValueExact();
        return null;
    }

    /**
     * The SQLSTATE of a value refused for {@code problem}, PostgreSQL's for its input functions: 22003 for a DECIMAL's
     * overflow or an integer beyond BIGINT, 22007 for text that is no date or timestamp, 22008 for a day the calendar
     * lacks, 22021 for a NUL in text, else 22P02.
     */
    static String sqlState(String problem) {
        if (problem.startsWith(ColumnSpec.DECIMAL_OVERFLOW) || problem.equals(INTEGER_RANGE)) {
            return "22003";
        }
        if (problem.equals(NOT_DATE) || problem.equals(NOT_TIMESTAMP)) {
            return "22007";
        }
        if (problem.equals(BAD_DAY)) {
            return "22008";
        }
        return problem.equals(io.numacube.engine.ingest.NulText.PROBLEM)
                ? io.numacube.engine.ingest.NulText.SQL_STATE
                : "22P02";
    }

    private static boolean scanRestDigits(byte[] b, int from, int to) {
        for (int p = from; p < to; p++) {
            if (b[p] < '0' || b[p] > '9') {
                return false;
            }
        }
        return true;
    }

    // one method: runs per DOUBLE field; mantissa, digit counts and exponent stay in locals (registers) sign to end
    @SuppressWarnings("checkstyle:MethodLength")
    String parseDouble(byte[] b, int from, int to) {
        while (from < to && blank(b[from])) {
            from++;
        }
        while (to > from && blank(b[to - 1])) {
            to--;
        }
        if (from == to) {
            return EMPTY;
        }
        int p = from;
        boolean negative = false;
        if (b[p] == '-' || b[p] == '+') {
            negative = b[p] == '-';
            p++;
        }
        long mantissa = 0;
        int digits = 0;
        int significant = 0;
        int exp10 = 0;
        boolean inexact = false;
        for (; p < to && b[p] >= '0' && b[p] <= '9'; p++) {
            digits++;
            if (significant < 18) {
                mantissa = mantissa * 10 + (b[p] - '0');
                if (mantissa != 0) {
                    significant++;
                }
            } else {
                exp10++;
                inexact |= b[p] != '0';
            }
        }
        if (p < to && b[p] == '.') {
            p++;
            for (; p < to && b[p] >= '0' && b[p] <= '9'; p++) {
                digits++;
                if (significant < 18) {
                    mantissa = mantissa * 10 + (b[p] - '0');
                    exp10--;
                    if (mantissa != 0) {
                        significant++;
                    }
                } else {
                    inexact |= b[p] != '0';
                }
            }
        }
        if (digits == 0) {
            return nonFiniteWord(b, from, to) ? NOT_FINITE : NOT_NUMBER;
        }
        if (p < to && (b[p] == 'e' || b[p] == 'E')) {
            p++;
            boolean expNegative = false;
            if (p < to && (b[p] == '-' || b[p] == '+')) {
                expNegative = b[p] == '-';
                p++;
            }
            if (p == to) {
                return NOT_NUMBER;
            }
            int e = 0;
            for (; p < to && b[p] >= '0' && b[p] <= '9'; p++) {
                if (e < 100_000) {
                    e = e * 10 + (b[p] - '0');
                }
            }
            exp10 += expNegative ? -e : e;
        }
        if (p != to) {
            return NOT_NUMBER;
        }
        double v;
        if (!inexact && mantissa <= MAX_EXACT && exp10 >= -22 && exp10 <= 22) {
            // Clinger's fast path: both operands exact, so one IEEE operation rounds correctly
            v = exp10 >= 0 ? (double) mantissa * POW10[exp10] : (double) mantissa / POW10[-exp10];
            if (negative) {
                v = -v;
            }
        } else {
            v = Double.parseDouble(new String(b, from, to - from, StandardCharsets.ISO_8859_1));
        }
        if (Double.isInfinite(v)) {
            return NOT_FINITE;
        }
        doubleValue = v;
        return null;
    }

    /** {@code nan}, {@code inf}, {@code infinity}, any case, with an optional {@code -}: what DuckDB reads as DOUBLE. */
    private static boolean nonFiniteWord(byte[] b, int from, int to) {
        if (b[from] == '-') {
            from++;
        }
        String w = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
        return w.equalsIgnoreCase("nan") || w.equalsIgnoreCase("inf") || w.equalsIgnoreCase("infinity");
    }

    /**
     * Parses a BOOLEAN into {@link #longValue} (1 for true, 0 for false): what DuckDB's CAST to BOOLEAN accepts, the
     * words of {@link #isBooleanWord} and {@code yes no y n 1 0}, in any case.
     */
    String parseBoolean(byte[] b, int from, int to) {
        if (isBooleanWord(b, from, to)) {
            longValue = b[from] == 't' || b[from] == 'T' ? 1 : 0;
            return null;
        }
        String w = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
        if (w.equalsIgnoreCase("yes") || w.equalsIgnoreCase("y") || w.equals("1")) {
            longValue = 1;
            return null;
        }
        if (w.equalsIgnoreCase("no") || w.equalsIgnoreCase("n") || w.equals("0")) {
            longValue = 0;
            return null;
        }
        return NOT_BOOLEAN;
    }

    /**
     * Parses a BOOLEAN into {@link #longValue} (1 for true, 0 for false) as PostgreSQL reads boolean text ({@link
     * io.numacube.engine.schema.BooleanText}), which takes every word {@link #parseBoolean} takes and more.
     */
    String parsePostgresBoolean(byte[] b, int from, int to) {
        int value = io.numacube.engine.schema.BooleanText.parse(new String(b, from, to - from, StandardCharsets.UTF_8));
        if (value < 0) {
            return NOT_POSTGRES_BOOLEAN;
        }
        longValue = value;
        return null;
    }

    /**
     * Whether the field is a boolean to DuckDB's CSV sniffer: {@code true}, {@code false}, {@code t} or {@code f}, in
     * any case, without blanks ({@code yes}, {@code 1} and {@code " true"} leave a column text or numbers).
     */
    static boolean isBooleanWord(byte[] b, int from, int to) {
        int n = to - from;
        if (n == 1) {
            byte c = (byte) (b[from] | 0x20);
            return c == 't' || c == 'f';
        }
        if (n != 4 && n != 5) {
            return false;
        }
        String w = new String(b, from, n, StandardCharsets.ISO_8859_1);
        return w.equalsIgnoreCase("true") || w.equalsIgnoreCase("false");
    }

    /** Parses {@code yyyy-MM-dd} into {@link #longValue} as days since 1970-01-01. */
    String parseDate(byte[] b, int from, int to) {
        while (from < to && blank(b[from])) {
            from++;
        }
        while (to > from && blank(b[to - 1])) {
            to--;
        }
        if (from == to) {
            return EMPTY;
        }
        if (to - from != 10 || b[from + 4] != '-' || b[from + 7] != '-') {
            return NOT_DATE;
        }
        int year = Timestamps.digits(b, from, 4);
        int month = Timestamps.digits(b, from + 5, 2);
        int day = Timestamps.digits(b, from + 8, 2);
        if (year < 1 || month < 0 || day < 0) {
            return NOT_DATE;
        }
        if (month < 1 || month > 12 || day < 1 || day > Timestamps.daysInMonth(year, month)) {
            return BAD_DAY;
        }
        longValue = Timestamps.epochDay(year, month, day);
        return null;
    }

    /**
     * Parses a TIMESTAMP ({@link io.numacube.engine.schema.Timestamps#parse}: {@code yyyy-MM-dd HH:mm[:ss[.f]]}, or a
     * date alone for its midnight) into {@link #longValue} as microseconds since 1970-01-01 00:00:00.
     */
    String parseTimestamp(byte[] b, int from, int to) {
        while (from < to && blank(b[from])) {
            from++;
        }
        while (to > from && blank(b[to - 1])) {
            to--;
        }
        if (from == to) {
            return EMPTY;
        }
        long micros = Timestamps.parse(b, from, to);
        if (micros == Timestamps.INVALID) {
            return NOT_TIMESTAMP;
        }
        longValue = micros;
        return null;
    }

    /**
     * Whether the field is a timestamp with a time of day, as DuckDB's sniffer infers a TIMESTAMP column (a date
     * alone is a DATE; see {@link CsvTableReader#inferredType} for columns that mix them).
     */
    boolean isTimestampWithTime(byte[] b, int from, int to) {
        return to - from > 10 && parseTimestamp(b, from, to) == null && (b[from + 10] == ' ' || b[from + 10] == 'T');
    }
}
