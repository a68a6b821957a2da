package io.numacube.engine.exec;

import io.numacube.numa.base.NumacubeException;
import java.util.Arrays;
import java.util.Map;

/**
 * Codes the GROUP BY key of a batch's rows into group slots, for an {@link AggregationState}: over dense keys the
 * mixed-radix key itself, an array index; over sparse keys the slot of the key in the state's hash table, which grows
 * by the keys it has not seen. Each key column adds its code, mapped where the key is derived ({@link DerivedKey}) or
 * combined from several columns, times its stride; a derived value that failed to compute raises its error when a
 * row reaches it.
 *
 * <p>Invariants: the slots it writes are below the dense key space's size, or the hash table's size after the batch
 * (the state grows its {@link GroupValues} to match). Not thread-safe: owned by one state, and it writes the batch
 * vectors it shares with the other states of its worker.
 */
final class BatchGroupIds {

    private final GroupKeySpace keys;
    /** The state's hash table of group keys to slots; null over dense keys. */
    private final LongIntHashMap slots;

    private final BatchVectors vectors;

    BatchGroupIds(GroupKeySpace keys, LongIntHashMap slots, BatchVectors vectors) {
        this.keys = keys;
        this.slots = slots;
        this.vectors = vectors;
    }

    /**
     * Writes the group slot of every selected row of batch {@code [b, b + cnt)} (at {@code b + k}, or {@code sel[k]})
     * into the group-id vector, adding new groups to the hash table.
     */
    void assign(MorselView view, int b, int cnt, int[] sel) {
        if (keys.dense()) {
            assignDense(view, b, cnt, sel);
            checkFailures(view, b, cnt, sel);
            return;
        }
        int[] keyColumns = keys.columns();
        long[] strides = keys.strides();
        long[] key = vectors.groupKeys();
        Arrays.fill(key, 0, cnt, 0L);
        for (int i = 0; i < keyColumns.length; i++) {
            int c = keyColumns[i];
            if (keys.dependent(i)) {
                continue;
            }
            if (keys.multiSource(i)) {
                int[] idx = combined(view, i, b, cnt, sel);
                int[] map = keys.codeMaps()[i];
                for (int k = 0; k < cnt; k++) {
                    key[k] += map[idx[k]] * strides[i];
                }
            } else if (keys.plain(i)) {
                CodeKernels.addKeyLong(view.columns[c], view.widths[c], b, cnt, sel, strides[i], key);
            } else {
                CodeKernels.addKeyLongMapped(
                        view.columns[c], view.widths[c], b, cnt, sel, keys.codeMaps()[i], strides[i], key);
            }
        }
        checkFailures(view, b, cnt, sel);
        int[] gid = vectors.groupIds();
        for (int k = 0; k < cnt; k++) {
            gid[k] = slots.slotOf(key[k]);
        }
    }

    /** The dense group ids: the mixed-radix key of each row, an array index. */
    private void assignDense(MorselView view, int b, int cnt, int[] sel) {
        int[] keyColumns = keys.columns();
        long[] strides = keys.strides();
        int[] gid = vectors.groupIds();
        if (keyColumns.length == 0) {
            Arrays.fill(gid, 0, cnt, 0);
            return;
        }
        for (int i = 0; i < keyColumns.length; i++) {
            int c = keyColumns[i];
            if (keys.dependent(i)) {
                continue;
            }
            if (keys.multiSource(i)) {
                int[] idx = combined(view, i, b, cnt, sel);
                int[] map = keys.codeMaps()[i];
                int stride = (int) strides[i];
                for (int k = 0; k < cnt; k++) {
                    gid[k] = (i > 0 ? gid[k] : 0) + map[idx[k]] * stride;
                }
            } else if (!keys.plain(i)) {
                CodeKernels.keyIntMapped(
                        view.columns[c], view.widths[c], b, cnt, sel, keys.codeMaps()[i], (int) strides[i], i > 0, gid);
            } else if (i == 0) {
                CodeKernels.setKeyInt(view.columns[c], view.widths[c], b, cnt, sel, gid);
            } else {
                CodeKernels.addKeyInt(view.columns[c], view.widths[c], b, cnt, sel, (int) strides[i], gid);
            }
        }
    }

    /**
     * Raises the error of a derived key's value that failed to compute when a row of this batch reaches it (as
     * DuckDB computes values only for the rows it reads); costs nothing for keys without failures.
     */
    private void checkFailures(MorselView view, int b, int cnt, int[] sel) {
        for (int i = 0; i < keys.columns().length; i++) {
            Map<Integer, NumacubeException> failed = keys.failures()[i];
            if (failed == null) {
                continue;
            }
            int[] idx = vectors.valueRows();
            if (keys.multiSource(i)) {
                CodeKernels.combinedCodes(view, keys.sources()[i], keys.sourceStrides()[i], b, cnt, sel, idx);
            } else {
                int c = keys.columns()[i];
                for (int k = 0; k < cnt; k++) {
                    idx[k] = CodeKernels.code(view.columns[c], view.widths[c], sel == null ? b + k : sel[k]);
                }
            }
            for (int k = 0; k < cnt; k++) {
                if (keys.codeMaps()[i][idx[k]] == DerivedKey.FAILED) {
                    throw failed.get(idx[k]);
                }
            }
        }
    }

    /** The map index of multi-source key {@code i} for the batch's rows (in the value-rows vector, free here). */
    private int[] combined(MorselView view, int i, int b, int cnt, int[] sel) {
        int[] idx = vectors.valueRows();
        CodeKernels.combinedCodes(view, keys.sources()[i], keys.sourceStrides()[i], b, cnt, sel, idx);
        return idx;
    }
}
