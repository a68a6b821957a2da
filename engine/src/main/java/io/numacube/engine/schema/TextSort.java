package io.numacube.engine.schema;

import java.util.Arrays;

/**
 * Sorts codes by the {@link TextOrder} of the strings they stand for, without boxing: a most-significant-digit radix
 * sort whose digit is a window of the next few chars packed into a {@code long}.
 *
 * <p>A window holds each char as its rank plus one (0 past the end of the string): a narrow window holds
 * {@value #NARROW_CHARS} chars below U+01FF in {@value #NARROW_BITS} bits each, their rank being the char itself; a wide
 * window holds {@value #WIDE_CHARS} chars in {@value #WIDE_BITS} bits each, the rank of a char below U+D800 being
 * itself, of one from U+E000 0x800 less and of a surrogate 0x2000 more, so that surrogates (the halves of a code point
 * beyond U+FFFF) come after U+E000..U+FFFF. For strings of well-formed UTF-16, windows compare as the code points, i.e.
 * as {@link TextOrder}. A range whose wide windows touch an unpaired surrogate, where they may not, is sorted by
 * {@link TextOrder} itself.
 *
 * <p>Reading a string costs cache misses, so each read takes up to {@value #LEVELS} narrow windows: the first into
 * {@code keys}, the others into {@code cache}, indexed by code, which later ranges gather from without reading the
 * string again. Invariants: each range taken from the work stack holds the codes of strings that agree in their first
 * {@code depth} chars. A narrow range of level {@code 0 < l < levels} finds in {@code cache[l - 1][code]} the narrow
 * window of each of its strings at {@code depth}; one of level {@code levels} reads its strings again. While a range
 * is split, {@code keys[i]} is the window of {@code strings[codes[i]]} at its depth, all of one width. A range starts
 * narrow unless its parent needed wide windows, and goes wide when a narrow window cannot hold one of its chars. A run
 * of equal windows is split again after the window's chars unless its strings end inside the window (then they are
 * equal). Ranges that need wide windows and are shorter than {@value #SMALL} are sorted by insertion with
 * {@link TextOrder#compare(String, String, int)}. Each sort uses its own instance; not thread-safe.
 */
public final class TextSort {

    private static final int NARROW_CHARS = 7;
    private static final int NARROW_BITS = 9;
    private static final int WIDE_CHARS = 3;
    private static final int WIDE_BITS = 17;
    private static final char FIRST_WIDE = (char) ((1 << NARROW_BITS) - 1);
    private static final long NOT_NARROW = -1;
    private static final int LEVELS = 4;
    private static final int SMALL = 32;
    private static final int WIDE = -1;

    private final String[] strings;
    private final int[] codes;
    private final long[] keys;
    private final long[][] cache;
    private int[] stack = new int[5 * 64];
    private int top;
    private int levelsRead;
    private boolean unpaired;
    private boolean sawWide;

    private TextSort(String[] strings, int[] codes) {
        this.strings = strings;
        this.codes = codes;
        this.keys = new long[codes.length];
        int maxCode = -1;
        for (int code : codes) {
            maxCode = Math.max(maxCode, code);
        }
        this.cache = new long[LEVELS - 1][maxCode + 1];
    }

    /**
     * Reorders {@code codes} so that {@code strings[codes[i]]} ascend by {@link TextOrder}; codes of equal strings end
     * up adjacent, in no particular order.
     */
    public static void sort(String[] strings, int[] codes) {
        new TextSort(strings, codes).run();
    }

    private void run() {
        push(0, codes.length, 0, 0, 0);
        while (top > 0) {
            int levels = stack[--top];
            int level = stack[--top];
            int depth = stack[--top];
            int hi = stack[--top];
            int lo = stack[--top];
            if (level != WIDE && level < levels) {
                long[] windows = cache[level - 1];
                for (int i = lo; i < hi; i++) {
                    keys[i] = windows[codes[i]];
                }
                splitNarrow(lo, hi, depth, level, levels);
            } else if (level != WIDE && readNarrow(lo, hi, depth)) {
                splitNarrow(lo, hi, depth, 0, levelsRead);
            } else if (hi - lo < SMALL) {
                insertionSort(lo, hi, depth);
            } else {
                splitWide(lo, hi, depth);
            }
        }
    }

    private void splitNarrow(int lo, int hi, int depth, int level, int levels) {
        PairQuicksort.sort(keys, codes, lo, hi);
        pushRuns(lo, hi, NARROW_BITS, depth + NARROW_CHARS, level + 1, levels);
    }

