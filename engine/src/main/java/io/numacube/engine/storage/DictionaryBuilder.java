package io.numacube.engine.storage;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TextOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Assigns dense codes to the values of one dimension in first-seen order; SQL NULL gets a code of its own when it
 * occurs ({@link #nullCode()}), which the sorted dictionary puts last. Not thread-safe: one loader thread owns it.
 */
public final class DictionaryBuilder {

    private final ColumnType type;
    private final Map<String, Integer> stringCodes;
    private final LongIntMap longCodes;
    private String[] strings = new String[16];
    private long[] longs = new long[16];
    private int size;
    private int nullCode = -1;

    public DictionaryBuilder(ColumnType type) {
        this.type = type;
        this.stringCodes = type == ColumnType.STRING ? new HashMap<>() : null;
        this.longCodes = type == ColumnType.STRING ? null : new LongIntMap();
    }

    public ColumnType type() {
        return type;
    }

    public int size() {
        return size;
    }

    /** The code of NULL, assigning the next one the first time. */
    public int nullCode() {
        if (nullCode < 0) {
            if (size == longs.length || size == strings.length) {
                strings = Arrays.copyOf(strings, size * 2);
                longs = Arrays.copyOf(longs, size * 2);
            }
            nullCode = size++;
        }
        return nullCode;
    }

    /** Whether NULL has a code. */
    public boolean hasNull() {
        return nullCode >= 0;
    }

    /** The code of this string, assigning the next one if it is new. */
    public int codeOf(String value) {
        Integer code = stringCodes.get(value);
        if (code != null) {
            return code;
        }
        if (size == strings.length) {
            strings = Arrays.copyOf(strings, size * 2);
        }
        strings[size] = value;
        stringCodes.put(value, size);
        return size++;
    }

    /** The code of this INT or DATE value, assigning the next one if it is new. */
    public int codeOf(long value) {
        int code = longCodes.get(value);
        if (code >= 0) {
            return code;
        }
        if (size == longs.length) {
            longs = Arrays.copyOf(longs, size * 2);
        }
        longs[size] = value;
        longCodes.put(value, size);
        return size++;
    }

    /**
     * Adds the values of {@code other} (a dictionary of the same type, built elsewhere, e.g. for one block of rows) in
     * its first-seen order, NULL included where it has it, so that this dictionary's first-seen order is what coding
     * the other's rows here would have given; returns {@code map[otherCode] = code here}.
     *
     * @throws IllegalArgumentException when the types differ
     */
    public int[] addAll(DictionaryBuilder other) {
        if (other.type != type) {
            throw new IllegalArgumentException(
                    "dictionaries of different types: this=" + type + " other=" + other.type);
        }
        int[] map = new int[other.size];
        for (int i = 0; i < other.size; i++) {
            if (i == other.nullCode) {
                map[i] = nullCode();
            } else {
                map[i] = type == ColumnType.STRING ? codeOf(other.strings[i]) : codeOf(other.longs[i]);
            }
        }
        return map;
    }

    /**
     * The dictionary with values in ascending order (strings by {@link TextOrder}, INT and DATE numerically),
     * and {@code remap[firstSeenCode] = sortedCode}.
     */
    public Sorted buildSorted() {
        int values = size - (nullCode >= 0 ? 1 : 0);
        Integer[] order = new Integer[values];
        for (int i = 0, k = 0; i < size; i++) {
            if (i != nullCode) {
                order[k++] = i;
            }
        }
        if (type == ColumnType.STRING) {
            Arrays.sort(order, (a, b) -> TextOrder.compare(strings[a], strings[b]));
        } else {
            Arrays.sort(order, (a, b) -> Long.compare(longs[a], longs[b]));
        }
        int[] remap = new int[size];
        String[] sortedStrings = type == ColumnType.STRING ? new String[values] : null;
        long[] sortedLongs = type == ColumnType.STRING ? null : new long[values];
        for (int k = 0; k < values; k++) {
            remap[order[k]] = k;
            if (sortedStrings != null) {
                sortedStrings[k] = strings[order[k]];
            } else {
                sortedLongs[k] = longs[order[k]];
            }
        }
        if (nullCode >= 0) {
            remap[nullCode] = values;
        }
        Dictionary d = sortedStrings != null
                ? Dictionary.ofStrings(sortedStrings, nullCode >= 0)
                : Dictionary.ofLongs(type, sortedLongs, nullCode >= 0);
        return new Sorted(d, remap);
    }

    /**
     * A sorted dictionary and the map from first-seen codes to its codes.
     *
     * @param dictionary the values in ascending order
     * @param remap      {@code remap[firstSeenCode]} is the sorted code
     */
    public record Sorted(Dictionary dictionary, int[] remap) {}

    /** Open-addressing long to non-negative int map; -1 means absent. */
    static final class LongIntMap {
        private long[] keys = new long[64];
        private int[] values = new int[64];
        private boolean[] used = new boolean[64];
        private int count;

        int get(long key) {
            int mask = keys.length - 1;
            int i = (int) (mix(key) & mask);
            while (used[i]) {
                if (keys[i] == key) {
                    return values[i];
                }
                i = (i + 1) & mask;
            }
            return -1;
        }

        void put(long key, int value) {
            if ((count + 1) * 2 > keys.length) {
                grow();
            }
            int mask = keys.length - 1;
            int i = (int) (mix(key) & mask);
            while (used[i] && keys[i] != key) {
                i = (i + 1) & mask;
            }
            if (!used[i]) {
                count++;
            }
            used[i] = true;
            keys[i] = key;
            values[i] = value;
        }

        private void grow() {
            long[] ok = keys;
            int[] ov = values;
            boolean[] ou = used;
            keys = new long[ok.length * 2];
            values = new int[ok.length * 2];
            used = new boolean[ok.length * 2];
            count = 0;
            for (int i = 0; i < ok.length; i++) {
                if (ou[i]) {
                    put(ok[i], ov[i]);
                }
            }
        }

        static long mix(long k) {
            k *= 0x9E3779B97F4A7C15L;
            return k ^ (k >>> 29);
        }
    }
}
