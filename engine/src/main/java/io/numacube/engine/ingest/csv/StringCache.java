package io.numacube.engine.ingest.csv;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Decodes UTF-8 byte ranges to Strings, returning the same instance for bytes it has seen, so a low-cardinality
 * column (a desk, a currency) costs no allocation per row. Holds at most {@link #MAX_ENTRIES} distinct values; past
 * that it decodes without remembering. Malformed UTF-8 is reported, never replaced. Beside each value it keeps a code the
 * caller gave it ({@link #rememberCode}), so that a value repeated in a read is coded once ({@link #lastCode}).
 *
 * <p>Not thread-safe: one per column per reading thread.
 */
final class StringCache {

    static final int MAX_ENTRIES = 1 << 16;

    /** The lookups after which the share of hits is looked at. */
    private static final int WINDOW = 4096;

    private static final int MAX_KEY_BYTES = 256;

    private byte[][] keys = new byte[1024][];
    private String[] values = new String[1024];
    private int[] hashes = new int[1024];
    /** Per slot, the code the caller remembered for its value, or -1. */
    private int[] codes = newCodes(1024);
    /** The slot of the value the last {@link #decode} returned, or -1 when it was not kept. */
    private int lastSlot = -1;

    private int size;
    private CharsetDecoder strictDecoder;

    /** Lookups in a window, the window's hits, and whether too few hit: the cache is then no longer looked in. */
    private int windowLookups;

    private int windowHits;
    private boolean bypassed;

    /** Whether too few lookups found their value: the column is free text, nearly every value new. */
    boolean bypassed() {
        return bypassed;
    }

    /**
     * The String of {@code b[from, to)}.
     *
     * @throws NulCharacter when the bytes hold a NUL ({@link io.numacube.engine.ingest.NulText})
     * @throws CharacterCodingException when the bytes are not UTF-8
     */
    String decode(byte[] b, int from, int to) throws CharacterCodingException {
        int length = to - from;
        lastSlot = -1;
        if (length > MAX_KEY_BYTES || bypassed) {
            return decodeFresh(b, from, to);
        }
        if (++windowLookups == WINDOW) {
            // a column of mostly distinct values (free text) gains nothing here: stop hashing and copying its bytes
            bypassed = windowHits * 8 < WINDOW;
            windowLookups = 0;
            windowHits = 0;
        }
        int h = 1;
        for (int i = from; i < to; i++) {
            h = 31 * h + b[i];
        }
        h ^= h >>> 16;
        int mask = keys.length - 1;
        for (int slot = h & mask; ; slot = (slot + 1) & mask) {
            byte[] k = keys[slot];
            if (k == null) {
                String s = decodeFresh(b, from, to);
                if (size < MAX_ENTRIES) {
                    keys[slot] = Arrays.copyOfRange(b, from, to);
                    values[slot] = s;
                    hashes[slot] = h;
                    lastSlot = slot;
                    if (++size * 2 > keys.length) {
                        rehash();
                    }
                }
                return s;
            }
            if (hashes[slot] == h && k.length == length && sameBytes(k, b, from, length)) {
                windowHits++;
                lastSlot = slot;
                return values[slot];
            }
        }
    }

    /** The code remembered for the value the last {@link #decode} returned, or -1 (none yet, or not kept). */
    int lastCode() {
        return lastSlot < 0 ? -1 : codes[lastSlot];
    }

    /** Remembers {@code code} for the value the last {@link #decode} returned (nothing when it was not kept). */
    void rememberCode(int code) {
        if (lastSlot >= 0) {
            codes[lastSlot] = code;
        }
    }

    private static int[] newCodes(int capacity) {
        int[] c = new int[capacity];
        Arrays.fill(c, -1);
        return c;
    }

    /** A plain loop: for the short keys of dimension values it beats the vectorised {@code Arrays.equals}. */
    private static boolean sameBytes(byte[] key, byte[] b, int from, int length) {
        for (int i = 0; i < length; i++) {
            if (key[i] != b[from + i]) {
                return false;
            }
        }
        return true;
    }

    private String decodeFresh(byte[] b, int from, int to) throws CharacterCodingException {
        boolean ascii = true;
        for (int i = from; i < to; i++) {
            if (b[i] <= 0) {
                if (b[i] == 0) {
                    throw new NulCharacter();
                }
                ascii = false;
            }
        }
        if (ascii) {
            return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
        }
        if (strictDecoder == null) {
            strictDecoder = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        CharBuffer chars = strictDecoder.reset().decode(ByteBuffer.wrap(b, from, to - from));
        return chars.toString();
    }

    private void rehash() {
        byte[][] oldKeys = keys;
        String[] oldValues = values;
        int[] oldHashes = hashes;
        int[] oldCodes = codes;
        int capacity = oldKeys.length * 2;
        keys = new byte[capacity][];
        values = new String[capacity];
        hashes = new int[capacity];
        codes = newCodes(capacity);
        int movedLast = -1;
        int mask = capacity - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                int slot = oldHashes[i] & mask;
                while (keys[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = oldKeys[i];
                values[slot] = oldValues[i];
                hashes[slot] = oldHashes[i];
                codes[slot] = oldCodes[i];
                if (i == lastSlot) {
                    movedLast = slot;
                }
            }
        }
        lastSlot = movedLast;
    }

    /** Text holding a NUL byte, which no stored text may hold ({@link io.numacube.engine.ingest.NulText}). */
    static final class NulCharacter extends CharacterCodingException {
        @java.io.Serial
        private static final long serialVersionUID = 1L;
    }
}
