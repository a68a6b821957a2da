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
    /** The STRING values' codes; null after {@link #collapseTo} until a lookup needs it again. */
    private StringCodeMap stringCodes;

    private final LongIntMap longCodes;
    private String[] strings = new String[16];
    private long[] longs = new long[16];
    private int size;
    private int nullCode = -1;
    /** Whether a value may have two codes ({@link #addWithoutLookup}). */
    private boolean repeats;

    /**
     * The dictionary whose values this builder holds at the same codes, looked up in its index, not in {@link
     * #stringCodes} (which holds only the values added here); null for a builder that started empty or extends a
     * dictionary by copy ({@link #extending}).
     */
    private Dictionary known;

    private TextCodeIndex knownIndex;

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
     * A STRING builder that holds {@code d}'s values with {@code d}'s codes (NULL too, where {@code d} has it), as
     * {@link #extending} does, without copying them into a map of its own: values of {@code d} are found in its
     * {@link Dictionary#textIndex()}, shared by every builder over {@code d}, so that a batch appended to a table codes
     * the values the table holds with the table's codes ({@link #knownCode}) and adds only new ones here. {@link
     * #addAll} into a builder holding {@code d}'s values at the same codes (one over {@code d}, or one that {@code d}
     * was grown from or that grew from it) maps those codes to themselves without looking them up. For a STRING
     * dictionary of at most {@link TextCodeIndex#MAX_VALUES} values; otherwise {@code extending(d)}'s equal but slower
     * twin is not made: an empty builder is returned, as for a staging that knows no table.
     */
    public static DictionaryBuilder over(Dictionary d) {
        DictionaryBuilder b = new DictionaryBuilder(d.type());
        TextCodeIndex index = d.textIndex();
        if (index == null) {
            return b;
        }
        b.known = d;
        b.knownIndex = index;
        // only d's codes: beyond them, the array of a grown dictionary may be written meanwhile by its builder
        b.strings = new String[Math.max(16, d.size() + (d.size() >>> 1))];
        System.arraycopy(d.stringArray(), 0, b.strings, 0, d.size());
        b.size = d.size();
        b.nullCode = d.nullCode();
        return b;
    }

    /**
     * The code of the value whose UTF-8 bytes are {@code bytes[from, to)} (of {@link TextCodeIndex#hash} {@code
     * hash}) in the dictionary this builder was made {@link #over}, or -1 when it has none there (it may have one
     * here: look it up as a String).
     */
    public int knownCode(byte[] bytes, int from, int to, int hash) {
        return knownIndex == null ? -1 : knownIndex.find(bytes, from, to, hash);
    }

    /** Whether this builder was made {@link #over} a dictionary whose values it looks up by their bytes. */
    public boolean knowsValues() {
        return knownIndex != null;
    }

    /**
     * The dictionary of the codes given so far, sharing this builder's value array (later codes are written beyond its
     * size, which it never reads); {@code sorted} says whether these codes follow value order with NULL last.
     */
    public Dictionary snapshot(boolean sorted) {
        refuseRepeats();
        return Dictionary.sharing(type, strings, longs, size, nullCode, sorted);
    }

    private void refuseRepeats() {
        if (repeats) {
            throw new IllegalStateException(
                    "a dictionary with values added without lookup may only be added to another: size=" + size);
        }
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
        int code = knownIndex == null ? -1 : knownIndex.find(value);
        return code >= 0 ? code : stringCodes().get(value, strings);
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
        if (knownIndex != null) {
            int known = knownIndex.find(value);
            if (known >= 0) {
                return known;
            }
        }
        int code = stringCodes().putIfAbsent(value, size, strings);
        if (code >= 0) {
            return code;
        }
        if (size == strings.length) {
            strings = Arrays.copyOf(strings, size * 2);
        }
        strings[size] = value;
        return size++;
    }

    /**
     * Gives {@code value} the next code without looking it up (free text, where nearly every value is new): the
     * builder may then hold a value under two codes, so it may only be added to another builder ({@link #addAll}, which
     * codes equal values once), never sorted, snapshot or extended itself.
     */
    public int addWithoutLookup(String value) {
        repeats = true;
        // the hash is cached in the String: computed here, while its bytes are in this core's cache, it is only read
        // when the repeats are removed
        value.hashCode();
        if (size == strings.length) {
            strings = Arrays.copyOf(strings, size * 2);
        }
        strings[size] = value;
        return size++;
    }

    /** The map of the STRING values' codes, rebuilt from {@link #strings} after {@link #collapseTo}. */
    private StringCodeMap stringCodes() {
        if (stringCodes == null) {
            stringCodes = new StringCodeMap();
            for (int c = 0; c < size; c++) {
                if (c != nullCode) {
                    stringCodes.putIfAbsent(strings[c], c, strings);
                }
            }
        }
        return stringCodes;
    }

    /** Whether a value may have two codes (values were added without lookup): {@link #collapseTo} has not run since. */
    public boolean hasRepeats() {
        return repeats;
    }

    /**
     * Appends the values of STRING builder {@code other} in its code order without looking them up, as {@link
     * #addWithoutLookup} does, NULL mapped to this builder's NULL code; returns {@code map[otherCode] = code here}.
     * This builder may then hold a value twice until {@link #collapseTo}. Only for a builder that knows no dictionary
     * ({@link #knowsValues()} false), whose codes are its own.
     *
     * @throws IllegalArgumentException when either is not a STRING builder, or this one knows a dictionary
     */
    public int[] appendWithoutLookup(DictionaryBuilder other) {
        if (type != ColumnType.STRING || other.type != ColumnType.STRING || known != null) {
            throw new IllegalArgumentException(
                    "values are appended without lookup only between STRING builders of their own codes: this=" + type
                            + " other=" + other.type);
        }
        int[] map = new int[other.size];
        if (size + other.size > strings.length) {
            strings = Arrays.copyOf(strings, Math.max(size + other.size, strings.length * 2));
        }
        for (int i = 0; i < other.size; i++) {
            if (i == other.nullCode) {
                map[i] = nullCode();
            } else {
                strings[size] = other.strings[i];
                map[i] = size++;
            }
        }
        repeats |= other.size > 0;
        return map;
    }

    /**
     * The STRING values by code, valid below {@link #size()} (null at the NULL code), repeats included: read only, to
     * compute what {@link #collapseTo} is given.
     */
    public String[] valuesByCode() {
        return strings;
    }

    /**
     * Replaces this STRING builder's values by {@code distinct[0, size)}, each value once, NULL at {@code nullCode}
     * (or -1): the values it held with their repeats removed, in their first code's order (the order coding them one
     * by one would have given). The map of codes is rebuilt when a lookup next needs it.
     */
    public void collapseTo(String[] distinct, int size, int nullCode) {
        if (type != ColumnType.STRING || known != null) {
            throw new IllegalArgumentException("only a STRING builder of its own codes is collapsed: type=" + type);
        }
        this.strings = distinct;
        this.size = size;
        this.nullCode = nullCode;
        this.repeats = false;
        this.stringCodes = null;
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
        int same = other.known != null && holdsAtSameCodes(other.known) ? other.known.size() : 0;
        for (int i = 0; i < same; i++) {
            map[i] = i;
        }
        for (int i = same; i < other.size; i++) {
            if (i == other.nullCode) {
                map[i] = nullCode();
            } else {
                map[i] = type == ColumnType.STRING ? codeOf(other.strings[i]) : codeOf(other.longs[i]);
            }
        }
        return map;
    }

    /** Whether this builder holds every value of {@code d} at {@code d}'s code (NULL too): a cheap check, by reference. */
    private boolean holdsAtSameCodes(Dictionary d) {
        if (d == known) {
            return true;
        }
        int n = d.size();
        if (type != ColumnType.STRING || size < n || (d.nullCode() >= 0 && d.nullCode() != nullCode)) {
            return false;
        }
        if (nullCode >= 0 && nullCode < n && d.nullCode() != nullCode) {
            return false;
        }
        String[] theirs = d.stringArray();
        for (int i = 0; i < n; i++) {
            if (strings[i] != theirs[i] && (i == nullCode || !strings[i].equals(theirs[i]))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The dictionary with values in ascending order (strings by {@link TextOrder}, INT and DATE numerically),
     * and {@code remap[firstSeenCode] = sortedCode}.
     */
    public Sorted buildSorted() {
        refuseRepeats();
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

    /**
     * Long to non-negative int map; -1 means absent. While the keys seen lie in a range at most
     * {@link #DIRECT_SLACK} times their count wide (or {@link #DIRECT_MIN}, so that keys of a dense range met in random
     * order, such as the part keys of a chunk of TPC-H lineitem, stay direct), an array indexed by {@code key - base}
     * holds {@code value + 1}: dense keys (identifiers, dates, line numbers, decimals of few values) cost one array
     * read, no hashing or probing, in an array of 4 bytes per key of the range. Keys beyond that turn it into an
     * open-addressing table whose entries are two adjacent longs, the key and {@code value + 1} (0 when empty), so
     * that a probe reads one cache line.
     */
    static final class LongIntMap {
        /** The widest range kept direct whatever the count, and the most it may exceed the count by, as a factor. */
        static final int DIRECT_MIN = 1 << 20;

        static final int DIRECT_SLACK = 16;

        /** The most slots a direct range may have. */
        static final int DIRECT_MAX = 1 << 26;

        /** Keys beyond plus or minus this are hashed: differences of keys and bases then never overflow. */
        private static final long DIRECT_KEY_BOUND = 1L << 62;

        /** {@code value + 1} by {@code key - base}, or null once the map hashes. */
        private int[] direct = new int[0];

        private long base;
        private long[] table;
        private int count;

        int get(long key) {
            int[] d = direct;
            if (d != null) {
                long off = key - base;
                return off >= 0 && off < d.length ? d[(int) off] - 1 : -1;
            }
            int mask = (table.length >>> 1) - 1;
            for (int i = (int) (mix(key) & mask); ; i = (i + 1) & mask) {
                long v = table[2 * i + 1];
                if (v == 0) {
                    return -1;
                }
                if (table[2 * i] == key) {
                    return (int) v - 1;
                }
            }
        }

        /** Maps {@code key}, which has no value yet, to {@code value}. */
        void put(long key, int value) {
            if (direct != null && !fitsDirect(key)) {
                toTable();
            }
            if (direct != null) {
                direct[(int) (key - base)] = value + 1;
                count++;
                return;
            }
            putHashed(key, value);
        }

        /** Whether {@code key} is in the direct range, after widening it where the keys stay dense enough. */
        private boolean fitsDirect(long key) {
            if (key < -DIRECT_KEY_BOUND || key > DIRECT_KEY_BOUND) {
                return false;
            }
            long off = key - base;
            if (off >= 0 && off < direct.length) {
                return true;
            }
            long lo = direct.length == 0 ? key : Math.min(base, key);
            long hi = direct.length == 0 ? key + 1 : Math.max(base + direct.length, key + 1);
            long need = hi - lo;
            long limit = Math.min(DIRECT_MAX, Math.max(DIRECT_MIN, (long) DIRECT_SLACK * (count + 1)));
            if (need <= 0 || need > limit || lo > hi) {
                return false;
            }
            long length = Math.min(limit, Math.max(64, need * 2));
            // leave the room on the side the range grew towards
            long newBase = key < base && direct.length > 0 ? hi - length : lo;
            if (newBase > lo) {
                newBase = lo;
            }
            int[] wider = new int[(int) length];
            if (direct.length > 0) {
                System.arraycopy(direct, 0, wider, (int) (base - newBase), direct.length);
            }
            direct = wider;
            base = newBase;
            return true;
        }

        private void toTable() {
            int[] d = direct;
            direct = null;
            table = new long[Math.max(128, Integer.highestOneBit(Math.max(1, count)) * 8)];
            count = 0;
            for (int i = 0; i < d.length; i++) {
                if (d[i] != 0) {
                    putHashed(base + i, d[i] - 1);
                }
            }
        }

        private void putHashed(long key, int value) {
            if ((count + 1) * 4L > table.length) {
                grow();
            }
            int mask = (table.length >>> 1) - 1;
            int i = (int) (mix(key) & mask);
            while (table[2 * i + 1] != 0 && table[2 * i] != key) {
                i = (i + 1) & mask;
            }
            if (table[2 * i + 1] == 0) {
                count++;
            }
            table[2 * i] = key;
            table[2 * i + 1] = value + 1L;
        }

        private void grow() {
            long[] old = table;
            table = new long[old.length * 2];
            count = 0;
            for (int i = 0; i < old.length; i += 2) {
                if (old[i + 1] != 0) {
                    putHashed(old[i], (int) old[i + 1] - 1);
                }
            }
        }

        static long mix(long k) {
            k *= 0x9E3779B97F4A7C15L;
            return k ^ (k >>> 29);
        }
    }
}
