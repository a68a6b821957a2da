package io.numacube.engine;

import io.numacube.engine.ingest.UpsertKeys;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.result.Cancellation;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.GrowingDictionary;
import io.numacube.engine.storage.PlacementTarget;
import io.numacube.engine.storage.TableBuilder;
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
 * WriteTrial}, {@link Cube#queryAfter}), and whole tables published after a load ({@link #publishWhole}); with the
 * state those writes keep between calls: the dictionaries appends grow and the tables' upsert keys.
 *
 * <p>Invariants: a write applies its changes ({@link NextVersions}) to versions only it sees, built on one snapshot of
 * the tables, and either publishes every table it changed in one step ({@link CubeTables#publish}: a query sees all of
 * it or none) or closes every version it made, never a published one (a table a write left as it was is in its next
 * versions as the published version, which readers hold). {@link #growing} holds, per table key, the dictionaries of
 * the appends to its published version and nothing a discarded write added: a discard forgets them all, a whole table
 * published forgets its own, a published trial's replace the table's. {@link #keyGeneration} changes with every change
 * of {@link #keys}, so that a {@link WriteTrial} built under other keys is built again; a trial is current while its
 * base is the current snapshot, under the same keys and the same layout of new data.
 *
 * <p>Thread-safety: every method that reads or changes its state or the tables holds the cube's load lock, which
 * serialises all writers (loads, appends, relocations, partition moves, changes of the layout): it takes it (it is
 * reentrant, so a caller may hold it already), or, as {@link #publishWhole} and {@link #forgetGrowing}, is called under
 * it. So {@link #growing}, {@link #keys} and {@link #keyGeneration} are touched only under it, and the cube's closing
 * (which takes it) and its layout of new data do not change while a write runs. Queries take no part: they read
 * published snapshots. Owned by its {@link Cube}, which frees the tables and their memory.
 */
final class CubeWrites {

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

        /** As {@link #bound}, a statement parsed already; with {@code views} it reads information_schema's views. */
        <T> T boundTree(
                CubeTables.Snapshot snapshot,
                Supplier<org.apache.calcite.sql.SqlNode> parsed,
                boolean views,
                BiFunction<LogicalQuery, Map<String, FactTable>, T> then,
                Cancellation cancel);

        /** Where appended rows go now: the cube's placement, layout of new data, morsel rows, memory, workers. */
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
    /** Applies each write to the unpublished next versions of the tables. */
    private final NextVersions nextVersions;

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
        this.nextVersions = new NextVersions(tables, host, java.util.Collections.unmodifiableMap(keys));
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
                    nextVersions.apply(s, next, growing, w);
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
                    NextVersions.Applied a = nextVersions.apply(trial.base, trial.next, trial.growing, block.get(i));
                    nextVersions.compactPending(trial.base, trial.next);
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

    /** Whether the base of {@code trial} (one it holds) is the current snapshot, under the current keys and layout. */
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
                NextVersions.closeUnpublished(trial.base, trial.next);
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
                List<NextVersions.Applied> applied = new ArrayList<>();
                for (TableWrite w : writes) {
                    applied.add(nextVersions.apply(s, next, growing, w));
                    nextVersions.compactPending(s, next);
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
                for (NextVersions.Applied a : applied) {
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
     * Closes the unpublished versions in {@code next} and forgets the values they added to the growing dictionaries.
     * A table a write left as it was (a DELETE or UPDATE of no row) is in {@code next} as its published version, which
     * readers still hold: it is not closed.
     */
    private void discard(CubeTables.Snapshot s, Map<String, FactTable> next) {
        NextVersions.closeUnpublished(s, next);
        growing.clear();
    }

    /** Publishes the tables of {@code next} that changed (merged where due); their new versions by key. */
    private Map<String, Long> publishChanged(CubeTables.Snapshot s, Map<String, FactTable> next) {
        List<FactTable> fresh = new ArrayList<>();
        for (Map.Entry<String, FactTable> e : next.entrySet()) {
            if (e.getValue() != s.version(e.getKey()).table()) {
                fresh.add(nextVersions.compacted(e.getValue()));
            }
        }
        next.clear();
        if (host.closed()) {
            fresh.forEach(FactTable::close);
            host.checkOpen();
        }
        return tables.publish(fresh);
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
}
