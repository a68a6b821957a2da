package io.numacube.server.query;

import io.numacube.engine.Cube;
import io.numacube.numa.base.NumacubeException;
import java.time.Duration;

/**
 * Runs clients' SQL on the cube for both front ends: admission control ({@link QueryAdmission}), a deadline per
 * query, cancellation by abandoning ({@link RunningQuery}), and a drain for shutdown. It does not own the cube: the
 * caller opens and closes it.
 *
 * <p>Thread-safe: any number of client threads may start queries at once.
 */
public final class QueryService {

    private final Cube cube;
    private final QueryAdmission admission;
    private final Duration defaultTimeout;
    private final Object inFlightLock = new Object();
    private int inFlight;
    private volatile boolean closed;

    /**
     * @param defaultTimeout the deadline of a query that names none; {@link Duration#ZERO} for none
     */
    public QueryService(Cube cube, QueryAdmission admission, Duration defaultTimeout) {
        this.cube = java.util.Objects.requireNonNull(cube, "cube must not be null");
        this.admission = java.util.Objects.requireNonNull(admission, "admission must not be null");
        this.defaultTimeout = java.util.Objects.requireNonNull(defaultTimeout, "defaultTimeout must not be null");
    }

    public Cube cube() {
        return cube;
    }

    public QueryAdmission admission() {
        return admission;
    }

    public Duration defaultTimeout() {
        return defaultTimeout;
    }

    /**
     * Starts {@code sql} on its own virtual thread and returns at once.
     *
     * @param timeout its deadline from now: null for the default, {@link Duration#ZERO} for none
     * @throws NumacubeException 57P01 once the service is draining for shutdown
     */
    public RunningQuery start(String sql, Duration timeout) {
        java.util.Objects.requireNonNull(sql, "sql must not be null");
        Duration t = timeout == null ? defaultTimeout : timeout;
        long deadline = t.isZero() || t.isNegative() ? Long.MAX_VALUE : System.nanoTime() + t.toNanos();
        RunningQuery q = new RunningQuery(sql, deadline);
        synchronized (inFlightLock) {
            if (closed) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        ClientError.SHUTTING_DOWN,
                        "terminating: the server is shutting down",
                        null,
                        null);
            }
            inFlight++;
        }
        Thread.ofVirtual().name("numacube-query").start(() -> {
            try {
                q.run(cube, admission);
            } finally {
                synchronized (inFlightLock) {
                    inFlight--;
                    inFlightLock.notifyAll();
                }
            }
        });
        return q;
    }

    /** Runs {@code sql} and waits for its answer: {@link #start} then {@link RunningQuery#await}. */
    public io.numacube.engine.result.QueryResult run(String sql, Duration timeout) {
        return start(sql, timeout).await();
    }

    /** Queries started and not yet returned by the engine (abandoned ones included). */
    public int inFlight() {
        synchronized (inFlightLock) {
            return inFlight;
        }
    }

    /**
     * Refuses new queries from now on and waits up to {@code wait} for those in flight to finish.
     *
     * @return true when none is left
     */
    public boolean drain(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        synchronized (inFlightLock) {
            closed = true;
            while (inFlight > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(inFlightLock, left);
            }
            return true;
        }
    }
}
