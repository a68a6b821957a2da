package io.numacube.engine.exec;

import io.numacube.engine.storage.Partition;
import java.util.ArrayList;
import java.util.List;

/**
 * The aggregation state of one block of morsels (the sink of a physical aggregation operator): per group, a row count
 * and the plan's {@link Accumulator}s ({@link GroupValues}), in dense arrays indexed by group key or behind a hash table
 * of keys to slots with growing arrays; plus the counters of the scan. The contract, as DuckDB's operators have it:
 * {@link #sink} folds in one morsel at a time; {@link #combine} adds another block's state into this one, in a fixed
 * order (see {@link QueryExecutor}); {@link ResultFinalizer} finalizes the merged state into the result.
 *
 * <p>A morsel is folded in by one loop where the plan allows ({@link FusedMorselSums}, or the cell scan of
 * {@link CodeSums}), else a batch at a time: {@link BatchSelection} keeps the rows the WHERE passes,
 * {@link BatchGroupIds} codes their group slots, {@link BatchAccumulation} adds them into the group values.
 *
 * <p>Invariants: its {@link GroupValues} hold at least one slot per group ({@link #groups}): the dense key space, or
 * every key in the hash table; a group with a zero row count holds no value. Not thread-safe: owned by one task until
 * its block is done, then read by the merging thread.
 */
final class AggregationState {

    static final int BATCH = 2048;

    private final PhysicalPlan plan;
    private final GroupKeySpace keys;
    /** The hash table of group keys to slots; null over dense keys, whose key is the slot. */
    private final LongIntHashMap slots;

    private final GroupValues values;
    /** The worker's batch vectors, which every part of the sink below writes; shared with its other states. */
    private final BatchVectors vectors;

    /** The loop that folds a whole morsel in without batches, where the plan allows, or null. */
    private final FusedMorselSums fused;
    /** The exact SUMs and the row count kept per code and drained into {@link #values}. */
    private final CodeSums codeSums;

    private final BatchSelection selection;
    private final BatchGroupIds groupIds;
    private final BatchAccumulation accumulation;

    long morsels;
    long morselsHome;
    long rowsScanned;

    AggregationState(PhysicalPlan plan) {
        this(plan, BatchVectors.of(plan));
    }

    /**
     * A fresh state for one block of morsels that borrows {@code vectorOwner}'s batch vectors: only one of them may
     * run at a time (the worker thread that owns both), and the vectors hold nothing between morsels.
     */
    AggregationState(AggregationState vectorOwner) {
        this(vectorOwner.plan, vectorOwner.vectors);
    }

    private AggregationState(PhysicalPlan plan, BatchVectors vectors) {
        this(
                plan,
                vectors,
                plan.keys().dense() ? null : new LongIntHashMap(1024),
                plan.keys().dense() ? (int) plan.keys().size() : 1024);
    }

    private AggregationState(PhysicalPlan plan, BatchVectors vectors, LongIntHashMap slots, int capacity) {
        this.plan = plan;
        this.keys = plan.keys();
        this.slots = slots;
        this.values = new GroupValues(plan.accumulators(), capacity);
        this.vectors = vectors;
        this.fused = FusedMorselSums.of(plan, values);
        this.codeSums = new CodeSums(plan, values);
        this.selection = new BatchSelection(plan, vectors);
        this.groupIds = new BatchGroupIds(keys, slots, vectors);
        this.accumulation = new BatchAccumulation(plan.accumulators(), vectors, values, codeSums);
    }

    /** Number of group slots: the dense space, or the slots used in the hash table. */
    int groups() {
        return keys.dense() ? (int) keys.size() : slots.size();
    }

    /** The group key of a group slot. */
    long keyOf(int group) {
        return keys.dense() ? group : slots.keyAt(group);
    }

    /**
     * Folds in morsel {@code m} of {@code p}, applying the masks whose bit is set in {@code activeMasks} (the others
     * pass every code in this morsel by its zone map).
     */
    void sink(Partition p, int m, long activeMasks) {
        int first = m * p.morselRows();
        int rows = Math.min(p.morselRows(), p.rows() - first);
        MorselView view = vectors.view();
        view.set(p, first, rows, plan.scan());
        morsels++;
        rowsScanned += rows;
        long[] deleted = plan.fact().deleted().anyIn(p.id(), first, first + rows)
                ? plan.fact().deleted().of(p.id())
                : null;
        if (fused != null && selection.noMaskActive(activeMasks) && deleted == null && fused.serves(view)) {
            fused.sink(view, rows);
            return;
        }
        if (codeSums.startMorsel(view) && deleted == null && codeSums.sinkCellScan(view, rows, activeMasks)) {
            return;
        }
        for (int b = 0; b < rows; b += BATCH) {
            int n = Math.min(BATCH, rows - b);
            int[] sel = selection.select(view, b, n, activeMasks, deleted, first);
            int cnt = selection.selected();
            if (cnt == 0) {
                continue;
            }
            groupIds.assign(view, b, cnt, sel);
            if (slots != null) {
                values.ensureCapacity(slots.size());
            }
            accumulation.add(view, b, cnt, sel);
        }
        codeSums.drain();
    }

