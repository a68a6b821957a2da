package io.numacube.engine;

import io.numacube.engine.storage.FactTable;
import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The cube's tables, one version of each, published as immutable {@link Snapshot}s: a query {@link #acquire}s the
 * current snapshot and reads that version of every table from start to end, while writers {@link #publish} new ones
 * (a load replaces a table, an append adds rows to it) without waiting for any query. Snapshot isolation, readers and
 * writers never blocking each other.
 *
 * <p>Invariants: versions of a table count up from 1 (a load replacing a table continues its count; a table recovered
 * from a checkpoint starts at the version it had there); every snapshot
 * holds a reference to each table version it lists, the current snapshot is held by this object, and a version is
 * closed ({@link FactTable#close()}, which frees what no later version shares) when the last snapshot listing it is
 * released, so a superseded version lives exactly as long as the queries that read it. Thread-safe; writers call
 * {@link #publish} one at a time (the cube's load lock). An {@link #overlay} snapshot borrows its pending versions:
 * it never closes them.
 */
final class CubeTables {

    /** One version of one table and the snapshots that list it. */
    static final class Version {
        private final FactTable table;
        private final long number;
        private final AtomicInteger holders = new AtomicInteger();
        private final boolean borrowed;

        private Version(FactTable table, long number) {
            this(table, number, false);
        }

        private Version(FactTable table, long number, boolean borrowed) {
            this.table = table;
            this.number = number;
            this.borrowed = borrowed;
        }

        FactTable table() {
            return table;
        }

        long number() {
            return number;
        }
    }

    /** Every table at one moment; release it when done. */
    final class Snapshot implements AutoCloseable {
        private final Map<String, Version> tables;
        private final AtomicInteger holders = new AtomicInteger(1);
        private final long generation = GENERATIONS.incrementAndGet();

        private Snapshot(Map<String, Version> tables) {
            this.tables = Map.copyOf(tables);
            for (Version v : this.tables.values()) {
                v.holders.incrementAndGet();
            }
        }

        /** The table of that name (any case), or null. */
        FactTable table(String name) {
            Version v = tables.get(key(name));
            return v == null ? null : v.table;
        }

        /** The version of that table, or null. */
        Version version(String name) {
            return tables.get(key(name));
        }

        Collection<Version> versions() {
            return tables.values();
        }

        /** A number no other snapshot of this JVM has: every publish, of any table, makes a snapshot of a new one. */
        long generation() {
            return generation;
        }

        private boolean tryRetain() {
            for (int h = holders.get(); h > 0; h = holders.get()) {
                if (holders.compareAndSet(h, h + 1)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void close() {
            if (holders.decrementAndGet() == 0) {
                for (Version v : tables.values()) {
                    if (v.holders.decrementAndGet() == 0) {
                        retire(v);
                    }
                }
            }
        }
    }

    /** The last {@link Snapshot#generation} handed out. */
    private static final java.util.concurrent.atomic.AtomicLong GENERATIONS =
            new java.util.concurrent.atomic.AtomicLong();

    private volatile Snapshot current = new Snapshot(Map.of());

    /** The current snapshot, held until {@link Snapshot#close()}. */
    Snapshot acquire() {
        while (true) {
            Snapshot s = current;
            if (s.tryRetain()) {
                return s;
            }
        }
    }

    /** Whether {@code s} lists the very versions the current snapshot lists: nothing was published since it. */
    boolean isCurrent(Snapshot s) {
        Snapshot now = current;
        return now == s || now.tables.equals(s.tables);
    }

    /**
     * Publishes a snapshot in which each of {@code fresh} replaces the table of its name (the next version of it) or
     * is added (version 1), and {@code dropped} tables are gone; returns the new versions by table key.
     */
    Map<String, Long> publish(Collection<FactTable> fresh) {
        return publish(fresh, Map.of());
    }

    /**
     * As {@link #publish(Collection)}, a table of {@code given} (by key) getting that version number instead (a table
     * recovered from a checkpoint keeps the version it had).
     */
    Map<String, Long> publish(Collection<FactTable> fresh, Map<String, Long> given) {
        Snapshot before = current;
        Map<String, Version> next = new HashMap<>(before.tables);
        Map<String, Long> numbers = new HashMap<>();
        for (FactTable t : fresh) {
            String k = key(t.schema().name());
            Version prev = next.get(k);
            Long number = given.get(k);
            Version v = new Version(t, number != null ? number : prev == null ? 1 : prev.number + 1);
            next.put(k, v);
            numbers.put(k, v.number);
        }
        current = new Snapshot(next);
        before.close();
        return numbers;
    }

    /**
     * Publishes {@code table} as the same version of its table as {@code same}: the rows rearranged (merged
     * partitions), not changed.
     */
    void republish(FactTable table, Version same) {
        Snapshot before = current;
        Map<String, Version> next = new HashMap<>(before.tables);
        next.put(key(table.schema().name()), new Version(table, same.number));
        current = new Snapshot(next);
        before.close();
    }

    /**
     * A private snapshot, never current: {@code base}'s tables with {@code pending} (unpublished versions by table key,
     * numbered as the next) in their place, for one query to read. Its pending versions are borrowed: releasing the
     * snapshot forgets what the cube's tables memoized of them but never closes them (their writer does).
     */
    Snapshot overlay(Snapshot base, Map<String, FactTable> pending) {
        Map<String, Version> view = new HashMap<>(base.tables);
        for (Map.Entry<String, FactTable> e : pending.entrySet()) {
            Version prev = view.get(e.getKey());
            view.put(e.getKey(), new Version(e.getValue(), prev == null ? 1 : prev.number + 1, true));
        }
        return new Snapshot(view);
    }

    /** Gives back the current snapshot: every version is closed once the queries reading it are done. */
    void clear() {
        Snapshot before = current;
        current = new Snapshot(Map.of());
        before.close();
    }

    private void retire(Version v) {
        if (!v.borrowed) {
            v.table.close();
        }
        String token = v.table.coded().memoToken();
        for (Version kept : current.tables.values()) {
            kept.table.coded().forget(token);
        }
    }

    static String key(String table) {
        return io.numacube.engine.schema.TableNames.resolve(table).toLowerCase(Locale.ROOT);
    }
}
