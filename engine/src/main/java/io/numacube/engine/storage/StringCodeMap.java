package io.numacube.engine.storage;

/**
 * Open-addressing map from a string to its non-negative code, the strings themselves kept by the caller in an array
 * indexed by code: linear probing in a power-of-two table at most half full, each slot holding {@code code + 1} (0 when
 * empty) and the key's hash, so that a probe compares strings only when the hashes agree and growing never touches
 * them. Not thread-safe.
 */
final class StringCodeMap {

    private int[] slots = new int[64];
    private int[] hashes = new int[64];
    private int count;

    /**
     * The code of {@code key}, looked up in {@code byCode}; when absent, records {@code code} for it (the caller then
     * stores {@code byCode[code] = key}) and returns -1.
     */
    int putIfAbsent(String key, int code, String[] byCode) {
        int h = key.hashCode();
        int mask = slots.length - 1;
        int i = spread(h) & mask;
        for (int s = slots[i]; s != 0; s = slots[i]) {
            if (hashes[i] == h && byCode[s - 1].equals(key)) {
                return s - 1;
            }
            i = (i + 1) & mask;
        }
        slots[i] = code + 1;
        hashes[i] = h;
        if (++count * 2 > slots.length) {
            grow();
        }
        return -1;
    }

    /** The code of {@code key}, looked up in {@code byCode}, or -1. */
    int get(String key, String[] byCode) {
        int h = key.hashCode();
        int mask = slots.length - 1;
        for (int i = spread(h) & mask, s = slots[i]; s != 0; i = (i + 1) & mask, s = slots[i]) {
            if (hashes[i] == h && byCode[s - 1].equals(key)) {
                return s - 1;
            }
        }
        return -1;
    }

    private void grow() {
        int[] oldSlots = slots;
        int[] oldHashes = hashes;
        slots = new int[oldSlots.length * 2];
        hashes = new int[oldSlots.length * 2];
        int mask = slots.length - 1;
        for (int j = 0; j < oldSlots.length; j++) {
            if (oldSlots[j] != 0) {
                int i = spread(oldHashes[j]) & mask;
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = oldSlots[j];
                hashes[i] = oldHashes[j];
            }
        }
    }

    private static int spread(int h) {
        int x = h * 0x9E3779B9;
        return x ^ (x >>> 16);
    }
}
