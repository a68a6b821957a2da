package io.numacube.engine.storage;

import io.numacube.engine.schema.ColumnType;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The values of one dimension, indexed by code: code {@code c} stands for {@code value(c)}. Codes are dense
 * ({@code 0..size-1}); in the dictionaries of loaded tables they follow ascending value order, so ordering by codes
 * orders by values ({@link #sorted()}). A table that rows were appended to has a dictionary {@link
 * DictionaryBuilder#snapshot grown} from its first one: old values keep their codes and new values take the next codes
 * in first-seen order, so it is sorted only while every new value came after the others. Predicates are compiled by
 * evaluating them once per code, not by comparing codes; what needs the order (MIN and MAX over codes) asks {@link
 * #sorted()} first. STRING values
 * are held as {@code String}; INT, DATE and BOOLEAN values as {@code long} (DATE: days since 1970-01-01; BOOLEAN: 0
 * for false, 1 for true, so false orders first, as in DuckDB); DOUBLE values (the query-time dictionary of a plain
 * DOUBLE column, {@link CodedColumns}) as their bits, in {@link Double#compare} order, with -0.0 folded into 0.0 and
 * one NaN, the greatest, as DuckDB groups them.
 *
 * <p>SQL NULL is a code of its own when the column holds it: {@link #nullCode()}, the last code in a sorted
 * dictionary, so that ordering by codes puts NULL after every value (DuckDB's {@code NULLS LAST}) and a grouping by
 * codes makes NULL one group. For that code {@link #value} and {@link #string} give null and {@link #longValue} gives
 * 0; a column without NULLs has {@code nullCode() == -1}. Immutable after construction (a grown dictionary shares its
 * value array with the builder, which only writes beyond this dictionary's size); safe to share between threads.
 */
public final class Dictionary {

    private final ColumnType type;
    private final String[] strings;
    private final long[] longs;
    private final int size;
    private final int nullCode;
    private final boolean sorted;

    /** The index of this STRING dictionary's values by their bytes, once built ({@link #textIndex()}). */
    private volatile TextCodeIndex textIndex;

    /**
     * A dictionary whose values this one holds at the same codes (the snapshot it was grown from) and whose index was
     * built, or may be: this one's is then extended from it, not built anew. Dropped once this one's is built.
     */
    private volatile Dictionary grownFrom;

    private Dictionary(ColumnType type, String[] strings, long[] longs, boolean withNull) {
        this(type, strings, longs, strings != null ? strings.length : longs.length, withNull ? -2 : -1, true);
    }

    /**
     * @param nullCode -2 for "the last code", else the NULL code or -1
     */
    private Dictionary(ColumnType type, String[] strings, long[] longs, int size, int nullCode, boolean sorted) {
        this.type = type;
        this.strings = strings;
        this.longs = longs;
        this.size = size;
        this.nullCode = nullCode == -2 ? size - 1 : nullCode;
        this.sorted = sorted;
    }

    /**
     * The first {@code size} values of {@code strings} (STRING) or {@code longs} (other types), which the caller never
     * changes below {@code size}; code {@code nullCode} (or none, -1) stands for NULL. {@code sorted} says whether the
     * codes follow value order with NULL last.
     */
    static Dictionary sharing(ColumnType type, String[] strings, long[] longs, int size, int nullCode, boolean sorted) {
        return new Dictionary(
                type,
                type == ColumnType.STRING ? strings : null,
                type == ColumnType.STRING ? null : longs,
                size,
                nullCode,
                sorted);
    }

    /**
     * A snapshot grown from {@code previous} (which it extends: the same values at the same codes), so that its
     * {@link #textIndex()} extends {@code previous}'s instead of being built anew.
     */
    static Dictionary grown(Dictionary next, Dictionary previous) {
        if (next != previous && next.type == ColumnType.STRING) {
            Dictionary older = previous.grownFrom;
            next.grownFrom = previous.textIndex != null || older == null ? previous : older;
        }
        return next;
    }

    /**
     * The index of this STRING dictionary's values by their UTF-8 bytes, built on the first call (extended from the
     * index of the snapshot this one grew from, where that was built), or null for another type or a dictionary of
     * more than {@link TextCodeIndex#MAX_VALUES} values. Thread-safe: threads that ask at once may each build it.
     */
    public TextCodeIndex textIndex() {
        TextCodeIndex index = textIndex;
        if (index != null || type != ColumnType.STRING || size > TextCodeIndex.MAX_VALUES) {
            return index;
        }
        Dictionary from = grownFrom;
        TextCodeIndex base = from == null ? null : from.textIndex;
        index = base != null && base.size() <= size ? base.extendedTo(this) : TextCodeIndex.of(this);
        textIndex = index;
        grownFrom = null;
        return index;
    }

    /** The array holding the values of a STRING dictionary at their codes (and maybe more beyond its size). */
    String[] stringArray() {
        return strings;
    }

    /** Whether codes follow ascending value order with NULL last, so that ordering by codes orders by values. */
    public boolean sorted() {
        return sorted;
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
        return new Dictionary(type, s, l, total, withNull ? newCode[nullCode] : -1, sorted);
    }

    /**
     * {@link #subset} where the number of codes {@code keep} marks is known ({@code kept}) and NULL, if any, is the
     * last code: the same dictionary, in one pass over the codes without a branch on the mark, and {@code map[code]}
     * each kept code's code in it, 0 for the others ({@code map} holds {@link #size} entries).
     *
     * @throws IllegalArgumentException when NULL is not the last code, {@code keep} covers other than every code, or
     *                                  marks other than {@code kept} codes
     */
    public Dictionary subsetOfKept(boolean[] keep, int kept, int[] map) {
        return subsetOfKept(keep, kept, map, null);
    }

    /**
     * {@link #subsetOfKept(boolean[], int, int[])}, and, unless {@code keptCodes} is null, {@code keptCodes[i]} the
     * code of this dictionary that code {@code i} of the subset stands for ({@code kept + 1} entries, the last one
     * scratch): the map's inverse, from the same pass.
     */
    public Dictionary subsetOfKept(boolean[] keep, int kept, int[] map, int[] keptCodes) {
        requireKeepable(keep, kept);
        // a dropped code writes its value where the next kept one writes over it: one slot more for the last ones
        String[] s = strings == null ? null : new String[kept + 1];
        long[] l = longs == null ? null : new long[kept + 1];
        int n = 0;
        for (int c = 0; c < size; c++) {
            int at = Math.min(n, kept);
            map[c] = keep[c] ? at : 0;
            if (keptCodes != null) {
                keptCodes[at] = c;
            }
            if (l != null) {
                l[at] = longs[c];
            } else {
                s[at] = strings[c];
            }
            n += keep[c] ? 1 : 0;
        }
        if (n != kept) {
            throw new IllegalArgumentException(
                    "subsetOfKept: the marks count other than kept: kept=" + kept + " marked=" + n);
        }
        return keptSubset(keep, kept, s, l);
    }

    /**
     * {@link #subsetOfKept(boolean[], int, int[], int[])} in {@code chunks} ranges of codes, each counted and then
     * filled as a task of its own: {@code runAll} runs the tasks it is given, side by side or in turn, and returns
     * when all have run. The same subset, map and codes as the serial pass.
     */
    public Dictionary subsetOfKept(
            boolean[] keep, int kept, int[] map, int[] keptCodes, int chunks, Consumer<Runnable[]> runAll) {
        requireKeepable(keep, kept);
        int[] from = new int[chunks + 1];
        for (int c = 0; c <= chunks; c++) {
            from[c] = (int) ((long) size * c / chunks);
        }
        int[] counts = new int[chunks + 1];
        Runnable[] tasks = new Runnable[chunks];
        for (int c = 0; c < chunks; c++) {
            int chunk = c;
            tasks[c] = () -> {
                int n = 0;
                for (int code = from[chunk]; code < from[chunk + 1]; code++) {
                    n += keep[code] ? 1 : 0;
                }
                counts[chunk + 1] = n;
            };
        }
        runAll.accept(tasks);
        for (int c = 0; c < chunks; c++) {
            counts[c + 1] += counts[c];
        }
        if (counts[chunks] != kept) {
            throw new IllegalArgumentException(
                    "subsetOfKept: the marks count other than kept: kept=" + kept + " marked=" + counts[chunks]);
        }
        String[] s = strings == null ? null : new String[kept + 1];
        long[] l = longs == null ? null : new long[kept + 1];
        for (int c = 0; c < chunks; c++) {
            int chunk = c;
            tasks[c] = () -> fillKept(keep, from[chunk], from[chunk + 1], counts[chunk], map, keptCodes, s, l);
        }
        runAll.accept(tasks);
        return keptSubset(keep, kept, s, l);
    }

    private void requireKeepable(boolean[] keep, int kept) {
        if ((nullCode >= 0 && nullCode != size - 1) || keep.length != size || kept < 0 || kept > size) {
            throw new IllegalArgumentException("subsetOfKept needs NULL last and a mark per code: size=" + size
                    + " nullCode=" + nullCode + " marks=" + keep.length + " kept=" + kept);
        }
    }

    /** The subset of the kept values {@code s} or {@code l} ({@code kept} of them), NULL last where it was kept. */
    private Dictionary keptSubset(boolean[] keep, int kept, String[] s, long[] l) {
        boolean withNull = nullCode >= 0 && keep[nullCode];
        if (withNull && l != null) {
            l[kept - 1] = 0;
        } else if (withNull) {
            s[kept - 1] = null;
        }
        return new Dictionary(type, s, l, kept, withNull ? kept - 1 : -1, sorted);
    }

    /** The kept codes of {@code [from, to)} numbered from {@code n} on, as {@link #subsetOfKept} numbers them. */
    private void fillKept(boolean[] keep, int from, int to, int n, int[] map, int[] keptCodes, String[] s, long[] l) {
        for (int c = from; c < to; c++) {
            if (!keep[c]) {
                map[c] = 0;
                continue;
            }
            map[c] = n;
            if (keptCodes != null) {
                keptCodes[n] = c;
            }
            if (l != null) {
                l[n] = longs[c];
            } else {
                s[n] = strings[c];
            }
            n++;
        }
    }

    /**
     * Whether {@link #codesOfAscending} can find an integer value's code: a sorted dictionary of INT, DATE, BOOLEAN or
     * TIMESTAMP values, NULL (if any) last.
     */
    public boolean searchable() {
        return sorted && longs != null && type != ColumnType.DOUBLE && (nullCode < 0 || nullCode == size - 1);
    }

    /**
     * The codes standing for {@code values[0..n)}, which ascend, into {@code out} (-1 where no code stands for a value):
     * a merge walk that gallops over the codes between two values, so in time of {@code n} times the log of the gap,
     * reading the dictionary forward only; where the values have no gap (every integer from the least to the greatest
     * is one), each value's code is its offset, found in constant time. Only where {@link #searchable()}.
     */
    public void codesOfAscending(long[] values, int n, int[] out) {
        codesOfAscending(values, 0, n, out);
    }

    /**
     * {@link #codesOfAscending(long[], int, int[])} of {@code values[from..to)}, the code of {@code values[i]} into
     * {@code out[i - from]}: each value's code is its own, so ranges of the values may be looked up side by side.
     */
    public void codesOfAscending(long[] values, int from, int to, int[] out) {
        if (!searchable()) {
            throw new IllegalStateException("codesOfAscending needs a sorted integer dictionary: type=" + type);
        }
        int end = nullCode < 0 ? size : size - 1;
        // distinct ascending values whose span is their count: every integer between the least and the greatest is a
        // code, the code of a value its offset from the least (TPC-H's keys; no search)
        if (end > 0 && longs[end - 1] - longs[0] == end - 1) {
            long least = longs[0];
            long greatest = longs[end - 1];
            for (int i = from; i < to; i++) {
                long v = values[i];
                out[i - from] = v >= least && v <= greatest ? (int) (v - least) : -1;
            }
            return;
        }
        int lo = 0;
        for (int i = from; i < to; i++) {
            long v = values[i];
            // the next value is most often the code found last or the one after it (a subquery's dense keys)
            if (lo < end && longs[lo] == v) {
                out[i - from] = lo;
                continue;
            }
            if (lo + 1 < end && longs[lo + 1] == v) {
                out[i - from] = ++lo;
                continue;
            }
            int hi = lo;
            int step = 1;
            while (hi < end && longs[hi] < v) {
                lo = hi + 1;
                hi = lo + step;
                step <<= 1;
            }
            int at = Arrays.binarySearch(longs, lo, Math.min(hi + 1, end), v);
            out[i - from] = at >= 0 ? at : -1;
            lo = at >= 0 ? at : -at - 1;
        }
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
        return size;
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
                && size == other.size
                && (strings == null || Arrays.equals(strings, 0, size, other.strings, 0, size))
                && (longs == null || Arrays.equals(longs, 0, size, other.longs, 0, size));
    }
}
