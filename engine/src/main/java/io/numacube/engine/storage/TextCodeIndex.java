package io.numacube.engine.storage;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The codes of a STRING {@link Dictionary}'s values looked up by their UTF-8 bytes, so that a batch of CSV rows
 * appended to a table codes a value the table holds already straight from the bytes it was read from: no String is
 * decoded and nothing is added to the batch's own dictionary ({@link DictionaryBuilder#over}).
 *
 * <p>Layout: open addressing in a power-of-two table at most half full, two {@code long}s per slot, so that a probe
 * reads one cache line and a key of up to 8 bytes (a desk, a currency, {@code CP-00042}) is compared without reading
 * anything else:
 *
 * <pre>
 *   slot i:  [ hash (32) | length, at most 0x7FFF (15) | code + 1 (17), 0 when empty ]  [ bytes 0..7, little-endian ]
 *   keys:    the values' bytes one after another, value c at [starts[c], starts[c + 1])
 * </pre>
 *
 * <p>Invariant: it covers codes {@code 0..size()-1} of the dictionary it was built for (the NULL code has no key), and a
 * value's code here is its code there; at most {@link #MAX_VALUES} of them. Immutable once built ({@link #of}, {@link
 * #extendedTo}); safe to share between threads once published through a volatile field (as {@link
 * Dictionary#textIndex()} does).
 */
public final class TextCodeIndex {

    /** The most values a dictionary may have to be indexed: past it, batches code their values themselves. */
    public static final int MAX_VALUES = 1 << 16;

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int CODE_BITS = 17;
    private static final int MAX_LENGTH_FIELD = 0x7FFF;

    private final long[] slots;
    private final byte[] keys;
    private final int[] starts;
    private final int size;

    private TextCodeIndex(long[] slots, byte[] keys, int[] starts, int size) {
        this.slots = slots;
        this.keys = keys;
        this.starts = starts;
        this.size = size;
    }

    /** The index of every value of {@code d}, a STRING dictionary of at most {@link #MAX_VALUES} values. */
    static TextCodeIndex of(Dictionary d) {
        return new TextCodeIndex(new long[128], new byte[0], new int[1], 0).extendedTo(d);
    }

    /**
     * This index with the codes of {@code d} from {@link #size()} on added: {@code d} must hold this index's values at
     * the same codes (a dictionary grown from the one this index was built for) and at most {@link #MAX_VALUES}
     * values. This index is left as it was.
     */
    TextCodeIndex extendedTo(Dictionary d) {
        int n = d.size();
        if (n > MAX_VALUES) {
            throw new IllegalArgumentException("too many values to index: size=" + n + " max=" + MAX_VALUES);
        }
        int capacity = slots.length / 2;
        while ((long) n * 2 > capacity) {
            capacity *= 2;
        }
        long[] s = capacity == slots.length / 2 ? slots.clone() : rehashed(capacity);
        int[] st = Arrays.copyOf(starts, n + 1);
        byte[][] added = new byte[n - size][];
        int bytes = starts[size];
        for (int code = size; code < n; code++) {
            String value = code == d.nullCode() ? null : d.string(code);
            byte[] b = value == null ? null : utf8(value);
            added[code - size] = b == null ? new byte[0] : b;
            bytes += added[code - size].length;
        }
        byte[] k = Arrays.copyOf(keys, bytes);
        int mask = capacity - 1;
        for (int code = size; code < n; code++) {
            byte[] b = added[code - size];
            int at = st[code];
            System.arraycopy(b, 0, k, at, b.length);
            st[code + 1] = at + b.length;
            if (code == d.nullCode()
                    || d.string(code) == null
                    || (b.length == 0 && !d.string(code).isEmpty())) {
                continue;
            }
            int h = hash(b, 0, b.length);
            int i = spread(h) & mask;
            while (s[2 * i] != 0) {
                i = (i + 1) & mask;
            }
            s[2 * i] = ((long) h << 32) | ((long) Math.min(b.length, MAX_LENGTH_FIELD) << CODE_BITS) | (code + 1);
            s[2 * i + 1] = word(b, 0, b.length);
        }
        return new TextCodeIndex(s, k, st, n);
    }