    /** Adds {@code other}'s groups into this state (the combine step): counts, sums, minimums, maximums. */
    void combine(AggregationState other) {
        addCounters(other);
        int groups = other.groups();
        GroupValues from = other.values;
        for (int go = 0; go < groups; go++) {
            if (from.rowCounts[go] == 0) {
                continue;
            }
            int g;
            if (keys.dense()) {
                g = go;
            } else {
                g = slots.slotOf(other.slots.keyAt(go));
                values.ensureCapacity(slots.size());
            }
            values.combineGroup(g, from, go, false);
        }
    }

    /** Adds {@code other}'s morsel and row counters (not its groups) into this state's. */
    void addCounters(AggregationState other) {
        morsels += other.morsels;
        morselsHome += other.morselsHome;
        rowsScanned += other.rowsScanned;
    }

    /**
     * Readies this dense state for {@link #combineSlots} from several threads at once: the per-slot arrays that a
     * combine of {@code others} could allocate (NULL counts, SUM carries) are allocated here first, zeroed.
     */
    void prepareSlotCombine(List<AggregationState> others) {
        List<GroupValues> from = new ArrayList<>(others.size());
        for (AggregationState o : others) {
            from.add(o.values);
        }
        values.prepareSlotCombine(from);
    }

    /**
     * {@link #combine} of dense group slots {@code [from, to)} of {@code other} (its row counters excepted): threads
     * that combine disjoint slot ranges into one state after {@link #prepareSlotCombine} do not touch each other's
     * slots, nor allocate (it allocated what {@link GroupValues#combineGroup} could).
     */
    void combineSlots(AggregationState other, int from, int to) {
        GroupValues o = other.values;
        for (int g = from; g < to; g++) {
            if (o.rowCounts[g] != 0) {
                values.combineGroup(g, o, g, false);
            }
        }
    }

    /** Whether this state's groups are kept by a hash table of their keys (not dense arrays indexed by key). */
    boolean sparse() {
        return !keys.dense();
    }

    /**
     * {@link #combine} of the groups of {@code other} whose key is in hash range {@code range} of {@code 2^bits}
     * ({@link #rangeOf}); where {@code first}, a group new here takes {@code other}'s values as they are, as the first
     * state of a serial combine does, so that every group ends bit-identical to a serial combine of the same states in
     * the same order. For sparse keys only.
     */
    void combineRange(AggregationState other, int range, int bits, boolean first) {
        int groups = other.groups();
        GroupValues from = other.values;
        for (int go = 0; go < groups; go++) {
            long key = other.slots.keyAt(go);
            if (from.rowCounts[go] == 0 || rangeOf(key, bits) != range) {
                continue;
            }
            int g = slots.slotOf(key);
            values.ensureCapacity(slots.size());
            values.combineGroup(g, from, go, first);
        }
    }

    /** The hash range of {@code 2^bits} that a group key falls in (its hash's top bits). */
    static int rangeOf(long key, int bits) {
        return bits == 0 ? 0 : (int) ((key * 0xC2B2AE3D27D4EB4FL) >>> (64 - bits));
    }

    /**
     * One state holding the groups of {@code parts} (sparse states of disjoint keys) in their order, part after part,
     * for {@link ResultFinalizer}: arrays copied, keys kept, their hash table built only if a lookup ever asks. Its
     * morsel and row counters start at zero ({@link #addCounters}).
     */
    static AggregationState concat(PhysicalPlan plan, List<AggregationState> parts) {
        int n = 0;
        for (AggregationState p : parts) {
            n += p.groups();
        }
        int capacity = Math.max(16, n);
        long[] keyOfSlot = new long[capacity];
        AggregationState c =
                new AggregationState(plan, BatchVectors.of(plan), LongIntHashMap.ofSlots(keyOfSlot, n), capacity);
        int at = 0;
        for (AggregationState p : parts) {
            int g = p.groups();
            for (int s = 0; s < g; s++) {
                keyOfSlot[at + s] = p.slots.keyAt(s);
            }
            c.values.copyGroups(p.values, at, g);
            at += g;
        }
        return c;
    }

    /** The per-group values: row counts, accumulators, SUM carries and NULL counts ({@link GroupValues}). */
    GroupValues values() {
        return values;
    }
}
