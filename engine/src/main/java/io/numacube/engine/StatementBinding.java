package io.numacube.engine;

import io.numacube.engine.ingest.StagedTableLoader;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.result.Cancellation;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.SqlBinder;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.PlacementTarget;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Binds a cube's statements over one snapshot of its tables into logical queries ({@link LogicalQuery}) and hands
 * each to its caller's continuation with the temporary tables it reads. A statement without subqueries, LEFT JOIN or
 * information_schema view is bound in one step ({@link SqlBinder#bind}), a query's possibly kept from before by
 * {@link BoundStatements}; any other is bound in steps: its subqueries run first ({@link Subqueries}) through the
 * cube's {@link Execution}, and their rows, and the views' ({@link InformationSchema}), are placed as temporary tables.
 *
 * <p>Invariants: a statement reads only the snapshot it was given and its own temporary tables, which no other
 * statement sees; every temporary table a statement placed is freed when its continuation returns or anything throws,
 * so a continuation must not keep them. A statement kept by {@link BoundStatements} is reused only over the snapshot
 * it was bound over (its generation). Nothing here changes the cube's tables.
 *
 * <p>Thread-safety: holds no state of its own between statements, so any number of threads may bind at once, each
 * over a snapshot it holds open (under the cube's read lock). Owned by its {@link CubeQueries}.
 */
final class StatementBinding {

    /** Runs a bound statement over a snapshot and the statement's temporary tables: the cube's execution. */
    @FunctionalInterface
    interface Execution {

        /** Runs {@code lq} over {@code snapshot} and {@code temps}, its time counted from {@code start}. */
        QueryResult run(
                CubeTables.Snapshot snapshot,
                LogicalQuery lq,
                Map<String, FactTable> temps,
                long start,
                Cancellation cancel);
    }

    private final BoundStatements boundStatements;
    private final Execution execution;
    private final Supplier<PlacementTarget> temporaryTarget;

    /**
     * @param boundStatements the statements bound in one step, kept per snapshot
     * @param execution       runs a subquery once it is bound
     * @param temporaryTarget where a temporary table is placed at the time it is placed
     */
    StatementBinding(BoundStatements boundStatements, Execution execution, Supplier<PlacementTarget> temporaryTarget) {
        this.boundStatements = boundStatements;
        this.execution = execution;
        this.temporaryTarget = temporaryTarget;
    }

    /** {@code sql} bound and not run, for its parameters' types: a DELETE's WHERE as a query, an UPDATE's SET too. */
    Object bindOnly(CubeTables.Snapshot snapshot, String sql, Cancellation cancellation) {
        if (StatementText.isDelete(sql)) {
            return bound(snapshot, StatementText.selectOfDelete(sql), (lq, temps) -> lq, cancellation);
        }
        if (StatementText.isUpdate(sql)) {
            io.numacube.engine.sql.UpdateStatement st = io.numacube.engine.sql.UpdateStatement.parse(sql);
            CubeTables.Version v = snapshot.version(st.table());
            if (v == null) {
                throw Cube.noSuchTable(st.table(), snapshot);
            }
            return boundTree(snapshot, () -> st.values(v.table().schema()), false, (lq, temps) -> lq, cancellation);
        }
        return bound(snapshot, sql, (lq, temps) -> lq, cancellation);
    }

    /**
     * Whether the text may hold a subquery or WITH (a second SELECT), a LEFT JOIN that {@link EagerAggregation}
     * may rewrite into one, or no FROM clause of its own (a SELECT without FROM reads a one-row table, {@link
     * Subqueries}): such statements are run in steps.
     */
    private static boolean hasSubqueries(String sql) {
        java.util.regex.Matcher m = SELECT_WORD.matcher(sql);
        return (m.find() && m.find()) || LEFT_JOIN.matcher(sql).find() || !StatementText.hasTopLevelFrom(sql);
    }

    private static final java.util.regex.Pattern SELECT_WORD = java.util.regex.Pattern.compile("(?i)\\bselect\\b");

    private static final java.util.regex.Pattern LEFT_JOIN =
            java.util.regex.Pattern.compile("(?i)\\bleft\\s+(outer\\s+)?join\\b");

    /**
     * Binds {@code sql} over {@code snapshot} and hands it to {@code then} with the temporary tables it reads: a
     * statement with subqueries has them run first, as temporary tables or values ({@link Subqueries}), freed after,
     * each checking {@code cancel}; one that names information_schema reads its views ({@link InformationSchema}) of
     * the snapshot's tables, staged as temporary tables too.
     */
    private <T> T bound(
            CubeTables.Snapshot snapshot,
            String sql,
            java.util.function.BiFunction<LogicalQuery, Map<String, FactTable>, T> then,
            Cancellation cancel) {
        return bound(snapshot, sql, TableWrite.clockNow(), then, cancel);
    }

    /** As {@link #bound(CubeTables.Snapshot, String, java.util.function.BiFunction, Cancellation)}, the statement's
     * clock functions, its subqueries' included, reading {@code wallClock}. */
    <T> T bound(
            CubeTables.Snapshot snapshot,
            String sql,
            LocalDateTime wallClock,
            java.util.function.BiFunction<LogicalQuery, Map<String, FactTable>, T> then,
            Cancellation cancel) {
        return bound(
                snapshot,
                sql,
                wallClock,
                then,
                cancel,
                () -> SqlBinder.bind(sql, new SnapshotCatalog(snapshot, Map.of()), wallClock));
    }

    /**
     * As {@link #bound}, a statement bound in one step (no subquery, no information_schema view) by {@code oneStep},
     * any other from its tree.
     */
    private <T> T bound(
            CubeTables.Snapshot snapshot,
            String sql,
            LocalDateTime wallClock,
            java.util.function.BiFunction<LogicalQuery, Map<String, FactTable>, T> then,
            Cancellation cancel,
            java.util.function.Supplier<LogicalQuery> oneStep) {
        boolean views = InformationSchema.named(sql);
        if (!hasSubqueries(sql) && !views) {
            return then.apply(oneStep.get(), Map.of());
        }
        return boundTree(snapshot, () -> SqlBinder.parse(sql, wallClock), views, then, cancel);
    }

    /**
     * As {@link #bound}, a statement bound in one step taken from {@link #boundStatements} where it was bound over
     * this very snapshot before (and kept there). Only for {@link CubeQueries#query}: binding records nothing aside
     * there.
     */
    QueryResult boundOrKept(
            CubeTables.Snapshot snapshot,
            String sql,
            LocalDateTime wallClock,
            java.util.function.BiFunction<LogicalQuery, Map<String, FactTable>, QueryResult> then,
            Cancellation cancel) {
        return bound(
                snapshot,
                sql,
                wallClock,
                then,
                cancel,
                () -> boundStatements.bound(
                        sql,
                        snapshot.generation(),
                        () -> SqlBinder.bind(sql, new SnapshotCatalog(snapshot, Map.of()), wallClock)));
    }

    /**
     * As {@link #bound}, for a statement parsed already ({@code parsed} is called once): its subqueries run first as
     * temporary tables or values, and with {@code views} it reads information_schema's views.
     */
    <T> T boundTree(
            CubeTables.Snapshot snapshot,
            java.util.function.Supplier<org.apache.calcite.sql.SqlNode> parsed,
            boolean views,
            java.util.function.BiFunction<LogicalQuery, Map<String, FactTable>, T> then,
            Cancellation cancel) {
        Map<String, FactTable> temps = new java.util.LinkedHashMap<>();
        try {
            if (views) {
                List<TableSchema> schemas = snapshot.versions().stream()
                        .map(v -> v.table().schema())
                        .toList();
                InformationSchema.views(schemas)
                        .forEach(staging ->
                                temps.put(CubeTables.key(staging.schema().name()), loadTemporary(staging)));
            }
            java.util.function.Function<org.apache.calcite.sql.SqlNode, QueryResult> run = node -> execution.run(
                    snapshot,
                    SqlBinder.bind(node, new SnapshotCatalog(snapshot, temps)),
                    temps,
                    System.nanoTime(),
                    cancel);
            Subqueries subqueries = new Subqueries(
                    run,
                    staging -> temps.put(CubeTables.key(staging.schema().name()), loadTemporary(staging)),
                    new SnapshotCatalog(snapshot, temps));
            org.apache.calcite.sql.SqlNode root = subqueries.rewrite(parsed.get());
            return then.apply(SqlBinder.bind(root, new SnapshotCatalog(snapshot, temps)), temps);
        } finally {
            temps.values().forEach(FactTable::close);
        }
    }

    /** Places a subquery's rows as a table that no other statement sees. */
    private FactTable loadTemporary(TableStaging staging) {
        PlacementTarget target = temporaryTarget.get();
        FactTable t = StagedTableLoader.load(
                staging,
                io.numacube.engine.storage.Partitioning.AUTO,
                1,
                target.placement(),
                target.layout(),
                target.morselRows(),
                target.memory(),
                target.pool());
        t.coded().markTemporary();
        return t;
    }
}
