package io.numacube.engine;

import io.numacube.engine.exec.QueryExecutor;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.result.Cancellation;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.sql.SqlBinder;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.PlacementTarget;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.NumacubeException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A cube's read path: a SQL query bound over one snapshot of the cube's tables ({@link StatementBinding}) and run by
 * the cube's workers, as an aggregation ({@link io.numacube.engine.exec.QueryExecutor}) or a projection of rows
 * ({@link io.numacube.engine.exec.ProjectionExecutor}): {@link Cube#query}, {@link Cube#queryAfter}; a statement bound
 * only for the types of its parameters ({@link Cube#parameterTypes}). The write path binds its statements (a DELETE's
 * or UPDATE's WHERE) with the same {@link #binding()}.
 *
 * <p>Invariants: each query reads the one snapshot it was given, from binding to its last subquery and its answer, and
 * its answer carries the versions of the cube's tables it read ({@link #withVersions}), never a temporary table's.
 * Nothing here changes the cube's tables.
 *
 * <p>Thread-safety: any number of threads may query at once. {@link #query} and {@link #parameterTypes} hold the
 * cube's read lock while they run (so {@link Cube#close()}, which takes it exclusively, waits for them) and check the
 * cube is open under it; {@link #queryOver} is called under it (and the load lock) by its caller. Owned by its {@link
 * Cube}, which frees the tables and the workers.
 */
final class CubeQueries {

    /**
     * What the queries need of their cube now: where a statement's temporary tables are placed, whether morsels are
     * stolen, and whether the cube is still open.
     */
    interface Host {

        /** Where a statement's temporary tables go now: the cube's placement, layout, morsel rows, memory, workers. */
        PlacementTarget placementTarget();

        /** Whether queries steal morsels across nodes now ({@link Cube#setWorkStealing}). */
        boolean workStealing();

        /** Throws when the cube is closed. */
        void checkOpen();
    }

    private final CubeTables tables;
    private final ReentrantReadWriteLock lock;
    private final StatementBinding binding;
    private final WorkerPool pool;
    private final Host host;

    /**
     * @param tables          the cube's tables, read one snapshot per statement
     * @param lock            the cube's lock: queries hold it shared, closing exclusively
     * @param boundStatements the statements bound in one step, kept per snapshot
     * @param pool            the cube's workers, which run every query
     * @param host            the cube, as its queries need it
     */
    CubeQueries(
            CubeTables tables,
            ReentrantReadWriteLock lock,
            BoundStatements boundStatements,
            WorkerPool pool,
            Host host) {
        this.tables = tables;
        this.lock = lock;
        this.pool = pool;
        this.host = host;
        this.binding = new StatementBinding(boundStatements, this::execute, host::placementTarget);
    }

    /** As {@link Cube#query(String, LocalDateTime, Cancellation)}. */
    QueryResult query(String sql, LocalDateTime wallClock, Cancellation cancel) {
        long start = System.nanoTime();
        lock.readLock().lock();
        try {
            host.checkOpen();
            try (CubeTables.Snapshot snapshot = tables.acquire()) {
                return binding.boundOrKept(
                        snapshot,
                        sql,
                        wallClock,
                        (lq, temps) -> withVersions(execute(snapshot, lq, temps, start, cancel), snapshot, lq),
                        cancel);
            }
        } catch (StackOverflowError e) {
            // a last guard: the binder bounds nesting, but no Error may escape as a stack trace
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "the query is nested too deeply to run" + " — simplify its expressions (nesting limit "
                            + SqlBinder.MAX_DEPTH + ")");
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Runs query {@code sql} over {@code view}, a snapshot its caller holds open (and the read lock), its time counted
     * from {@code start}: {@link Cube#queryAfter}'s query over the pending writes' private versions.
     */
    QueryResult queryOver(
            CubeTables.Snapshot view, String sql, LocalDateTime wallClock, long start, Cancellation cancel) {
        return binding.bound(
                view,
                sql,
                wallClock,
                (lq, temps) -> withVersions(execute(view, lq, temps, start, cancel), view, lq),
                cancel);
    }

    /** As {@link Cube#parameterTypes(String, Cancellation)}. */
    Map<Integer, ParameterType> parameterTypes(String sql, Cancellation cancellation) {
        lock.readLock().lock();
        try {
            host.checkOpen();
            try (CubeTables.Snapshot snapshot = tables.acquire()) {
                Map<Integer, ParameterType> out = new java.util.TreeMap<>();
                io.numacube.engine.sql.ParameterMarkers.collect(() -> binding.bindOnly(snapshot, sql, cancellation))
                        .forEach((n, t) -> out.put(n, new ParameterType(t.type(), t.scale())));
                return out;
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    /** How the cube's statements are bound over a snapshot: the write path binds its statements here too. */
    StatementBinding binding() {
        return binding;
    }

    /** {@code r} with the versions of the cube's tables {@code lq} read in {@code snapshot} (not temporary ones). */
    private static QueryResult withVersions(QueryResult r, CubeTables.Snapshot snapshot, LogicalQuery lq) {
        Map<String, Long> versions = new java.util.LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        names.add(lq.fact());
        lq.joins().forEach(j -> names.add(j.table()));
        for (String name : names) {
            CubeTables.Version v = snapshot.version(name);
            if (v != null) {
                versions.putIfAbsent(v.table().schema().name(), v.number());
            }
        }
        return r.withStats(r.stats().withVersions(versions));
    }

    /** Runs {@code lq} over its tables (a temporary table hides the snapshot's of its name), timed from start. */
    private QueryResult execute(
            CubeTables.Snapshot snapshot,
            LogicalQuery lq,
            Map<String, FactTable> temps,
            long start,
            Cancellation cancel) {
        FactTable fact = SnapshotCatalog.table(snapshot, lq.fact(), temps);
        List<FactTable> dimensions = lq.joins().stream()
                .map(j -> SnapshotCatalog.table(snapshot, j.table(), temps))
                .toList();
        if (lq.rows()) {
            return io.numacube.engine.exec.ProjectionExecutor.run(lq, fact, dimensions, pool, start, cancel);
        }
        return QueryExecutor.run(lq, fact, dimensions, pool, host.workStealing(), start, cancel);
    }
}
