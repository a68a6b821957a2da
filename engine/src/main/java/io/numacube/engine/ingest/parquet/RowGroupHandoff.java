package io.numacube.engine.ingest.parquet;

import io.numacube.engine.ingest.StagingBlock;

/**
 * Hands a file's decoded row groups from the workers that decode them to the one thread that stages them, in file
 * order. Workers {@link #claim} row groups in ascending order and deliver each one's block ({@link #done}) or failure
 * ({@link #failed}); the staging thread {@link #take}s them in ascending order. A worker may claim a row group only
 * while it is fewer than {@code window} ahead of the next one to be taken, so at most {@code window} decoded blocks wait
 * on the heap. After a failure no row group beyond the failed one is claimed: every earlier one still completes, so
 * the staging thread meets the first failure in file order, the one a reader going row by row would report.
 *
 * <p>Thread-safe (a monitor): any number of workers, one staging thread.
 */
final class RowGroupHandoff {

    private final int groups;
    private final int window;
    private final StagingBlock[] blocks;
    private final Throwable[] failures;
    /** Row groups below this may be claimed: the group count, or the first failed group. */
    private int limit;

    private int nextClaim;
    private int nextTake;
    /** Set when the workers cannot go on (one stopped outside a row group); {@link #take} throws it. */
    private Throwable aborted;

    /**
     * @param groups the file's row groups
     * @param window the most row groups claimed beyond the next one to take, at least 1
     */
    RowGroupHandoff(int groups, int window) {
        if (window < 1) {
            throw new IllegalArgumentException("the window holds at least one row group: window=" + window);
        }
        this.groups = groups;
        this.window = window;
        this.blocks = new StagingBlock[groups];
        this.failures = new Throwable[groups];
        this.limit = groups;
    }

    /** The next row group to decode, or -1 when there is none left (or the read stopped); waits at the window. */
    synchronized int claim() throws InterruptedException {
        while (nextClaim < limit && nextClaim >= nextTake + window && aborted == null) {
            wait();
        }
        if (nextClaim >= limit || aborted != null) {
            return -1;
        }
        return nextClaim++;
    }

    synchronized void done(int group, StagingBlock block) {
        blocks[group] = block;
        notifyAll();
    }

    /** Row group {@code group} cannot be read: no later one will be claimed. */
    synchronized void failed(int group, Throwable failure) {
        failures[group] = failure;
        limit = Math.min(limit, group + 1);
        notifyAll();
    }

    /** Stops the read: claims return -1 and {@link #take} throws {@code failure} (the first one given). */
    synchronized void abort(Throwable failure) {
        if (aborted == null) {
            aborted = failure;
        }
        notifyAll();
    }

    /**
     * Row group {@code group}'s block, waiting for it; the next call must ask for {@code group + 1}.
     *
     * @throws RowGroupFailure carrying the row group's failure, or the abort's
     */
    synchronized StagingBlock take(int group) throws InterruptedException {
        if (group != nextTake || group >= groups) {
            throw new IllegalStateException("row groups are taken in order: expected=" + nextTake + " got=" + group);
        }
        while (blocks[group] == null && failures[group] == null && aborted == null) {
            wait();
        }
        if (failures[group] != null) {
            throw new RowGroupFailure(failures[group]);
        }
        if (blocks[group] == null) {
            throw new RowGroupFailure(aborted);
        }
        StagingBlock b = blocks[group];
        blocks[group] = null;
        nextTake++;
        notifyAll();
        return b;
    }

    /** A row group's failure, as the worker met it ({@link #getCause()}). */
    static final class RowGroupFailure extends RuntimeException {
        RowGroupFailure(Throwable cause) {
            super(cause.toString(), cause, false, false);
        }
    }
}
