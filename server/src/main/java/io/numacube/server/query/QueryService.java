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
    private final ServerMetrics metrics;
    private final Object inFlightLock = new Object();
    private final java.util.Map<String, RunningQuery> byId = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong nextId = new java.util.concurrent.atomic.AtomicLong(1);
    private int inFlight;
    private volatile boolean closed;

    /**
     * @param defaultTimeout the deadline of a query that names none; {@link Duration#ZERO} for none
     */
    public QueryService(Cube cube, QueryAdmission admission, Duration defaultTimeout) {
        this(cube, admission, defaultTimeout, new ServerMetrics());
    }

    /** As {@link #QueryService(Cube, QueryAdmission, Duration)}, telling {@code metrics} of each query. */
    public QueryService(Cube cube, QueryAdmission admission, Duration defaultTimeout, ServerMetrics metrics) {
        this.metrics = java.util.Objects.requireNonNull(metrics, "metrics must not be null");
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

    public ServerMetrics metrics() {
        return metrics;
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
        return start(sql, timeout, (String) null);
    }

    /**
     * As {@link #start(String, Duration)}, under the id the client chose (any text of 1 to 64 letters, digits, {@code
     * -}, {@code _} or {@code .}), or one given here when null.
     *
     * @throws NumacubeException 42710 when a query with that id is under way, 22023 for a malformed id
     */
    public RunningQuery start(String sql, Duration timeout, String id) {
        return start(sql, timeout, id, java.util.List.of(), null);
    }

    /**
     * As {@link #start(String, Duration)}, over the cube as {@code pending} writes (a transaction block's, not
     * committed) would leave it.
     */
    public RunningQuery start(String sql, Duration timeout, java.util.List<io.numacube.engine.TableWrite> pending) {
        return start(sql, timeout, null, pending, null);
    }

    /**
     * As {@link #start(String, Duration, java.util.List)}, the query's {@code now()}, {@code current_date} and their
     * synonyms reading {@code wallClock} (a transaction block's start), or the clock as it runs when null.
     */
    public RunningQuery start(
            String sql,
            Duration timeout,
            java.util.List<io.numacube.engine.TableWrite> pending,
            java.time.LocalDateTime wallClock) {
        return start(sql, timeout, null, pending, wallClock);
    }

    private RunningQuery start(
            String sql,
            Duration timeout,
            String id,
            java.util.List<io.numacube.engine.TableWrite> pending,
            java.time.LocalDateTime wallClock) {
        java.util.Objects.requireNonNull(sql, "sql must not be null");
        Duration t = timeout == null ? defaultTimeout : timeout;
        long deadline = t.isZero() || t.isNegative() ? Long.MAX_VALUE : System.nanoTime() + t.toNanos();
        if (id != null && !id.matches("[A-Za-z0-9_.-]{1,64}")) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a query id is 1 to 64 letters, digits, '-', '_' or '.': query_id=" + id);
        }
        RunningQuery q = new RunningQuery(
                id == null ? "q" + nextId.getAndIncrement() : id, sql, pending, wallClock, deadline, metrics);
        if (byId.putIfAbsent(q.id(), q) != null) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "42710",
                    "a query with this id is under way: query_id=" + id + " — choose another id",
                    null,
                    null);
        }
        synchronized (inFlightLock) {
            if (closed) {
                byId.remove(q.id(), q);
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
                byId.remove(q.id(), q);
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

    /** The query of that id, if it is under way (queued, running, or cancelled and still stopping). */
    public java.util.Optional<RunningQuery> find(String id) {
        return java.util.Optional.ofNullable(byId.get(id));
    }

    /** The queries under way, oldest first. */
    public java.util.List<RunningQuery> running() {
        return byId.values().stream()
                .sorted(java.util.Comparator.comparingDouble(RunningQuery::seconds)
                        .reversed())
                .toList();
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
