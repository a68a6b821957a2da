package io.numacube.server.durable;

import io.numacube.server.write.WriteService;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes checkpoints while the server runs, as {@link CheckpointPolicy} says, on one daemon thread that looks once a
 * second. A failed checkpoint is logged as a warning and tried again at the next look (the previous checkpoint and the
 * WAL stay current meanwhile, so nothing is lost, the WAL only grows).
 *
 * <p>Thread-safe. {@link #close} stops it and waits for a checkpoint in progress; the thread is never interrupted (an
 * interrupt inside a {@link java.nio.channels.FileChannel} would close the file it writes).
 */
public final class CheckpointSchedule implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(CheckpointSchedule.class.getName());

    private final DurableStore store;
    private final WriteService writes;
    private final CheckpointPolicy policy;
    private final Duration look;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition stopping = lock.newCondition();
    private final Thread thread;
    private boolean stopped;

    private CheckpointSchedule(DurableStore store, WriteService writes, CheckpointPolicy policy, Duration look) {
        this.store = store;
        this.writes = writes;
        this.policy = policy;
        this.look = look;
        this.thread =
                Thread.ofPlatform().name("numacube-checkpoint").daemon(true).unstarted(this::run);
    }

    /** Starts checkpointing {@code writes}' cube into {@code store} as {@code policy} says; the last one was now. */
    public static CheckpointSchedule start(DurableStore store, WriteService writes, CheckpointPolicy policy) {
        return start(store, writes, policy, Duration.ofSeconds(1));
    }

    /** As {@link #start(DurableStore, WriteService, CheckpointPolicy)}, looking every {@code look}. */
    static CheckpointSchedule start(DurableStore store, WriteService writes, CheckpointPolicy policy, Duration look) {
        CheckpointSchedule s = new CheckpointSchedule(store, writes, policy, look);
        s.thread.start();
        return s;
    }

    private void run() {
        long last = System.nanoTime();
        while (waitALook()) {
            Duration since = Duration.ofNanos(System.nanoTime() - last);
            if (!policy.due(since, store.walBytesSinceCheckpoint(), store.hasWritesSinceCheckpoint())) {
                continue;
            }
            try {
                DurableStore.Checkpointed c = store.checkpoint(writes);
                last = System.nanoTime();
                if (c.written()) {
                    LOG.log(System.Logger.Level.INFO, describe(c));
                }
            } catch (RuntimeException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "checkpoint failed (the WAL keeps every write; trying again in " + look.toSeconds() + " s): "
                                + e.getMessage());
            }
        }
    }

    /** One line for a log: {@code checkpoint 4: lsn=120 tables=3 rows=100120 bytes=7311234 in 0.84 s}. */
    public static String describe(DurableStore.Checkpointed c) {
        return String.format(
                java.util.Locale.ROOT,
                "checkpoint %d: lsn=%d tables=%d rows=%d bytes=%d in %.2f s",
                c.manifest().generation(),
                c.manifest().lsn(),
                c.manifest().tables().size(),
                c.rows(),
                c.bytes(),
                c.nanos() / 1e9);
    }

    /** Waits one look; false once stopped. */
    private boolean waitALook() {
        lock.lock();
        try {
            long left = look.toNanos();
            while (!stopped && left > 0) {
                left = stopping.awaitNanos(left);
            }
            return !stopped;
        } catch (InterruptedException e) {
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Stops looking and waits up to a minute for a checkpoint in progress. Idempotent. */
    @Override
    public void close() {
        lock.lock();
        try {
            stopped = true;
            stopping.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            thread.join(TimeUnit.MINUTES.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
