package io.numacube.engine.storage;

import io.numacube.engine.schema.ColumnType;
import java.time.LocalDate;
import java.util.Arrays;

/**
 * The values of one dimension, indexed by code: code {@code c} stands for {@code value(c)}. Codes are dense
 * ({@code 0..size-1}); in the dictionaries of loaded tables they follow ascending value order, so ordering by codes
 * orders by values. Predicates are compiled by evaluating them once per code, not by comparing codes. STRING values are held as {@code String}; INT and DATE values
 * as {@code long} (DATE: days since 1970-01-01). Immutable after construction; safe to share between threads.
 */
public final class Dictionary {

    private final ColumnType type;
    private final String[] strings;
    private final long[] longs;

    private Dictionary(ColumnType type, String[] strings, long[] longs) {
        this.type = type;
        this.strings = strings;
        this.longs = longs;
    }

    public static Dictionary ofStrings(String... values) {
        return new Dictionary(ColumnType.STRING, values.clone(), null);
    }

    public static Dictionary ofLongs(ColumnType type, long... values) {
        if (type == ColumnType.STRING || !type.isDimension()) {
            throw new IllegalArgumentException("ofLongs is for INT and DATE dimensions: type=" + type);
        }
        return new Dictionary(type, null, values.clone());
    }

    public ColumnType type() {
        return type;
    }

    public int size() {
        return strings != null ? strings.length : longs.length;
    }

    /** The string of a STRING code. */
    public String string(int code) {
        return strings[code];
    }

    /** The long of an INT or DATE code (DATE: epoch day). */
    public long longValue(int code) {
        return longs[code];
    }

    /** The value as a Java object: String, Long (INT) or LocalDate (DATE). */
    public Object value(int code) {
        return switch (type) {
            case STRING -> strings[code];
            case INT -> longs[code];
            case DATE -> LocalDate.ofEpochDay(longs[code]);
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
        return type == other.type && Arrays.equals(strings, other.strings) && Arrays.equals(longs, other.longs);
    }
}
