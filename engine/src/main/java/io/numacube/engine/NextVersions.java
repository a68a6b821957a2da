package io.numacube.engine;

import io.numacube.engine.exec.ProjectionExecutor;
import io.numacube.engine.ingest.StagedAppender;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.ingest.UpsertKeys;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.result.Cancellation;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.UpdateStatement;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.GrowingDictionary;
import io.numacube.engine.storage.Partition;
import io.numacube.engine.storage.TableCompactor;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Applies one write (an append or upsert, a DELETE, an UPDATE) to the unpublished next versions of a cube's tables, a
 * map by table key that its caller ({@link CubeWrites}) builds on one snapshot of the tables, and merges and frees such
 * versions. Each write makes its table's next version from the one before it in the map (the snapshot's where the map
 * has none), so a sequence of writes builds one next version per table.
 *
 * <p>Invariants: a next version in the map is either one a write made, owned by the map (closed when a later write of
 * the same table supersedes it, or by {@link #closeUnpublished}), or, where a write changed no row, the snapshot's
 * published version, which is never closed here ({@link #madeByWrite} tells them apart). A failed write leaves the map
 * holding only versions it can still free. Appends grow the dictionaries of the map its caller passes (the cube's, or a
 * {@link WriteTrial}'s own); upserts follow the cube's keys, read and never changed here.
 *
 * <p>Thread-safety: holds no state of its own; called only under the cube's load lock (by {@link CubeWrites}), which
 * guards the maps it is given and the keys it reads.
 */
final class NextVersions {

    private static final System.Logger LOG = System.getLogger(NextVersions.class.getName());

    /** One change applied to an unpublished version: the table's key and the rows appended or deleted. */
    record Applied(String table, long rows) {}

    private final CubeTables tables;
    private final CubeWrites.Host host;
    /** The cube's upsert keys, per table key (read-only). */
    private final Map<String, List<String>> keys;

    NextVersions(CubeTables tables, CubeWrites.Host host, Map<String, List<String>> keys) {
        this.tables = tables;
        this.host = host;
        this.keys = keys;
    }

    /**
     * Applies one write to the unpublished versions in {@code next}, the tables of {@code s} where it has none. A
     * DELETE's or UPDATE's WHERE, subqueries included, reads the tables as the writes before it in {@code next} left
     * them (a transaction block's statements see the block's earlier ones, as in PostgreSQL), never its own changes.
     */
    Applied apply(
            CubeTables.Snapshot s, Map<String, FactTable> next, Map<String, GrowingDictionary[]> grow, TableWrite w) {
        return switch (w) {
            case TableBatch b -> applyBatch(s, next, grow, b);
            case TableDelete d ->
                readingAfter(
                        s,
                        next,
                        read -> host.bound(
                                read,
                                StatementText.selectOfDelete(d.sql()),
                                d.clock(),
                                (lq, temps) -> applyDelete(s, next, lq, joined(read, lq, temps)),
                                Cancellation.NONE));
            case TableUpdate u -> readingAfter(s, next, read -> applyUpdate(s, read, next, grow, u));
        };
    }

    /** {@code step} given the tables as {@code next}'s writes leave {@code s} ({@code s} itself while there are none). */
    private Applied readingAfter(
            CubeTables.Snapshot s, Map<String, FactTable> next, Function<CubeTables.Snapshot, Applied> step) {
        if (next.isEmpty()) {
            return step.apply(s);
        }
        try (CubeTables.Snapshot view = tables.overlay(s, next)) {
            return step.apply(view);
        }
    }

    private Applied applyBatch(
            CubeTables.Snapshot s, Map<String, FactTable> next, Map<String, GrowingDictionary[]> grow, TableBatch b) {
        CubeTables.Version v = s.version(b.table());
        if (v == null) {
            throw Cube.noSuchTable(b.table(), s);
        }
        String k = CubeTables.key(b.table());
        FactTable base = next.getOrDefault(k, v.table());
        int[] rows = {b.rows().rows()};
        FactTable grown = appended(grow, k, base, b.rows(), v.number() + 1, rows, true);
        replace(next, k, base, grown, v);
        return new Applied(k, rows[0]);
    }

    /**
     * The tables a DELETE's or UPDATE's query {@code lq} joins, all of them temporary tables in {@code temps}: those a
     * correlated subquery became ({@link Decorrelation}: the subquery's distinct keys or groups, joined as dimensions,
     * so a row of the written table matches at most one of theirs); null when it joins a table of the cube, which a
     * write does not take.
     */
    private static List<FactTable> joined(CubeTables.Snapshot read, LogicalQuery lq, Map<String, FactTable> temps) {
        List<FactTable> out = new ArrayList<>();
        for (var join : lq.joins()) {
            FactTable t = temps.get(CubeTables.key(join.table()));
            if (t == null) {
                return null;
            }
            out.add(t);
        }
        return out;
    }

    private Applied applyDelete(
            CubeTables.Snapshot s, Map<String, FactTable> next, LogicalQuery lq, List<FactTable> dimensions) {
        CubeTables.Version v = s.version(lq.fact());
        if (v == null || dimensions == null) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "0A000",
                    "DELETE takes one table of the cube and a WHERE over its columns: table=" + lq.fact(),
                    null,
                    null);
        }
        String k = CubeTables.key(lq.fact());
        FactTable base = next.getOrDefault(k, v.table());
        Map<Integer, int[]> rows = ProjectionExecutor.locate(lq, base, dimensions);
        long n = rows.values().stream().mapToLong(r -> r.length).sum();
        FactTable without = n == 0 ? base : base.withDeleted(base.deleted().plus(rows, sizes(base)));
        replace(next, k, base, without, v);
        return new Applied(k, n);
    }

    /** Why {@code text} is no value of {@code column}'s type as a loaded row reads it (an INSERT's value). */
    private static NumacubeException textRefusal(io.numacube.engine.schema.ColumnSpec column, String text) {
        String problem = io.numacube.engine.ingest.csv.TextField.problem(column, text);
        return problem == null
                ? null
                : new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        io.numacube.engine.ingest.csv.TextField.sqlState(problem),
                        problem,
                        null,
                        null);
    }

    /**
     * An UPDATE: the rows its WHERE keeps are deleted from the table's next version and appended again with their new
     * values ({@link UpdatedRows}), both in that one version. One query finds the rows and computes their values
     * ({@link UpdateStatement#values}); a subquery in its WHERE reads the tables as they were before the write (after the
     * writes before it in the same block), as a DELETE's does. A key column of a keyed table is not updated: a changed
     * key would replace whichever row had it.
     */
    private Applied applyUpdate(
            CubeTables.Snapshot s,
            CubeTables.Snapshot read,
            Map<String, FactTable> next,
            Map<String, GrowingDictionary[]> grow,
            TableUpdate u) {
        UpdateStatement st = UpdateStatement.parse(u.sql(), u.clock());
        CubeTables.Version v = s.version(st.table());
        if (v == null) {
            throw Cube.noSuchTable(st.table(), s);
        }
        TableSchema schema = v.table().schema();
        for (String keyColumn : keys.getOrDefault(CubeTables.key(st.table()), List.of())) {
            if (st.assignedColumns(schema).contains(schema.indexOf(keyColumn))) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "0A000",
                        "UPDATE of a key column is not supported: table=" + schema.name() + " key=" + keyColumn
                                + " — a changed key could replace another row; DELETE the row and INSERT it anew",
                        null,
                        null);
            }
        }
        return host.boundTree(
                read,
                () -> st.values(schema, NextVersions::textRefusal, !u.replayed()),
                false,
                (lq, temps) -> applyUpdate(next, grow, v, lq, st.nullColumns(schema), joined(read, lq, temps)),
                Cancellation.NONE);
    }

    private Applied applyUpdate(
            Map<String, FactTable> next,
            Map<String, GrowingDictionary[]> grow,
            CubeTables.Version v,
            LogicalQuery values,
            List<Integer> nullColumns,
            List<FactTable> dimensions) {
        TableSchema schema = v.table().schema();
        if (dimensions == null || !CubeTables.key(values.fact()).equals(CubeTables.key(schema.name()))) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "0A000",
                    "UPDATE takes one table of the cube and a WHERE over its columns: table=" + schema.name(),
                    null,
                    null);
        }
        String k = CubeTables.key(schema.name());
        FactTable base = next.getOrDefault(k, v.table());
        Map<Integer, int[]> rows = ProjectionExecutor.locate(values, base, dimensions);
        long n = rows.values().stream().mapToLong(r -> r.length).sum();
        if (n == 0) {
            replace(next, k, base, base, v);
            return new Applied(k, 0);
        }
        QueryResult after = ProjectionExecutor.run(values, base, dimensions, System.nanoTime(), Cancellation.NONE);
        FactTable without = base.withDeleted(base.deleted().plus(rows, sizes(base)));
        replace(next, k, base, without, v);
        TableStaging staged = UpdatedRows.stage(schema, after, nullColumns);
        int[] appendedRows = {staged.rows()};
        // appended as they are, not upserted: their keys are unchanged (a key column is not updated) and their old rows
        // deleted, so they replace nothing; an upsert would keep one row of a key the table held twice (rows loaded
        // before its key was set are not checked) and drop the other
        replace(next, k, without, appended(grow, k, without, staged, v.number() + 1, appendedRows, false), v);
        return new Applied(k, n);
    }

    /** Records {@code grown} as table {@code k}'s next version, closing {@code base} when it was an unpublished one. */
    private void replace(
            Map<String, FactTable> next, String k, FactTable base, FactTable grown, CubeTables.Version published) {
        if (grown != base && base != published.table()) {
            base.close();
        }
        next.put(k, grown);
    }

    /**
     * Merges the small appended partitions of the unpublished versions in {@code next} where due, as each write of a
     * long block adds some (one per single-row UPDATE): its later writes then scan few partitions, not one per write
     * before them.
     */
    void compactPending(CubeTables.Snapshot s, Map<String, FactTable> next) {
        for (Map.Entry<String, FactTable> e : next.entrySet()) {
            if (madeByWrite(s, e)) {
                e.setValue(compacted(e.getValue()));
            }
        }
    }

    /**
     * {@code base} with {@code batch} appended (its next version, not yet published), or {@code base} for no rows; for a
     * table with a key and {@code upsert}, the rows it replaces deleted (without {@code upsert}, every row appended).
     * {@code appendedRows[0]} receives the rows appended (an upsert keeps the last row of each key).
     */
    private FactTable appended(
            Map<String, GrowingDictionary[]> growingByTable,
            String k,
            FactTable base,
            TableStaging batch,
            long version,
            int[] appendedRows,
            boolean upsert) {
        var grow = growingByTable.computeIfAbsent(
                k, x -> new GrowingDictionary[base.schema().size()]);
        String label = "appended v" + version;
        List<String> keyColumns = keys.get(k);
        if (keyColumns == null || !upsert) {
            return StagedAppender.append(base, batch, grow, label, host.appendTarget());
        }
        for (int c = 0; c < grow.length; c++) {
            if (grow[c] == null && base.schema().column(c).isDimension()) {
                grow[c] = new GrowingDictionary(base.dictionaries()[c]);
            }
        }
        var key = UpsertKeys.of(base.schema(), keyColumns);
        int[] rows = key.lastOfEachKey(batch);
        appendedRows[0] = rows.length;
        Map<Integer, int[]> replaced = key.replaced(base, batch, rows, grow);
        FactTable without =
                replaced.isEmpty() ? base : base.withDeleted(base.deleted().plus(replaced, sizes(base)));
        FactTable next;
        try {
            next = StagedAppender.append(without, batch, rows, grow, label, host.appendTarget());
        } catch (RuntimeException | Error e) {
            if (without != base) {
                without.close();
            }
            throw e;
        }
        if (without != base && next != without) {
            without.close();
        }
        return next;
    }

    private static Map<Integer, Integer> sizes(FactTable t) {
        Map<Integer, Integer> sizes = new HashMap<>();
        for (Partition p : t.partitions()) {
            sizes.put(p.id(), p.rows());
        }
        return sizes;
    }

    /** {@code t} with its small appended partitions merged (then {@code t} is closed), or {@code t}. */
    FactTable compacted(FactTable t) {
        FactTable merged;
        try {
            merged = TableCompactor.compact(t, host.appendTarget());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "merging appended partitions failed: {0}", e.getMessage());
            return t;
        }
        if (merged != t) {
            t.close();
        }
        return merged;
    }

    /** Closes the versions of {@code next} that {@code s} does not list (those a write made) and forgets them all. */
    static void closeUnpublished(CubeTables.Snapshot s, Map<String, FactTable> next) {
        for (Map.Entry<String, FactTable> e : next.entrySet()) {
            if (madeByWrite(s, e)) {
                e.getValue().close();
            }
        }
        next.clear();
    }

    /** Whether the version of {@code e} (a write's next versions) is one a write made, not the one {@code s} lists. */
    static boolean madeByWrite(CubeTables.Snapshot s, Map.Entry<String, FactTable> e) {
        CubeTables.Version published = s.version(e.getKey());
        return published == null || e.getValue() != published.table();
    }
}
