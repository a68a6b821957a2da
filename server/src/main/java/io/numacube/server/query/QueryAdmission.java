package io.numacube.server.query;

import io.numacube.numa.base.NumacubeException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admission control: at most {@code maxRunning} queries run at once and at most {@code maxQueued} more wait, in
 * arrival order, for one of them to finish; a query beyond that is refused at once with SQLSTATE 53300, so that a
 * burst of requests cannot pile unbounded work onto the cube. A permit is held until the engine returns, even when
 * the client stopped waiting (a timeout or a cancel), because the engine cannot stop a running query: abandoned
 * queries still count.
 *
 * <p>Thread-safe.
 */
public final class QueryAdmission {

    /** The right to run one query; {@link #close} gives it back (once). */
    @FunctionalInterface
    public interface Permit extends AutoCloseable {
        @Override
        void close();
    }

    private final int maxRunning;
    private final int maxQueued;
    private final Semaphore running;
    private final AtomicInteger queued = new AtomicInteger();

    public QueryAdmission(int maxRunning, int maxQueued) {
        if (maxRunning < 1 || maxQueued < 0) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "admission needs at least one running query and a non-negative queue: max-running=" + maxRunning
                            + " max-queued=" + maxQueued);
        }
        this.maxRunning = maxRunning;
        this.maxQueued = maxQueued;
        this.running = new Semaphore(maxRunning, true);
    }

    /**
     * Waits for a permit until {@code deadlineNanos} ({@link System#nanoTime()} scale; {@link Long#MAX_VALUE} for no
     * deadline).
     *
     * @throws NumacubeException 53300 when the queue is full, 57014 when the deadline passes while waiting
     * @throws InterruptedException when the waiting thread is interrupted (its query was abandoned)
     */
    public Permit admit(long deadlineNanos) throws InterruptedException {
        if (!running.tryAcquire()) {
            if (queued.incrementAndGet() > maxQueued) {
                queued.decrementAndGet();
                throw tooBusy();
            }
            try {
                long wait = deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - System.nanoTime();
                if (!running.tryAcquire(Math.max(0, wait), TimeUnit.NANOSECONDS)) {
                    throw new NumacubeException(
                            NumacubeException.Kind.INVALID_INPUT,
                            ClientError.QUERY_CANCELED,
                            "canceling statement due to statement timeout (it waited its whole timeout for one of the "
                                    + maxRunning + " running queries to finish)",
                            null,
                            null);
                }
            } finally {
                queued.decrementAndGet();
            }
        }
        java.util.concurrent.atomic.AtomicBoolean open = new java.util.concurrent.atomic.AtomicBoolean(true);
        return () -> {
            if (open.getAndSet(false)) {
                running.release();
            }
        };
    }

    /** Queries holding a permit now. */
    public int running() {
        return maxRunning - running.availablePermits();
    }

    /** Queries waiting for a permit now. */
    public int queued() {
        return queued.get();
    }

    private NumacubeException tooBusy() {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                ClientError.TOO_BUSY,
                "too busy: running=" + running() + " queued=" + queued.get() + " max-concurrent-queries=" + maxRunning
                        + " max-queued-queries=" + maxQueued + " — retry later",
                null,
                null);
    }
}
