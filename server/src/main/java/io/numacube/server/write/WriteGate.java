package io.numacube.server.write;

import io.numacube.numa.base.NumacubeException;
import io.numacube.server.query.ClientError;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * Keeps the moments between a write's log and its append out of what a checkpoint sees. Every write holds the gate
 * shared from before it is logged until it is appended to the cube ({@link #write}); {@link #quiesced} holds it
 * exclusively, so while its action runs every write the log has made durable is in the cube and no other is.
 *
 * <p>States, one way only: open; <em>in doubt</em> when a write was logged but its append failed (the log holds a
 * write the cube lacks, so every later write and checkpoint is refused until a restart replays the log); stopped by
 * {@link #stop} (later writes are refused as the server shuts down; a checkpoint still runs).
 *
 * <p>Thread-safe. The lock is fair, so a waiting checkpoint is not starved by a steady stream of writers, and writers
 * wait at most for the checkpoint's capture, which takes no I/O.
 */
final class WriteGate {

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock(true);
    private volatile boolean stopped;
    private volatile String inDoubt;

    /** Runs {@code write} (log, then append) holding the gate shared. */
    <T> T write(Supplier<T> write) {
        lock.readLock().lock();
        try {
            refuseWhenClosed();
            return write.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Runs {@code action} while no write is between its log and its append. */
    <T> T quiesced(Supplier<T> action) {
        lock.writeLock().lock();
        try {
            if (inDoubt != null) {
                throw inDoubtError("no checkpoint is taken");
            }
            return action.get();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Records that a write was logged and its append then failed: the log holds it, the cube does not. */
    void markInDoubt(String table, Throwable failure) {
        inDoubt = "table=" + table + " error=" + failure;
    }

    /**
     * Refuses later writes and waits up to {@code wait} for those in flight; true when none is left. Idempotent.
     */
    boolean stop(Duration wait) {
        stopped = true;
        try {
            if (!lock.writeLock().tryLock(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                return false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        lock.writeLock().unlock();
        return true;
    }

    private void refuseWhenClosed() {
        if (inDoubt != null) {
            throw inDoubtError("writes are refused");
        }
        if (stopped) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    ClientError.SHUTTING_DOWN,
                    "terminating: the server is shutting down and takes no more writes",
                    null,
                    null);
        }
    }

    private NumacubeException inDoubtError(String what) {
        return new NumacubeException(
                NumacubeException.Kind.PLATFORM,
                "58000",
                "a logged write could not be applied, so " + what + ": " + inDoubt
                        + " — restart the server: recovery replays the log, that write included",
                null,
                null);
    }
}
