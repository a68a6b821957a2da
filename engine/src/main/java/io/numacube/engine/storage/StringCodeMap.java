package io.numacube.engine.storage;

/**
 * Open-addressing map from a string to its non-negative code, the strings themselves kept by the caller in an array
 * indexed by code: linear probing in a power-of-two table at most half full, each slot one {@code long} holding the
 * key's hash (high half) and {@code code + 1} (low half; 0 when empty), so that a probe reads one slot (one cache
 * miss in a large table, where a slot array beside a hash array cost two), compares strings only when the hashes agree,
 * and growing never touches them. Not thread-safe.
 */
final class StringCodeMap {

    private long[] slots = new long[64];
    private int count;

    /**
     * The code of {@code key}, looked up in {@code byCode}; when absent, records {@code code} for it (the caller then
     * stores {@code byCode[code] = key}) and returns -1.
     */
    int putIfAbsent(String key, int code, String[] byCode) {
        int h = key.hashCode();
        int mask = slots.length - 1;
        int i = spread(h) & mask;
        for (long s = slots[i]; s != 0; s = slots[i]) {
            int c = (int) s - 1;
            if ((int) (s >>> 32) == h && byCode[c].equals(key)) {
                return c;
            }
            i = (i + 1) & mask;
        }
        slots[i] = slot(h, code);
        if (++count * 2 > slots.length) {
            grow();
        }
        return -1;
    }

    /** The code of {@code key}, looked up in {@code byCode}, or -1. */
    int get(String key, String[] byCode) {
        int h = key.hashCode();
        int mask = slots.length - 1;
        for (int i = spread(h) & mask; slots[i] != 0; i = (i + 1) & mask) {
            long s = slots[i];
            int c = (int) s - 1;
            if ((int) (s >>> 32) == h && byCode[c].equals(key)) {
                return c;
            }
        }
        return -1;
    }

    private static long slot(int hash, int code) {
        return ((long) hash << 32) | ((code + 1) & 0xFFFF_FFFFL);
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        int mask = slots.length - 1;
        for (long s : old) {
            if (s != 0) {
                int i = spread((int) (s >>> 32)) & mask;
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = s;
            }
        }
    }

    private static int spread(int h) {
        int x = h * 0x9E3779B9;
        return x ^ (x >>> 16);
    }
}
