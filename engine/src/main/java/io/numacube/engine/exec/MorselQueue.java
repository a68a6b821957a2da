package io.numacube.engine.exec;

import io.numacube.engine.storage.Partition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The morsels of one node for one query, in blocks ({@link Block}: consecutive morsels of one partition, the unit
 * that a worker takes and folds into one state): filled before the workers start, then taken by a shared cursor.
 */
final class MorselQueue {
    static final int KEPT_PER_OWNER = 2;
    int[] partition = new int[64];
    int[] morsel = new int[64];
    long[] active = new long[64];
    int size;
    final List<Block> blocks = new ArrayList<>();
    private int blockStart;
    private PartitionMerger blockMerger;
    private int blockOfPartition;
    final AtomicInteger next = new AtomicInteger();
    /** The node's own workers; none: thieves take from it at once, down to the last block. */
    final int owners;

    final boolean ownerless;

    MorselQueue(int owners) {
        this.owners = owners;
        this.ownerless = owners == 0;
    }

    /** Appends a morsel; a block ends at {@code blockMorsels} morsels or where the partition changes. */
    void add(int p, int m, long activeMasks, PartitionMerger merger, int blockMorsels) {
        if (merger != blockMerger) {
            endBlock();
            blockMerger = merger;
            blockOfPartition = 0;
        } else if (size - blockStart >= blockMorsels) {
            endBlock();
        }
        if (size == partition.length) {
            partition = java.util.Arrays.copyOf(partition, size * 2);
            morsel = java.util.Arrays.copyOf(morsel, size * 2);
            active = java.util.Arrays.copyOf(active, size * 2);
        }
        partition[size] = p;
        morsel[size] = m;
        active[size] = activeMasks;
        size++;
    }

    /** Closes the block being filled, if it holds a morsel. */
    void endBlock() {
        if (size > blockStart) {
            blocks.add(new Block(blockStart, size, blockMerger, blockOfPartition++));
            blockStart = size;
        }
    }

    /**
     * Folds block {@code i} into a fresh state that borrows {@code vectorOwner}'s batch vectors and hands it to its
     * partition's merger. Returns the morsels run.
     */
    int runBlock(int i, List<Partition> parts, AggregationState vectorOwner, boolean home) {
        Block b = blocks.get(i);
        AggregationState state = new AggregationState(vectorOwner);
        for (int e = b.first(); e < b.end(); e++) {
            state.sink(parts.get(partition[e]), morsel[e], active[e]);
        }
        if (home) {
            state.morselsHome += b.end() - b.first();
        }
        b.merger().complete(b.indexInPartition(), state);
        return b.end() - b.first();
    }

    int take() {
        if (next.get() >= blocks.size()) {
            return -1;
        }
        int i = next.getAndIncrement();
        return i < blocks.size() ? i : -1;
    }

    /**
     * Whether a thief should take from this queue now: while more than {@value #KEPT_PER_OWNER} blocks per own
     * worker are left. The last ones stay with the owners, who are busy with a block each and will get to them
     * about as soon as a thief would, reading local memory instead of remote.
     */
    boolean worthStealing() {
        return ownerless || remaining() > (long) KEPT_PER_OWNER * owners;
    }

    /**
     * Whether one of this node's own workers has begun: thieves wait for that (sleeping briefly, then looking
     * again, for at most {@link #OWNER_PATIENCE_NANOS}), so a node whose workers are merely slow to wake (a
     * descheduled vCPU) keeps its morsels; stealing is for nodes that fall behind.
     */
    boolean started() {
        return ownerless || next.get() > 0;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int remaining() {
        return Math.max(0, blocks.size() - next.get());
    }

    /**
     * Consecutive queue entries {@code [first, end)}, all of one partition, folded into one state by one worker.
     *
     * @param indexInPartition the block's place among its partition's blocks: the order its state is merged in
     */
    record Block(int first, int end, PartitionMerger merger, int indexInPartition) {}
}
