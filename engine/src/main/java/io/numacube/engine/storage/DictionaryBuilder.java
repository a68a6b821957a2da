package io.numacube.engine.storage;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TextOrder;
import io.numacube.engine.schema.TextSort;
import java.util.Arrays;

/**
 * Assigns dense codes to the values of one dimension in first-seen order; SQL NULL gets a code of its own when it
 * occurs ({@link #nullCode()}), which the sorted dictionary puts last. Not thread-safe: one loader thread owns it.
 */
public final class DictionaryBuilder {

    private final ColumnType type;
    private final StringCodeMap stringCodes;
    private final LongIntMap longCodes;
    private String[] strings = new String[16];
    private long[] longs = new long[16];
    private int size;
    private int nullCode = -1;

    public DictionaryBuilder(ColumnType type) {
        this.type = type;
        this.stringCodes = type == ColumnType.STRING ? new StringCodeMap() : null;
        this.longCodes = type == ColumnType.STRING ? null : new LongIntMap();
    }

    /**
     * A builder that already holds {@code d}'s values with {@code d}'s codes (NULL too, where {@code d} has it), so that
     * the codes it gives new values extend {@code d}: the writer's side of a table that rows are appended to.
     */
    public static DictionaryBuilder extending(Dictionary d) {
        DictionaryBuilder b = new DictionaryBuilder(d.type());
        int capacity = Math.max(16, d.size() + (d.size() >>> 1));
        if (d.type() == ColumnType.STRING) {
            b.strings = new String[capacity];
        } else {
            b.longs = new long[capacity];
        }
        for (int c = 0; c < d.size(); c++) {
            if (c == d.nullCode()) {
                b.nullCode = c;
                b.size++;
            } else if (d.type() == ColumnType.STRING) {
                b.codeOf(d.string(c));
            } else {
                b.codeOf(d.longValue(c));
            }
        }
        return b;
    }

    /**
     * The dictionary of the codes given so far, sharing this builder's value array (later codes are written beyond its
     * size, which it never reads); {@code sorted} says whether these codes follow value order with NULL last.
     */
    public Dictionary snapshot(boolean sorted) {
        return Dictionary.sharing(type, strings, longs, size, nullCode, sorted);
    }

    /** The string of STRING code {@code code} (not the NULL code). */
    public String stringAt(int code) {
        return strings[code];
    }

    /** The long of an INT, DATE or BOOLEAN code (not the NULL code). */
    public long longAt(int code) {
        return longs[code];
    }

    /** The code of STRING {@code value}, or -1 when it has none (nothing is added). */
    public int find(String value) {
        return stringCodes.get(value, strings);
    }

    /** The code of INT, DATE or BOOLEAN {@code value}, or -1 when it has none (nothing is added). */
    public int find(long value) {
        return longCodes.get(value);
    }

    /** The code of NULL, or -1 when NULL has none yet. */
    public int nullCodeIfAny() {
        return nullCode;
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
            if (type == ColumnType.STRING && size == strings.length) {
                strings = Arrays.copyOf(strings, size * 2);
            } else if (type != ColumnType.STRING && size == longs.length) {
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
        int code = stringCodes.putIfAbsent(value, size, strings);
        if (code >= 0) {
            return code;
        }
        if (size == strings.length) {
            strings = Arrays.copyOf(strings, size * 2);
        }
        strings[size] = value;
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
        int[] order = new int[size - (nullCode >= 0 ? 1 : 0)];
        for (int i = 0, k = 0; i < size; i++) {
            if (i != nullCode) {
                order[k++] = i;
            }
        }
        int[] remap = new int[size];
        if (nullCode >= 0) {
            remap[nullCode] = order.length;
        }
        Dictionary d = type == ColumnType.STRING ? sortStrings(order, remap) : sortLongs(order, remap);
        return new Sorted(d, remap);
    }

    private Dictionary sortStrings(int[] order, int[] remap) {
        TextSort.sort(strings, order);
        String[] sorted = new String[order.length];
        for (int k = 0; k < order.length; k++) {
            sorted[k] = strings[order[k]];
            remap[order[k]] = k;
        }
        return Dictionary.ofStrings(sorted, hasNull());
    }

    /** Sorts the values themselves; each has one code, found again in {@link #longCodes}. */
    private Dictionary sortLongs(int[] order, int[] remap) {
        long[] sorted = new long[order.length];
        for (int k = 0; k < order.length; k++) {
            sorted[k] = longs[order[k]];
        }
        Arrays.sort(sorted);
        for (int k = 0; k < sorted.length; k++) {
            remap[longCodes.get(sorted[k])] = k;
        }
        return Dictionary.ofLongs(type, sorted, hasNull());
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
