package io.numacube.server.query;

import io.numacube.engine.Cube;
import io.numacube.engine.result.Cancellation;
import io.numacube.engine.result.QueryResult;
import io.numacube.numa.base.NumacubeException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One query submitted to a {@link QueryService}: it waits for admission, then runs on its own virtual thread, while
 * the client's thread {@link #await}s the answer until the query's deadline or a {@link #cancel}. A timeout or cancel
 * abandons the query: the client gets SQLSTATE 57014 at once; a query still queued leaves the queue, and one the
 * engine is running is told to stop ({@link Cancellation}: it does within about a block of morsels, freeing its
 * workers and its admission permit). A query of a transaction block reads the cube as the block's pending writes
 * would leave it ({@link Cube#queryAfter}).
 *
 * <p>Thread-safe: {@link #cancel} may be called from any thread (a PostgreSQL cancel request arrives on another
 * connection), {@link #await} from the client's.
 */
public final class RunningQuery {

    private static final System.Logger LOG = System.getLogger(RunningQuery.class.getName());
    private static final int QUEUED = 0;
    private static final int RUNNING = 1;
    private static final int ABANDONED = 2;

    private final String id;
    private final String sql;
    private final java.util.List<io.numacube.engine.TableWrite> pending;
    /** What the query's clock functions read; null: the clock as the query runs. */
    private final java.time.LocalDateTime wallClock;

    private final long deadlineNanos;
    private final long startNanos = System.nanoTime();
    private final Cancellation cancellation = new Cancellation();
    private final CompletableFuture<QueryResult> answer = new CompletableFuture<>();
    private final AtomicInteger state = new AtomicInteger(QUEUED);
    private volatile Thread thread;

    private final ServerMetrics metrics;
    private final java.util.concurrent.atomic.AtomicBoolean counted = new java.util.concurrent.atomic.AtomicBoolean();

    RunningQuery(
            String id,
            String sql,
            java.util.List<io.numacube.engine.TableWrite> pending,
            java.time.LocalDateTime wallClock,
            long deadlineNanos,
            ServerMetrics metrics) {
        this.wallClock = wallClock;
        this.metrics = metrics;
        this.id = id;
        this.sql = sql;
        this.pending = java.util.List.copyOf(pending);
        this.deadlineNanos = deadlineNanos;
    }

    /** Runs on the query's own thread: waits for a permit, then asks the engine. */
    void run(Cube cube, QueryAdmission admission) {
        thread = Thread.currentThread();
        try (QueryAdmission.Permit permit = admission.admit(deadlineNanos)) {
            if (!state.compareAndSet(QUEUED, RUNNING)) {
                return;
            }
            long start = System.nanoTime();
            try {
                answer.complete(
                        wallClock == null
                                ? cube.queryAfter(pending, sql, cancellation)
                                : cube.queryAfter(pending, sql, wallClock, cancellation));
            } finally {
                if (state.get() == ABANDONED) {
                    LOG.log(
                            System.Logger.Level.INFO,
                            "an abandoned query finished after {0} s: {1}",
                            String.format(java.util.Locale.ROOT, "%.3f", (System.nanoTime() - start) / 1e9),
                            sql.length() > 200 ? sql.substring(0, 200) + "..." : sql);
                }
            }
        } catch (InterruptedException e) {
            answer.completeExceptionally(cancelled("canceling statement due to user request"));
        } catch (Throwable t) {
            answer.completeExceptionally(t);
        }
    }

    /**
     * The answer, waiting until it comes, the deadline passes or the query is cancelled.
     *
     * @throws NumacubeException the engine's error, 57014 for a timeout or cancel, 53300 when admission refused it
     */
    public QueryResult await() {
        try {
            QueryResult r = awaitAnswer();
            if (counted.compareAndSet(false, true)) {
                metrics.query("ok", System.nanoTime() - startNanos);
                metrics.morsels(r.stats());
            }
            return r;
        } catch (RuntimeException e) {
            count(outcome(e));
            throw e;
        }
    }

    /** Tells the metrics how the query ended, once. */
    private void count(String outcome) {
        if (counted.compareAndSet(false, true)) {
            metrics.query(outcome, System.nanoTime() - startNanos);
        }
    }

    private static String outcome(RuntimeException e) {
        String code = e instanceof NumacubeException n ? n.code() : ClientError.INTERNAL;
        return switch (code) {
            case ClientError.QUERY_CANCELED -> e.getMessage().contains("timeout") ? "timeout" : "cancelled";
            case ClientError.TOO_BUSY -> "busy";
            case ClientError.INTERNAL -> "internal_error";
            default -> "error";
        };
    }

    private QueryResult awaitAnswer() {
        try {
            long wait = deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - System.nanoTime();
            return answer.get(Math.max(0, wait), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            abandon(cancelled("canceling statement due to statement timeout"));
            return awaitAnswer();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon(cancelled("canceling statement due to user request"));
            throw cancelled("canceling statement due to user request");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    /** Abandons the query as a client's cancel request does: its {@link #await} fails with 57014. */
    public void cancel() {
        abandon(cancelled("canceling statement due to user request"));
    }

    /** Its id in the {@link QueryService} (for {@code DELETE /v1/queries/ID}). */
    public String id() {
        return id;
    }

    public String sql() {
        return sql;
    }

    /** Seconds since it was submitted. */
    public double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** {@code queued}, {@code running} or {@code cancelled} (abandoned, its engine work stopping). */
    public String state() {
        return switch (state.get()) {
            case QUEUED -> "queued";
            case RUNNING -> answer.isCompletedExceptionally() ? "cancelled" : "running";
            default -> "cancelled";
        };
    }

    /** Whether the engine has the query now (admitted and not yet answered). */
    public boolean isRunningInEngine() {
        return state.get() == RUNNING && !answer.isDone();
    }

    private void abandon(NumacubeException why) {
        if (!answer.completeExceptionally(why)) {
            return;
        }
        cancellation.cancel(why.getMessage());
        if (state.compareAndSet(QUEUED, ABANDONED)) {
            Thread t = thread;
            if (t != null) {
                t.interrupt();
            }
        } else {
            state.set(ABANDONED);
        }
    }

    static NumacubeException cancelled(String message) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT, ClientError.QUERY_CANCELED, message, null, null);
    }
}
