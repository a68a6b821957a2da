package io.numacube.engine.exec;

import java.util.Arrays;

/**
 * Open-addressing map from a 64-bit group key to a dense slot number (0, 1, 2, ... in insertion order), linear
 * probing, power-of-two capacity, load ≤ 1/2. Primitive arrays only: no boxing. One made {@link #ofSlots of its slots'
 * keys} hashes them only when first looked up. Not thread-safe: one per worker task.
 */
final class LongIntHashMap {

    private static final long EMPTY = Long.MIN_VALUE;

    private long[] keys;
    private int[] slots;
    private long[] keyOfSlot;
    private int size;
    private int mask;

    LongIntHashMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        Arrays.fill(keys, EMPTY);
        slots = new int[cap];
        keyOfSlot = new long[Math.max(16, expected)];
        mask = cap - 1;
    }

    /**
     * A map whose slot {@code s} holds {@code keyOfSlot[s]} for {@code s < size} (the keys distinct, each ≥ 0): the
     * slots' keys are kept as given, and hashed only by the first {@link #find} or {@link #slotOf}.
     */
    static LongIntHashMap ofSlots(long[] keyOfSlot, int size) {
        LongIntHashMap m = new LongIntHashMap(1);
        m.keys = null;
        m.slots = null;
        m.keyOfSlot = keyOfSlot;
        m.size = size;
        return m;
    }

    private void index() {
        int cap = Integer.highestOneBit(Math.max(16, size * 2 - 1)) << 1;
        keys = new long[cap];
        Arrays.fill(keys, EMPTY);
        slots = new int[cap];
        mask = cap - 1;
        for (int s = 0; s < size; s++) {
            int i = (int) (mix(keyOfSlot[s]) & mask);
            while (keys[i] != EMPTY) {
                i = (i + 1) & mask;
            }
            keys[i] = keyOfSlot[s];
            slots[i] = s;
        }
    }

    /** The slot of {@code key}, or -1 when it has none (nothing is added). */
    int find(long key) {
        if (keys == null) {
            index();
        }
        int i = (int) (mix(key) & mask);
        while (true) {
            long k = keys[i];
            if (k == key) {
                return slots[i];
            }
            if (k == EMPTY) {
                return -1;
            }
            i = (i + 1) & mask;
        }
    }

    /** The slot of {@code key}, assigning the next one when it is new. Keys are ≥ 0. */
    int slotOf(long key) {
        if (keys == null) {
            index();
        }
        int i = (int) (mix(key) & mask);
        while (true) {
            long k = keys[i];
            if (k == key) {
                return slots[i];
            }
            if (k == EMPTY) {
                return insert(i, key);
            }
            i = (i + 1) & mask;
        }
    }

    private int insert(int i, long key) {
        if ((size + 1) * 2 > keys.length) {
            grow();
            return slotOf(key);
        }
        keys[i] = key;
        slots[i] = size;
        if (size == keyOfSlot.length) {
            keyOfSlot = Arrays.copyOf(keyOfSlot, size * 2);
        }
        keyOfSlot[size] = key;
        return size++;
    }

    private void grow() {
        long[] ok = keys;
        int[] os = slots;
        keys = new long[ok.length * 2];
        Arrays.fill(keys, EMPTY);
        slots = new int[ok.length * 2];
        mask = keys.length - 1;
        for (int j = 0; j < ok.length; j++) {
            if (ok[j] != EMPTY) {
                int i = (int) (mix(ok[j]) & mask);
                while (keys[i] != EMPTY) {
                    i = (i + 1) & mask;
                }
                keys[i] = ok[j];
                slots[i] = os[j];
            }
        }
    }

    int size() {
        return size;
    }

    long keyAt(int slot) {
        return keyOfSlot[slot];
    }

    private static long mix(long k) {
        k *= 0x9E3779B97F4A7C15L;
        return k ^ (k >>> 32);
    }
}
