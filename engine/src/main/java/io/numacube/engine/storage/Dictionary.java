package io.numacube.engine.storage;

import io.numacube.engine.schema.ColumnType;
import java.time.LocalDate;
import java.util.Arrays;

/**
 * The values of one dimension, indexed by code: code {@code c} stands for {@code value(c)}. Codes are dense
 * ({@code 0..size-1}); in the dictionaries of loaded tables they follow ascending value order, so ordering by codes
 * orders by values. Predicates are compiled by evaluating them once per code, not by comparing codes. STRING values
 * are held as {@code String}; INT, DATE and BOOLEAN values as {@code long} (DATE: days since 1970-01-01; BOOLEAN: 0
 * for false, 1 for true, so false orders first, as in DuckDB); DOUBLE values (the query-time dictionary of a plain
 * DOUBLE column, {@link CodedColumns}) as their bits, in {@link Double#compare} order, with -0.0 folded into 0.0 and
 * one NaN, the greatest, as DuckDB groups them.
 *
 * <p>SQL NULL is a code of its own when the column holds it: {@link #nullCode()}, always the last code, so that
 * ordering by codes puts NULL after every value (DuckDB's {@code NULLS LAST}) and a grouping by codes makes NULL one
 * group. For that code {@link #value} and {@link #string} give null and {@link #longValue} gives 0; a column without
 * NULLs has {@code nullCode() == -1}. Immutable after construction; safe to share between threads.
 */
public final class Dictionary {

    private final ColumnType type;
    private final String[] strings;
    private final long[] longs;
    private final int nullCode;

    private Dictionary(ColumnType type, String[] strings, long[] longs, boolean withNull) {
        this.type = type;
        this.strings = strings;
        this.longs = longs;
        this.nullCode = withNull ? size() - 1 : -1;
    }

    public static Dictionary ofStrings(String... values) {
        return new Dictionary(ColumnType.STRING, values.clone(), null, false);
    }

    public static Dictionary ofLongs(ColumnType type, long... values) {
        return ofLongs(type, values, false);
    }

    /**
     * A dictionary of non-null strings in ascending order, plus, when {@code withNull}, a last code standing for NULL.
     */
    public static Dictionary ofStrings(String[] values, boolean withNull) {
        String[] all = Arrays.copyOf(values, values.length + (withNull ? 1 : 0));
        return new Dictionary(ColumnType.STRING, all, null, withNull);
    }

    /**
     * INT, DATE, BOOLEAN or TIMESTAMP values (the codes of a plain TIMESTAMP column, built at query time) in ascending
     * order, plus, when {@code withNull}, a last code standing for NULL.
     */
    public static Dictionary ofLongs(ColumnType type, long[] values, boolean withNull) {
        if (type == ColumnType.STRING || (!type.isDimension() && type != ColumnType.TIMESTAMP)) {
            throw new IllegalArgumentException("ofLongs is for INT, DATE, BOOLEAN and TIMESTAMP values: type=" + type);
        }
        return new Dictionary(type, null, Arrays.copyOf(values, values.length + (withNull ? 1 : 0)), withNull);
    }

    /**
     * The values of the codes that {@code keep} marks (a code beyond it is dropped), in the same order, NULL last
     * when its code is kept; {@code newCode[code]} receives each kept code's code in the subset, -1 for the others.
     */
    public Dictionary subset(boolean[] keep, int[] newCode) {
        int n = 0;
        for (int c = 0; c < size(); c++) {
            boolean kept = c < keep.length && keep[c];
            newCode[c] = kept && c != nullCode ? n++ : -1;
        }
        boolean withNull = nullCode >= 0 && nullCode < keep.length && keep[nullCode];
        if (withNull) {
            newCode[nullCode] = n;
        }
        int total = n + (withNull ? 1 : 0);
        String[] s = strings == null ? null : new String[total];
        long[] l = longs == null ? null : new long[total];
        for (int c = 0; c < size(); c++) {
            if (newCode[c] >= 0 && c != nullCode) {
                if (s != null) {
                    s[newCode[c]] = strings[c];
                } else {
                    l[newCode[c]] = longs[c];
                }
            }
        }
        return new Dictionary(type, s, l, withNull);
    }

    /** DOUBLE values in {@link Double#compare} order, plus, when {@code withNull}, a last code standing for NULL. */
    public static Dictionary ofDoubles(double[] values, boolean withNull) {
        long[] bits = new long[values.length + (withNull ? 1 : 0)];
        for (int i = 0; i < values.length; i++) {
            bits[i] = Double.doubleToLongBits(values[i]);
        }
        return new Dictionary(ColumnType.DOUBLE, null, bits, withNull);
    }

    /** The code standing for NULL (the last code), or -1 when the column holds no NULL. */
    public int nullCode() {
        return nullCode;
    }

    /** Whether {@code code} stands for NULL. */
    public boolean isNull(int code) {
        return code == nullCode;
    }

    public ColumnType type() {
        return type;
    }

    public int size() {
        return strings != null ? strings.length : longs.length;
    }

    /** The string of a STRING code; null for the NULL code. */
    public String string(int code) {
        return strings[code];
    }

    /**
     * The long of an INT, DATE, BOOLEAN or TIMESTAMP code (DATE: epoch day; BOOLEAN: 0 or 1; TIMESTAMP: microseconds
     * since 1970-01-01 00:00:00); 0 for the NULL code.
     */
    public long longValue(int code) {
        return longs[code];
    }

    /** The double of a DOUBLE code; 0 for the NULL code. */
    public double doubleValue(int code) {
        return code == nullCode ? 0 : Double.longBitsToDouble(longs[code]);
    }

    /**
     * The value as a Java object: String, Long (INT), LocalDate (DATE), Boolean (BOOLEAN), Double (DOUBLE) or
     * LocalDateTime (TIMESTAMP).
     */
    public Object value(int code) {
        if (code == nullCode) {
            return null;
        }
        return switch (type) {
            case STRING -> strings[code];
            case INT -> longs[code];
            case DATE -> LocalDate.ofEpochDay(longs[code]);
            case DOUBLE -> Double.longBitsToDouble(longs[code]);
            case BOOLEAN -> longs[code] != 0;
            case TIMESTAMP -> io.numacube.engine.schema.Timestamps.toLocalDateTime(longs[code]);
            default -> throw new IllegalStateException("not a dimension type: " + type);
        };
    }

    /** The narrowest code width that holds every code of this dictionary. */
    public CodeWidth width() {
        return CodeWidth.forCardinality(size());
    }

    @Override
    public String toString() {
        return "Dictionary[" + type + ", size=" + size() + ", first=" + (size() == 0 ? "-" : value(0)) + "]";
    }

    /** A value-for-value copy check, used by tests. */
    public boolean sameValues(Dictionary other) {
        return type == other.type
                && nullCode == other.nullCode
                && Arrays.equals(strings, other.strings)
                && Arrays.equals(longs, other.longs);
    }
}
