package io.numacube.server.wal;

import io.numacube.numa.base.IoReason;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Group commit: appenders queue records and wait; one flusher thread takes everything queued, writes it and forces
 * it once, then wakes every appender whose record that force covered. While a force runs, new records queue up and
 * share the next one, so the number of fsyncs follows the disk's speed, not the number of appenders.
 *
 * <p>Why a dedicated flusher rather than a leader among the appenders: a {@link java.nio.channels.FileChannel} is
 * closed when a thread blocked in it is interrupted, and the server's request threads can be interrupted (an
 * abandoned request); a private thread that nobody interrupts keeps one caller's interrupt from closing the log for
 * all. Appenders wait uninterruptibly (the fsync is short) and keep their interrupt status.
 *
 * <p>Fails closed: once a write or force fails, no record is acknowledged any more (what that force would have
 * covered is unknown), every waiting and later append throws, and only reopening the log (recovery) continues.
 *
 * <p>Thread-safe: {@link #append} from any number of threads. LSNs are given in queue order, so records are written
 * in LSN order with no gap.
 */
final class GroupCommit implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(GroupCommit.class.getName());

    /** PostgreSQL's SQLSTATE for an I/O error. */
    static final String IO_ERROR = "58030";

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition queued = lock.newCondition();
    private final Condition committed = lock.newCondition();
    private final SegmentWriter writer;
    private final Thread flusher;
    private List<SegmentWriter.Pending> pending = new ArrayList<>();
    private long nextLsn;
    private long durableLsn;
    private String failure;
    private Throwable failureCause;
    private boolean closing;

    /** Starts the flusher; the next record gets {@code nextLsn}, and every record before it is durable. */
    GroupCommit(SegmentWriter writer, long nextLsn) {
        this.writer = writer;
        this.nextLsn = nextLsn;
        this.durableLsn = nextLsn - 1;
        this.flusher =
                Thread.ofPlatform().name("numacube-wal-flusher").daemon(true).unstarted(this::flushUntilClosed);
        flusher.start();
    }

    /** Queues the record and returns its LSN once it is durable; throws if it may not be. */
    long append(byte type, byte[] payload) {
        long lsn = enqueue(type, payload);
        awaitDurable(lsn);
        return lsn;
    }

    /** Queues the record for the flusher and returns its LSN at once; throws when the log refuses appends. */
    long enqueue(byte type, byte[] payload) {
        lock.lock();
        try {
            refuseWhenFailedOrClosed();
            long lsn = nextLsn++;
            pending.add(new SegmentWriter.Pending(lsn, type, payload));
            queued.signal();
            return lsn;
        } finally {
            lock.unlock();
        }
    }

    /** Returns once every record up to {@code lsn} is durable; throws if it may not be. */
    void awaitDurable(long lsn) {
        lock.lock();
        try {
            while (durableLsn < lsn) {
                if (failure != null) {
                    throw failedClosed("append not acknowledged: lsn=" + lsn);
                }
                committed.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }

    long nextLsn() {
        lock.lock();
        try {
            return nextLsn;
        } finally {
            lock.unlock();
        }
    }

    long durableLsn() {
        lock.lock();
        try {
            return durableLsn;
        } finally {
            lock.unlock();
        }
    }

    private void refuseWhenFailedOrClosed() {
        if (failure != null) {
            throw failedClosed("append refused");
        }
        if (closing) {
            throw new NumacubeException(
                    NumacubeException.Kind.INTERNAL,
                    "WAL is closed: append refused next-lsn=" + nextLsn + " — a write arrived after the log was"
                            + " closed");
        }
    }

    private NumacubeException failedClosed(String what) {
        return new NumacubeException(
                NumacubeException.Kind.PLATFORM,
                IO_ERROR,
                "WAL failed and refuses every append: " + what + " " + failure + " durable-lsn=" + durableLsn
                        + " — nothing was acknowledged after the failure; fix the disk and restart the server, which"
                        + " recovers from the log",
                null,
                failureCause);
    }

    private void flushUntilClosed() {
        while (true) {
            List<SegmentWriter.Pending> batch;
            long syncedLsn;
            lock.lock();
            try {
                while (pending.isEmpty() && !closing) {
                    queued.awaitUninterruptibly();
                }
                if (pending.isEmpty()) {
                    return;
                }
                batch = pending;
                pending = new ArrayList<>();
                syncedLsn = durableLsn;
            } finally {
                lock.unlock();
            }
            if (!commit(batch, syncedLsn)) {
                return;
            }
        }
    }

    /** Writes and forces one batch and wakes its appenders; false when it failed and the log is now closed. */
    private boolean commit(List<SegmentWriter.Pending> batch, long syncedLsn) {
        String failed;
        Throwable cause;
        try {
            writer.writeDurably(batch, syncedLsn);
            failed = null;
            cause = null;
        } catch (IOException e) {
            Path file = e instanceof FileSystemException fs && fs.getFile() != null
                    ? Path.of(fs.getFile())
                    : writer.activePath();
            failed = "file=" + file + " error=" + IoReason.of(e);
            cause = e;
        } catch (RuntimeException | Error e) {
            failed = "file=" + writer.activePath() + " error=" + e;
            cause = e;
        }
        lock.lock();
        try {
            if (failed == null) {
                durableLsn = batch.getLast().lsn();
            } else {
                failure = failed;
                failureCause = cause;
            }
            committed.signalAll();
        } finally {
            lock.unlock();
        }
        if (failed != null) {
            // an I/O error is the disk's, told in full by its reason; anything else is a bug and keeps its trace
            LOG.log(
                    System.Logger.Level.ERROR,
                    "WAL failed closed: " + failed,
                    cause instanceof IOException ? null : cause);
        }
        return failed == null;
    }

    /** Writes what is queued, stops the flusher and closes the active segment; later appends are refused. */
    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            closing = true;
            queued.signal();
        } finally {
            lock.unlock();
        }
        io.numacube.numa.base.Uninterruptibly.await(() -> {
            flusher.join();
            return null;
        });
        writer.close();
    }
}
