package io.numacube.engine.exec;

import io.numacube.engine.storage.Dictionary;
import java.util.ArrayList;
import java.util.List;

/**
 * The group keys of a plan as they are collected, before their radix is known: per key, the fact column the scan
 * reads, the map from its codes to the key's codes (null: the codes as they are), the key's values, and, for a key
 * computed from several fact columns, those columns and the place value of each in the map's index. Turned into a
 * {@link GroupKeySpace} by the compiler. One per plan; not thread-safe.
 */
final class KeyParts {

    final List<Integer> columns = new ArrayList<>();
    final List<int[]> maps = new ArrayList<>();
    final List<Dictionary> dictionaries = new ArrayList<>();
    final List<int[]> sources = new ArrayList<>();
    final List<int[]> sourceStrides = new ArrayList<>();
    final List<DerivedKey> derived = new ArrayList<>();
    /** Per key, null, or for a key compacted to the codes a mask passes, the source code of each of its codes. */
    final List<int[]> keptCodes = new ArrayList<>();
    /** Per key, null, or the mask whose passing codes a compacted key numbers ({@link #keptCodes}). */
    final List<boolean[]> keptUnder = new ArrayList<>();

    /** A fact column's codes as they are. */
    void plain(int column, Dictionary dictionary) {
        add(column, null, dictionary, null, null);
        derived.add(null);
    }

    /** A key computed from one fact column's codes through {@code key}'s map. */
    void derived(int column, DerivedKey key) {
        add(column, key.codeOfSourceCode(), key.dictionary(), null, null);
        derived.add(key);
    }

    /**
     * A fact column's codes that {@code passes} lets through, numbered anew in order by {@code key}'s map; {@code
     * sourceCodes[c]} the column's code that code {@code c} stands for.
     */
    void compacted(int column, DerivedKey key, int[] sourceCodes, boolean[] passes) {
        derived(column, key);
        keptCodes.set(keptCodes.size() - 1, sourceCodes);
        keptUnder.set(keptUnder.size() - 1, passes);
    }

    /** A key computed from several fact columns: its map is indexed by their combined codes. */
    void combined(int[] columns, int[] strides, DerivedKey key) {
        add(columns[0], key.codeOfSourceCode(), key.dictionary(), columns, strides);
        derived.add(key);
    }

    /** Per key, the codes whose value failed and their errors, or null when none failed. */
    java.util.Map<Integer, io.numacube.numa.base.NumacubeException>[] failures() {
        @SuppressWarnings("unchecked")
        java.util.Map<Integer, io.numacube.numa.base.NumacubeException>[] out = new java.util.Map[derived.size()];
        for (int i = 0; i < out.length; i++) {
            DerivedKey d = derived.get(i);
            out[i] = d == null || d.errors().isEmpty() ? null : d.errors();
        }
        return out;
    }

    private void add(int column, int[] map, Dictionary dictionary, int[] multi, int[] strides) {
        columns.add(column);
        maps.add(map);
        dictionaries.add(dictionary);
        sources.add(multi);
        sourceStrides.add(strides);
        keptCodes.add(null);
        keptUnder.add(null);
    }

    int size() {
        return columns.size();
    }

    int[] columnArray() {
        return columns.stream().mapToInt(Integer::intValue).toArray();
    }
}
