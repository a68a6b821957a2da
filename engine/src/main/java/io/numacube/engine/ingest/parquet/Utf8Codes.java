package io.numacube.engine.ingest.parquet;

import io.numacube.engine.storage.DictionaryBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Codes UTF-8 byte ranges in a block's string dictionary without a String per row: the bytes are hashed and looked up
 * in an open-addressing map that remembers, per distinct value, its String (decoded once, as hardwood's
 * {@code getStrings} decodes it) and its code in the current block's dictionary. The map outlives blocks, so a value
 * seen in an earlier row group costs no decoding again, only one dictionary lookup per block; it is cleared between
 * blocks once it holds more than {@link #MAX_ENTRIES} values (a column of unique strings). When fewer than one lookup
 * in eight of a window of 4,096 finds its value (free text), values are given block codes without any lookup
 * ({@link DictionaryBuilder#addWithoutLookup}); appending the block to the staging codes equal values once.
 *
 * <p>Not thread-safe: one per column per worker.
 */
final class Utf8Codes {

    static final int MAX_ENTRIES = 1 << 18;

    /** What {@link #codeOf} returns for bytes that are not UTF-8 text (no code is negative). */
    static final int NOT_UTF8 = -1;

    /** What {@link #codeOf} returns for text holding a NUL character ({@link io.numacube.engine.ingest.NulText}). */
    static final int HOLDS_NUL = -2;

    /** The lookups after which the share of hits is looked at. */
    private static final int WINDOW = 4096;

    private byte[][] keys = new byte[1024][];
    private String[] values = new String[1024];
    private int[] hashes = new int[1024];
    /** The code of the value in {@link #dictionary}, valid where {@code stamps[slot] == stamp}. */
    private int[] codes = new int[1024];

    private int[] stamps = new int[1024];
    private int size;
    private int stamp;
    private DictionaryBuilder dictionary;

    /** Lookups in a window, the window's hits, and whether too few hit: values are then coded without the map. */
    private int windowLookups;

    private int windowHits;
    private boolean bypassed;

    /** Starts coding into a new block's dictionary. */
    void startBlock(DictionaryBuilder blockDictionary) {
        dictionary = blockDictionary;
        stamp++;
        if (size > MAX_ENTRIES || stamp == Integer.MAX_VALUE) {
            keys = new byte[1024][];
            values = new String[1024];
            hashes = new int[1024];
            codes = new int[1024];
            stamps = new int[1024];
            size = 0;
            stamp = 1;
        }
    }

    /** The block dictionary's code of the text in {@code b[from, to)}, or {@link #NOT_UTF8} or {@link #HOLDS_NUL}. */
    int codeOf(byte[] b, int from, int to) {
        if (bypassed) {
            String s = decode(b, from, to);
            return s == null ? NOT_UTF8 : s.indexOf('\0') >= 0 ? HOLDS_NUL : dictionary.addWithoutLookup(s);
        }
        if (++windowLookups == WINDOW) {
            // free text (nearly every value new) gains nothing from the map: code its values unlooked from now on
            bypassed = windowHits * 8 < WINDOW;
            windowLookups = 0;
            windowHits = 0;
        }
        int length = to - from;
        int h = 1;
        for (int i = from; i < to; i++) {
            h = 31 * h + b[i];
        }
        h ^= h >>> 16;
        int mask = keys.length - 1;
        for (int slot = h & mask; ; slot = (slot + 1) & mask) {
            byte[] k = keys[slot];
            if (k == null) {
                return insert(slot, h, b, from, to);
            }
            if (hashes[slot] == h && k.length == length && sameBytes(k, b, from, length)) {
                windowHits++;
                if (stamps[slot] != stamp) {
                    codes[slot] = dictionary.codeOf(values[slot]);
                    stamps[slot] = stamp;
                }
                return codes[slot];
            }
        }
    }

    private int insert(int slot, int h, byte[] b, int from, int to) {
        String s = decode(b, from, to);
        if (s == null) {
            return NOT_UTF8;
        }
        if (s.indexOf('\0') >= 0) {
            return HOLDS_NUL;
        }
        int code = dictionary.codeOf(s);
        keys[slot] = Arrays.copyOfRange(b, from, to);
        values[slot] = s;
        hashes[slot] = h;
        codes[slot] = code;
        stamps[slot] = stamp;
        if (++size * 2 > keys.length) {
            rehash();
        }
        return code;
    }

    /**
     * The text of {@code b[from, to)}, or null where it is not UTF-8: the JDK's decoding replaces a malformed sequence
     * with U+FFFD, so only a text holding one is decoded again strictly (U+FFFD may also be the text's own).
     */
    private static String decode(byte[] b, int from, int to) {
        String s = new String(b, from, to - from, StandardCharsets.UTF_8);
        if (s.indexOf('\uFFFD') < 0) {
            return s;
        }
        try {
            StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(b, from, to - from));
            return s;
        } catch (java.nio.charset.CharacterCodingException notUtf8) {
            return null;
        }
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

    private void rehash() {
        byte[][] oldKeys = keys;
        String[] oldValues = values;
        int[] oldHashes = hashes;
        int[] oldCodes = codes;
        int[] oldStamps = stamps;
        int capacity = oldKeys.length * 2;
        keys = new byte[capacity][];
        values = new String[capacity];
        hashes = new int[capacity];
        codes = new int[capacity];
        stamps = new int[capacity];
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
                stamps[slot] = oldStamps[i];
            }
        }
    }
}
