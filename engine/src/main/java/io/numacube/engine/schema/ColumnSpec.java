package io.numacube.engine.schema;

import io.numacube.numa.base.NumacubeException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One column of a table: its name and type. A DIMENSION is any column of a dictionary-encoded type; a MEASURE any
 * column of a numeric measure type.
 *
 * <p>A DECIMAL(p,s) column ({@link #isDecimal()}) is stored as its value times 10^s, exactly, in a {@code long}: its
 * {@code type} is LONG (or INT once a load codes its few distinct values through a dictionary), and
 * {@code precision} (1 to {@value #MAX_DECIMAL_PRECISION}) and {@code scale} (0 to precision) say how to read the long.
 * Every other column has precision and scale 0. Immutable.
 *
 * @param name      the column name, compared case-insensitively
 * @param type      the storage type (LONG or INT for a DECIMAL)
 * @param precision the DECIMAL's total digits, or 0 for a column of another type
 * @param scale     the DECIMAL's digits after the point, or 0
 * @param declared  whether a DECIMAL's precision was declared (a table's column, a CAST's); false for a temporary
 *                  table's column holding computed DECIMALs or a set operation's of different precisions, stored as
 *                  DECIMAL({@value #MAX_DECIMAL_PRECISION},s) and reported without a precision (PostgreSQL's plain
 *                  numeric)
 */
public record ColumnSpec(String name, ColumnType type, int precision, int scale, boolean declared) {

    /** The most digits a DECIMAL stored in a {@code long} holds. */
    public static final int MAX_DECIMAL_PRECISION = 18;

    private static final long[] POWERS_OF_TEN = new long[MAX_DECIMAL_PRECISION + 1];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    /** 10^{@code digits}, exactly, for {@code digits} from 0 to {@link #MAX_DECIMAL_PRECISION}: a scale's factor. */
    public static long powerOfTen(int digits) {
        return POWERS_OF_TEN[digits];
    }

    private static final Pattern DECIMAL =
            Pattern.compile("(?i)\\s*(?:decimal|numeric)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?\\s*");

    public ColumnSpec {
        if (name == null || name.isBlank()) {
            throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT, "column name must not be blank");
        }
        if (precision != 0
                && (type != ColumnType.LONG && type != ColumnType.INT
                        || precision > MAX_DECIMAL_PRECISION
                        || scale < 0
                        || scale > precision)) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a DECIMAL(p,s) needs 1 <= p <= " + MAX_DECIMAL_PRECISION + " and 0 <= s <= p: column=" + name
                            + " precision=" + precision + " scale=" + scale);
        }
        if (precision == 0 && scale != 0) {
            throw new IllegalArgumentException("a scale without a precision: column=" + name);
        }
    }

    /** A column of a type other than DECIMAL. */
    public ColumnSpec(String name, ColumnType type) {
        this(name, type, 0, 0);
    }

    /** A column of a type other than DECIMAL ({@code precision} 0), or a DECIMAL(precision, scale) declared so. */
    public ColumnSpec(String name, ColumnType type, int precision, int scale) {
        this(name, type, precision, scale, true);
    }

    public boolean isDimension() {
        return type.isDimension();
    }

    /** True for a DECIMAL(p,s) column, stored as scaled longs. */
    public boolean isDecimal() {
        return precision != 0;
    }

    /** This column stored as {@code storage}, keeping its name and its DECIMAL precision and scale. */
    public ColumnSpec withType(ColumnType storage) {
        return new ColumnSpec(name, storage, precision, scale, declared);
    }

    /** This column's type as SQL names it: {@code DECIMAL(15,2)}, or the storage type's name. */
    public String typeName() {
        return isDecimal()
                ? "DECIMAL(" + precision + "," + scale + ")"
                : type.name().toLowerCase(Locale.ROOT);
    }

    /** The start of {@link #decimalOverflow}'s message, PostgreSQL's for SQLSTATE 22003. */
    public static final String DECIMAL_OVERFLOW = "numeric field overflow";

    /**
     * Why a value does not fit a DECIMAL(precision, scale) once rounded to its scale, as PostgreSQL says it (22003,
     * with its detail): {@code numeric field overflow: a field with precision 4, scale 1 must round to an absolute
     * value less than 10^3}.
     */
    public static String decimalOverflow(int precision, int scale) {
        int digits = precision - scale;
        return DECIMAL_OVERFLOW + ": a field with precision " + precision + ", scale " + scale
                + " must round to an absolute value less than " + (digits > 0 ? "10^" + digits : "1");
    }

    public static ColumnSpec of(String name, ColumnType type) {
        return new ColumnSpec(name, type);
    }

    /**
     * A DECIMAL of {@code scale} without a declared precision, stored as DECIMAL({@value #MAX_DECIMAL_PRECISION},
     * scale).
     */
    public static ColumnSpec undeclaredDecimal(String name, int scale) {
        return new ColumnSpec(name, ColumnType.LONG, MAX_DECIMAL_PRECISION, scale, false);
    }

    /** A DECIMAL(precision, scale) column. */
    public static ColumnSpec decimal(String name, int precision, int scale) {
        return new ColumnSpec(name, ColumnType.LONG, precision, scale);
    }

    /**
     * A column named {@code name} of the type {@code text} names: {@code DECIMAL(p,s)}, {@code DECIMAL(p)} (scale 0),
     * {@code DECIMAL} (DuckDB's default 18,3) or {@code NUMERIC} alike, else as {@link ColumnType#parse}.
     */
    public static ColumnSpec parse(String name, String text) {
        Matcher m = DECIMAL.matcher(text);
        if (!m.matches()) {
            return new ColumnSpec(name, ColumnType.parse(text));
        }
        if (m.group(1) == null) {
            return decimal(name, 18, 3);
        }
        int p = digits(name, text, m.group(1));
        int s = m.group(2) == null ? 0 : digits(name, text, m.group(2));
        if (p < 1 || p > MAX_DECIMAL_PRECISION || s > p) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "DECIMAL(p,s) needs 1 <= p <= " + MAX_DECIMAL_PRECISION + " and s <= p (numacube stores a DECIMAL"
                            + " in 64 bits): column=" + name + " type=" + text.strip()
                            + " — use DECIMAL(18,s) or DOUBLE");
        }
        return decimal(name, p, s);
    }

    private static int digits(String name, String text, String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "DECIMAL precision out of range: column=" + name + " type=" + text.strip());
        }
    }
}
