package io.numacube.engine.exec;

/**
 * The group keys of a query as one mixed-radix number per group: key {@code = sum(code[i] * strides[i])} over the
 * key columns, where {@code code[i] < cardinalities[i]} is the row's dictionary code in column {@code columns[i]}, or,
 * for an attribute of the joined dimension table, {@code codeMaps[i][code]}: the attribute's code for the fact
 * join key's code (grouping by {@code books.region} reads the fact's book codes and maps them, so it costs what
 * grouping by a fact column costs).
 * The first {@code logicalKeys} columns are the query's GROUP BY; a post-processed aggregate appends the join key
 * after them, so {@code key % logicalSize} is the group of the result row the group rolls up into.
 *
 * <p>Invariants: {@code strides[0] == 1}, {@code strides[i + 1] == strides[i] * cardinalities[i]}, {@code size} is
 * the product of all cardinalities and at most 2^62; {@code dense} groups are indexed by key directly in arrays of
 * {@code size} (so {@code size} fits an int), others through a hash table. Immutable.
 *
 * @param columns       the fact columns of the keys, GROUP BY first
 * @param strides       the place value of each key column
 * @param cardinalities each key column's dictionary size (at least 1)
 * @param logicalKeys   how many of {@code columns} are the query's GROUP BY
 * @param logicalSize   the number of possible GROUP BY groups (the product of their cardinalities)
 * @param size          the number of possible groups over all key columns
 * @param dense         groups are array indices rather than hash-table slots
 * @param codeMaps      per key, the map from the fact column's codes to the key's codes, or null (the codes as they
 *                      are)
 * @param dictionaries  per key, the values of its codes (the fact column's dictionary, or the attribute's values)
 * @param sources       per key, null, or for a key computed from several fact columns (make_date(year, month, day))
 *                      those columns: its code is {@code codeMaps[i][sum(code(sources[i][j]) * sourceStrides[i][j])]}
 * @param sourceStrides per key with sources, the place value of each source column's code in the map's index
 * @param failures      per key, null, or the map entries ({@link DerivedKey#FAILED}) whose value failed to compute,
 *                      by map index, with their errors: a row that reaches one raises it
 * @param distinctFrom  the first key appended for a COUNT(DISTINCT ...) argument (keys from there on are those
 *                      arguments, in order); {@code columns.length} when there is none
 * @param sameAs        per key, -1, or for a GROUP BY key whose code is a function of an earlier key's code over
 *                      every code of their common source column (a joined table's attributes grouped with its key:
 *                      {@code GROUP BY c_custkey, c_name, c_address}), that earlier key: such a key adds nothing to
 *                      the space (its stride is 0, its cardinality counts 1 in {@code size}) and its code in a group
 *                      key is {@code via[i][code(key, sameAs[i])]}
 * @param via           per key with {@code sameAs}, its code for each code of that key; else null
 */
record GroupKeySpace(
        int[] columns,
        long[] strides,
        int[] cardinalities,
        int logicalKeys,
        long logicalSize,
        long size,
        boolean dense,
        int[][] codeMaps,
        io.numacube.engine.storage.Dictionary[] dictionaries,
        int[][] sources,
        int[][] sourceStrides,
        java.util.Map<Integer, io.numacube.numa.base.NumacubeException>[] failures,
        int distinctFrom,
        int[] sameAs,
        int[][] via) {

    /** Whether key {@code i} is a function of an earlier key's code ({@link #sameAs}), which stands for it. */
    boolean dependent(int i) {
        return sameAs[i] >= 0;
    }

    /** Whether key {@code i} reads its fact column's codes as they are (no attribute map). */
    boolean plain(int i) {
        return codeMaps[i] == null;
    }

    /** Whether key {@code i} is computed from several fact columns. */
    boolean multiSource(int i) {
        return sources[i] != null;
    }

    /** Whether every key reads its fact column's codes as they are. */
    boolean allPlain() {
        for (int[] m : codeMaps) {
            if (m != null) {
                return false;
            }
        }
        return true;
    }

    /** The dictionary code of key column {@code i} in group key {@code key}. */
    int code(long key, int i) {
        if (sameAs[i] >= 0) {
            return via[i][code(key, sameAs[i])];
        }
        return (int) ((key / strides[i]) % cardinalities[i]);
    }

    /** Whether keys were appended after the GROUP BY keys (a join key for post-processing, COUNT DISTINCT arguments). */
    boolean appendsJoinKey() {
        return columns.length > logicalKeys;
    }

    /** The GROUP BY part of {@code key}: the key of the result row it rolls up into. */
    long logicalKey(long key) {
        return appendsJoinKey() ? key % logicalSize : key;
    }
}
