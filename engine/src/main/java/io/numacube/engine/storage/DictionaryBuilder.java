package io.numacube.engine.storage;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TextOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Assigns dense codes to the values of one dimension in first-seen order. Not thread-safe: one loader thread owns it.
 */
public final class DictionaryBuilder {

    private final ColumnType type;
    private final Map<String, Integer> stringCodes;
    private final LongIntMap longCodes;
    private String[] strings = new String[16];
    private long[] longs = new long[16];
    private int size;

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
     * The dictionary with values in ascending order (strings by {@link TextOrder}, INT and DATE numerically),
     * and {@code remap[firstSeenCode] = sortedCode}.
     */
    public Sorted buildSorted() {
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        if (type == ColumnType.STRING) {
            Arrays.sort(order, (a, b) -> TextOrder.compare(strings[a], strings[b]));
        } else {
            Arrays.sort(order, (a, b) -> Long.compare(longs[a], longs[b]));
        }
        int[] remap = new int[size];
        String[] sortedStrings = type == ColumnType.STRING ? new String[size] : null;
        long[] sortedLongs = type == ColumnType.STRING ? null : new long[size];
        for (int k = 0; k < size; k++) {
            remap[order[k]] = k;
            if (sortedStrings != null) {
                sortedStrings[k] = strings[order[k]];
            } else {
                sortedLongs[k] = longs[order[k]];
            }
        }
        Dictionary d =
                sortedStrings != null ? Dictionary.ofStrings(sortedStrings) : Dictionary.ofLongs(type, sortedLongs);
        return new Sorted(d, remap);
    }

    /**
     * A sorted dictionary and the map from first-seen codes to its codes.
     *
     * @param dictionary the values in ascending order
     * @param remap      {@code remap[firstSeenCode]} is the sorted code
     */
    public record Sorted(Dictionary dictionary, int[] remap) {}

    public Dictionary build() {
        return type == ColumnType.STRING
                ? Dictionary.ofStrings(Arrays.copyOf(strings, size))
                : Dictionary.ofLongs(type, Arrays.copyOf(longs, size));
    }

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
