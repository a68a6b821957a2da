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
import io.numacube.engine.storage.PlacementTarget;
import io.numacube.engine.storage.TableBuilder;
import io.numacube.engine.storage.TableCompactor;
import io.numacube.numa.base.NumacubeException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A cube's write path: appends, upserts, DELETEs and UPDATEs applied to unpublished next versions of its tables and
 * published together ({@link Cube#write}), tried without publishing ({@link Cube#trial(java.util.List)}, {@link
 * WriteTrial}, {@link Cube#queryAfter}), and whole tables published after a load ({@link #publishWhole}); with the state
 * those writes keep between calls: the dictionaries appends grow and the tables' upsert keys.
 *
 * <p>Invariants: a write applies its changes to versions only it sees, built on one snapshot of the tables, and either
 * publishes every table it changed in one step ({@link CubeTables#publish}: a query sees all of it or none) or
 * closes every version it made, never a published one (a table a write left as it was is in its next versions as the
 * published version, which readers hold). {@link #growing} holds, per table key, the dictionaries of the appends to its
 * published version and nothing a discarded write added: a discard forgets them all, a whole table published forgets
 * its own, a published trial's replace the table's. {@link #keyGeneration} changes with every change of {@link #keys},
 * so that a {@link WriteTrial} built under other keys is built again; a trial is current while its base is the current
 * snapshot, under the same keys and the same layout of new data.
 *
 * <p>Thread-safety: every method takes the cube's load lock, which serialises all writers (loads, appends, relocations,
 * partition moves, changes of the layout; it is reentrant, so a caller may hold it already), and {@link #growing},
 * {@link #keys} and {@link #keyGeneration} are touched only under it; so the cube's closing (which takes it) and its
 * layout of new data do not change while a write runs. Queries take no part: they read published snapshots. Owned by
 * its {@link Cube}, which frees the tables and their memory.
 */
final class CubeWrites {

    private static final System.Logger LOG = System.getLogger(CubeWrites.class.getName());

    /**
     * What the writes need of their cube: statements bound over a snapshot (a DELETE's or UPDATE's WHERE, its
     * subqueries run first), where new rows are placed, and whether the cube is still open.
     */
    interface Host {

        /** Binds {@code sql} over {@code snapshot} as the cube binds a query and hands it to {@code then}. */
        <T> T bound(
                CubeTables.Snapshot snapshot,
                String sql,
                LocalDateTime wallClock,
                BiFunction<LogicalQuery, Map<String, FactTable>, T> then,
                Cancellation cancel);

        /** As {@link #bound}, for a statement parsed already; with {@code views} it reads information_schema's views. */
        <T> T boundTree(
                CubeTables.Snapshot snapshot,
                Supplier<org.apache.calcite.sql.SqlNode> parsed,
                boolean views,
                BiFunction<LogicalQuery, Map<String, FactTable>, T> then,
                Cancellation cancel);

        /** Where appended rows are placed now: the cube's placement, layout of new data, morsel rows, memory, workers. */
        PlacementTarget appendTarget();

        /** The cube's layout of new data (changed only under the load lock). */
        TableBuilder.NodeLayout layout();

        /** Whether the cube was closed (set only under the load lock). */
        boolean closed();

        /** Throws when the cube is closed. */
        void checkOpen();
    }

    private final CubeTables tables;
    private final ReentrantLock loadLock;
    private final PreparedJoins prepared;
    private final Host host;

    /** Per table key, the growing dictionaries of its appends. */
    private final Map<String, GrowingDictionary[]> growing = new HashMap<>();
    /** Per table key, the columns of its upsert key ({@link #setKey}). */
    private final Map<String, List<String>> keys = new HashMap<>();
    /** Counts the changes of {@link #keys}, so that a {@link WriteTrial} built under other keys is built again. */
    private long keyGeneration;

    /**
     * @param tables   the cube's tables, read and published
     * @param loadLock the cube's lock serialising writers
     * @param prepared the cube's prepared joins, told which tables a write published
     * @param host     the cube, as the writes need it
     */
    CubeWrites(CubeTables tables, ReentrantLock loadLock, PreparedJoins prepared, Host host) {
        this.tables = tables;
        this.loadLock = loadLock;
        this.prepared = prepared;
        this.host = host;
    }

    /** As {@link Cube#append(List)}. */
    Map<String, Long> append(List<TableBatch> batches) {
        Map<String, Long> versions = new HashMap<>();
        for (WriteResult r : write(List.copyOf(batches), true)) {
            versions.put(CubeTables.key(r.table()), r.version());
        }
        return versions;
    }

    /** As {@link Cube#openTrial}. */
    WriteTrial openTrial() {
        host.checkOpen();
        return new WriteTrial(this);
    }

    /**
     * {@code read} given the tables as {@code pending} writes would leave them ({@link Cube#queryAfter}), publishing
     * nothing: the writes are applied to private versions under the load lock, held until {@code read} returns, then
     * discarded.
     *
     * @throws NumacubeException as {@link Cube#write} for a write that fails, or as {@code read} throws
     */
    <T> T readAfter(List<TableWrite> pending, Function<CubeTables.Snapshot, T> read) {
        loadLock.lock();
        Map<String, FactTable> next = new LinkedHashMap<>();
        try (CubeTables.Snapshot s = tables.acquire()) {
            host.checkOpen();
            try {
                for (TableWrite w : pending) {
                    apply(s, next, growing, w);
                }
                try (CubeTables.Snapshot view = tables.overlay(s, next)) {
                    return read.apply(view);
                }
            } finally {
                discard(s, next);
            }
        } finally {
            loadLock.unlock();
        }
    }

    /** Forgets the dictionaries of every table's appends (the cube is closing, under the load lock). */
    void forgetGrowing() {
        growing.clear();
    }

    /**
     * Publishes whole tables (loaded, generated, relocated) as the next version of each, the tables of {@code versions}
     * (by key) getting those version numbers; called under the load lock. Their appends' dictionaries are forgotten.
     */
    void publishWhole(Map<String, Long> versions, FactTable... fresh) {
        if (host.closed()) {
            for (FactTable t : fresh) {
                t.close();
            }
            host.checkOpen();
        }
        for (FactTable t : fresh) {
            growing.remove(CubeTables.key(t.schema().name()));
        }
        tables.publish(List.of(fresh), versions);
        java.util.Set<String> names = new java.util.HashSet<>();
        for (FactTable t : fresh) {
            names.add(CubeTables.key(t.schema().name()));
        }
        prepared.written(names);
    }

    /** As {@link Cube#trial(WriteTrial, List)}. */
    List<WriteResult> trial(WriteTrial trial, List<? extends TableWrite> block) {
        Objects.requireNonNull(trial, "trial must not be null");
        Objects.requireNonNull(block, "block must not be null");
        if (!trial.of(this)) {
            throw new IllegalArgumentException("the trial was opened by another cube");
        }
        host.checkOpen();
        loadLock.lock();
        try {
            host.checkOpen();
            if (trial.writes() > block.size() || (trial.base != null && !builtOnCurrent(trial))) {
                trial.reset();
            }
            if (trial.base == null) {
                trial.base = tables.acquire();
                trial.keys = keyGeneration;
                trial.layout = host.layout();
            }
            List<WriteResult> out = new ArrayList<>();
            try {
                for (int i = trial.writes(); i < block.size(); i++) {
                    Applied a = apply(trial.base, trial.next, trial.growing, block.get(i));
                    compactPending(trial.base, trial.next);
                    CubeTables.Version v = trial.base.version(a.table());
                    WriteResult r = new WriteResult(v.table().schema().name(), a.rows(), v.number());
                    trial.applied(r);
                    out.add(r);
                }
            } catch (RuntimeException | Error e) {
                trial.reset();
                throw e;
            }
            return out;
        } finally {
            loadLock.unlock();
        }
    }

    /** As {@link Cube#isCurrent}. */
    boolean isCurrent(WriteTrial trial) {
        Objects.requireNonNull(trial, "trial must not be null");
        loadLock.lock();
        try {
            return trial.of(this) && trial.base != null && builtOnCurrent(trial);
        } finally {
            loadLock.unlock();
        }
    }

    /** Whether the base of {@code trial} (one it holds) is the current snapshot, taken under the current keys and layout. */
    private boolean builtOnCurrent(WriteTrial trial) {
        return tables.isCurrent(trial.base) && trial.keys == keyGeneration && trial.layout == host.layout();
    }

    /** As {@link Cube#publishTrial}. */
    Optional<List<WriteResult>> publishTrial(WriteTrial trial, int writes) {
        Objects.requireNonNull(trial, "trial must not be null");
        host.checkOpen();
        loadLock.lock();
        try {
            if (!trial.of(this) || trial.base == null || trial.writes() != writes || !builtOnCurrent(trial)) {
                return Optional.empty();
            }
            try {
                Map<String, Long> versions = publishChanged(trial.base, trial.next);
                prepared.written(versions.keySet());
                for (String k : versions.keySet()) {
                    GrowingDictionary[] grown = trial.growing.remove(k);
                    if (grown != null) {
                        // the published version's dictionaries are the trial's: the cube's next append grows them on
                        growing.put(k, grown);
                    }
                }
                List<WriteResult> out = new ArrayList<>();
                for (WriteResult r : trial.results()) {
                    out.add(new WriteResult(
                            r.table(), r.rows(), versions.getOrDefault(CubeTables.key(r.table()), r.version())));
                }
                return Optional.of(out);
            } finally {
                trial.reset();
            }
        } finally {
            loadLock.unlock();
        }
    }

    /**
     * Frees what {@code trial} holds: its unpublished versions and its base. Once the cube is closed its memory is gone
     * already, so the trial only forgets them.
     */
    void discardTrial(WriteTrial trial) {
        loadLock.lock();
        try {
            if (!host.closed() && trial.base != null) {
                closeUnpublished(trial.base, trial.next);
                trial.base.close();
            }
            trial.next.clear();
            trial.growing.clear();
            trial.base = null;
        } finally {
            loadLock.unlock();
        }
    }

    /** As {@link Cube#write} with {@code publish}, else as {@link Cube#trial(List)}. */
    List<WriteResult> write(List<TableWrite> writes, boolean publish) {
        Objects.requireNonNull(writes, "writes must not be null");
        host.checkOpen();
        loadLock.lock();
        Map<String, FactTable> next = new LinkedHashMap<>();
        try (CubeTables.Snapshot s = tables.acquire()) {
            try {
                List<Applied> applied = new ArrayList<>();
                for (TableWrite w : writes) {
                    applied.add(apply(s, next, growing, w));
                    compactPending(s, next);
                }
                Map<String, Long> versions;
                if (publish) {
                    versions = publishChanged(s, next);
                    prepared.written(versions.keySet());
                } else {
                    discard(s, next);
                    versions = Map.of();
                }
                List<WriteResult> out = new ArrayList<>();
                for (Applied a : applied) {
                    CubeTables.Version v = s.version(a.table());
                    out.add(new WriteResult(
                            v.table().schema().name(), a.rows(), versions.getOrDefault(a.table(), v.number())));
                }
                return out;
            } catch (RuntimeException | Error e) {
                discard(s, next);
                throw e;
            }
        } finally {
            loadLock.unlock();
        }
    }

    /**
     * Applies one write to the unpublished versions in {@code next}, the tables of {@code s} where it has none. A
     * DELETE's or UPDATE's WHERE, subqueries included, reads the tables as the writes before it in {@code next} left
     * them (a transaction block's statements see the block's earlier ones, as in PostgreSQL), never its own changes.
     */
    private Applied apply(
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

    /**
     * Closes the unpublished versions in {@code next} and forgets the values they added to the growing dictionaries.
     * A table a write left as it was (a DELETE or UPDATE of no row) is in {@code next} as its published version, which
     * readers still hold: it is not closed.
     */
    private void discard(CubeTables.Snapshot s, Map<String, FactTable> next) {
        closeUnpublished(s, next);
        growing.clear();
    }

    /** Closes the versions of {@code next} that {@code s} does not list (those a write made) and forgets them all. */
    private static void closeUnpublished(CubeTables.Snapshot s, Map<String, FactTable> next) {
        for (Map.Entry<String, FactTable> e : next.entrySet()) {
            if (madeByWrite(s, e)) {
                e.getValue().close();
            }
        }
        next.clear();
    }

    /** Whether the version of {@code e} (a write's next versions) is one a write made, not the one {@code s} lists. */
    private static boolean madeByWrite(CubeTables.Snapshot s, Map.Entry<String, FactTable> e) {
        CubeTables.Version published = s.version(e.getKey());
        return published == null || e.getValue() != published.table();
    }

    /** One change applied to an unpublished version: the table's key and the rows appended or deleted. */
    private record Applied(String table, long rows) {}

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

    /**
     * An UPDATE: the rows its WHERE keeps are deleted from the table's next version and appended again with their new
     * values ({@link UpdatedRows}), both in that one version. One query finds the rows and computes their values
     * ({@link UpdateStatement#values}); a subquery in its WHERE reads the tables as they were
     * before the write (after the writes before it in the same block), as a DELETE's does. A key column of a keyed table is not updated: a changed key would replace
     * whichever row had it.
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
                () -> st.values(schema),
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
    private void compactPending(CubeTables.Snapshot s, Map<String, FactTable> next) {
        for (Map.Entry<String, FactTable> e : next.entrySet()) {
            if (madeByWrite(s, e)) {
                e.setValue(compacted(e.getValue()));
            }
        }
    }

    /** Publishes the tables of {@code next} that changed (merged where due); their new versions by key. */
    private Map<String, Long> publishChanged(CubeTables.Snapshot s, Map<String, FactTable> next) {
        List<FactTable> fresh = new ArrayList<>();
        for (Map.Entry<String, FactTable> e : next.entrySet()) {
            if (e.getValue() != s.version(e.getKey()).table()) {
                fresh.add(compacted(e.getValue()));
            }
        }
        next.clear();
        if (host.closed()) {
            fresh.forEach(FactTable::close);
            host.checkOpen();
        }
        return tables.publish(fresh);
    }

    /**
     * {@code base} with {@code batch} appended (its next version, not yet published), or {@code base} for no rows; for a
     * table with a key and {@code upsert}, the rows it replaces deleted (without {@code upsert}, every row appended). {@code appendedRows[0]} receives the rows appended (an upsert
     * keeps the last row of each key).
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

    /** As {@link Cube#setKey}. */
    void setKey(String table, List<String> columns) {
        host.checkOpen();
        loadLock.lock();
        try (CubeTables.Snapshot s = tables.acquire()) {
            FactTable t = Cube.table(s, table);
            UpsertKeys.of(t.schema(), columns);
            keys.put(CubeTables.key(table), List.copyOf(columns));
            keyGeneration++;
        } finally {
            loadLock.unlock();
        }
    }

    /** As {@link Cube#keyColumns}. */
    List<String> keyColumns(String table) {
        Objects.requireNonNull(table, "table must not be null");
        loadLock.lock();
        try {
            return keys.getOrDefault(CubeTables.key(table), List.of());
        } finally {
            loadLock.unlock();
        }
    }

    /** {@code t} with its small appended partitions merged (then {@code t} is closed), or {@code t}. */
    private FactTable compacted(FactTable t) {
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
}