    private long[] rehashed(int capacity) {
        long[] s = new long[2 * capacity];
        int mask = capacity - 1;
        for (int j = 0; j < slots.length; j += 2) {
            if (slots[j] != 0) {
                int i = spread((int) (slots[j] >>> 32)) & mask;
                while (s[2 * i] != 0) {
                    i = (i + 1) & mask;
                }
                s[2 * i] = slots[j];
                s[2 * i + 1] = slots[j + 1];
            }
        }
        return s;
    }

    /** The codes covered: {@code 0..size()-1}. */
    public int size() {
        return size;
    }

    /** The hash {@link #find(byte[], int, int, int)} takes for the bytes {@code b[from, to)}: 8 bytes at a time. */
    public static int hash(byte[] b, int from, int to) {
        long h = (to - from) * 0x9E3779B97F4A7C15L;
        for (int p = from; p < to; p += 8) {
            h = (h ^ word(b, p, to)) * 0xFF51AFD7ED558CCDL;
            h ^= h >>> 29;
        }
        return (int) (h ^ (h >>> 32));
    }

    /** Bytes {@code b[from, min(to, from + 8))} as a little-endian long, zero beyond {@code to}. */
    private static long word(byte[] b, int from, int to) {
        if (to - from >= 8) {
            return (long) LONG_LE.get(b, from);
        }
        long w = 0;
        for (int p = to - 1; p >= from; p--) {
            w = (w << 8) | (b[p] & 0xFF);
        }
        return w;
    }

    /** The code of the value whose UTF-8 bytes are {@code b[from, to)}, of hash {@code h}; -1 when it has none. */
    public int find(byte[] b, int from, int to, int h) {
        int length = to - from;
        long first = word(b, from, to);
        long tag = ((long) h << 32) | ((long) Math.min(length, MAX_LENGTH_FIELD) << CODE_BITS);
        long mask = (slots.length >>> 1) - 1;
        for (int i = (int) (spread(h) & mask); ; i = (int) ((i + 1) & mask)) {
            long s = slots[2 * i];
            if (s == 0) {
                return -1;
            }
            if ((s & ~((1L << CODE_BITS) - 1)) == tag && slots[2 * i + 1] == first) {
                int code = (int) (s & ((1L << CODE_BITS) - 1)) - 1;
                if (length <= 8 || sameTail(code, b, from, length)) {
                    return code;
                }
            }
        }
    }

    /** Whether value {@code code} is {@code length} bytes long and its bytes after the first 8 are those of {@code b}. */
    private boolean sameTail(int code, byte[] b, int from, int length) {
        int start = starts[code];
        if (starts[code + 1] - start != length) {
            return false;
        }
        // a word at a time: the tails of dimension values are short, and Arrays.equals costs more to set up
        for (int p = 8; p < length; p += 8) {
            if (word(keys, start + p, start + length) != word(b, from + p, from + length)) {
                return false;
            }
        }
        return true;
    }

    /** The code of {@code value}; -1 when it has none. */
    public int find(String value) {
        byte[] b = utf8(value);
        return b == null ? -1 : find(b, 0, b.length, hash(b, 0, b.length));
    }

    /**
     * The UTF-8 bytes of {@code value}, or null when it has no UTF-8 form (an unpaired surrogate, which {@code
     * getBytes} would write as {@code ?}): such a value is not indexed, so that the bytes {@code ?} never find it.
     */
    private static byte[] utf8(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c)
                    && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return null;
            }
        }
        return value.getBytes(StandardCharsets.UTF_8);
    }

    private static int spread(int h) {
        int x = h * 0x9E3779B9;
        return x ^ (x >>> 16);
    }
}