    private void splitWide(int lo, int hi, int depth) {
        if (!readWide(lo, hi, depth)) {
            comparatorSort(lo, hi, depth);
            return;
        }
        PairQuicksort.sort(keys, codes, lo, hi);
        pushRuns(lo, hi, WIDE_BITS, depth + WIDE_CHARS, sawWide ? WIDE : 0, 0);
    }

    /**
     * Reads the range's narrow windows at {@code depth} into {@link #keys} and those after into {@link #cache}, as many
     * levels as all its strings fill ({@link #levelsRead}); false when one of its chars needs a wide window at
     * {@code depth}.
     */
    private boolean readNarrow(int lo, int hi, int depth) {
        int levels = LEVELS;
        for (int i = lo; i < hi; i++) {
            int code = codes[i];
            String s = strings[code];
            long w = narrowWindow(s, depth);
            if (w == NOT_NARROW) {
                return false;
            }
            keys[i] = w;
            for (int l = 1; l < levels; l++) {
                w = narrowWindow(s, depth + l * NARROW_CHARS);
                if (w == NOT_NARROW) {
                    levels = l;
                }
                cache[l - 1][code] = w;
            }
        }
        levelsRead = levels;
        return true;
    }

    /** Reads the range's wide windows into {@link #keys}; false when one touches an unpaired surrogate. */
    private boolean readWide(int lo, int hi, int depth) {
        unpaired = false;
        sawWide = false;
        for (int i = lo; i < hi; i++) {
            keys[i] = wideWindow(strings[codes[i]], depth);
        }
        return !unpaired;
    }

    private void pushRuns(int lo, int hi, int bits, int depth, int level, int levels) {
        long lastChar = (1L << bits) - 1;
        int i = lo;
        while (i < hi) {
            long w = keys[i];
            int j = i + 1;
            while (j < hi && keys[j] == w) {
                j++;
            }
            if (j - i > 1 && (w & lastChar) != 0) {
                push(i, j, depth, level, levels);
            }
            i = j;
        }
    }

    private void push(int lo, int hi, int depth, int level, int levels) {
        if (top + 5 > stack.length) {
            stack = Arrays.copyOf(stack, stack.length * 2);
        }
        stack[top++] = lo;
        stack[top++] = hi;
        stack[top++] = depth;
        stack[top++] = level;
        stack[top++] = levels;
    }

    private static long narrowWindow(String s, int depth) {
        int end = Math.min(s.length(), depth + NARROW_CHARS);
        long w = 0;
        for (int i = depth; i < end; i++) {
            char c = s.charAt(i);
            if (c >= FIRST_WIDE) {
                return NOT_NARROW;
            }
            w = (w << NARROW_BITS) | (c + 1);
        }
        return w << (NARROW_BITS * (depth + NARROW_CHARS - Math.max(end, depth)));
    }

    private long wideWindow(String s, int depth) {
        int end = Math.min(s.length(), depth + WIDE_CHARS);
        long w = 0;
        for (int i = depth; i < end; i++) {
            w = (w << WIDE_BITS) | (rank(s, i) + 1);
        }
        return w << (WIDE_BITS * (depth + WIDE_CHARS - Math.max(end, depth)));
    }

    private int rank(String s, int i) {
        char c = s.charAt(i);
        if (c >= FIRST_WIDE) {
            sawWide = true;
        }
        if (c < 0xD800) {
            return c;
        }
        if (c >= 0xE000) {
            return c - 0x800;
        }
        if (!paired(s, i)) {
            unpaired = true;
        }
        return c + 0x2000;
    }

    /** Whether the surrogate at {@code i} is half of a pair. */
    private static boolean paired(String s, int i) {
        return Character.isHighSurrogate(s.charAt(i))
                ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
                : i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    private void insertionSort(int lo, int hi, int depth) {
        for (int i = lo + 1; i < hi; i++) {
            int code = codes[i];
            String s = strings[code];
            int j = i - 1;
            while (j >= lo && TextOrder.compare(strings[codes[j]], s, depth) > 0) {
                codes[j + 1] = codes[j];
                j--;
            }
            codes[j + 1] = code;
        }
    }

    private void comparatorSort(int lo, int hi, int depth) {
        Integer[] boxed = new Integer[hi - lo];
        for (int i = lo; i < hi; i++) {
            boxed[i - lo] = codes[i];
        }
        Arrays.sort(boxed, (a, b) -> TextOrder.compare(strings[a], strings[b], depth));
        for (int i = lo; i < hi; i++) {
            codes[i] = boxed[i - lo];
        }
    }
}
