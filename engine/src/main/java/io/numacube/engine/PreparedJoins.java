package io.numacube.engine;

import io.numacube.engine.result.Cancellation;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The joins and chains a cube was asked to prepare ({@link Cube#prepareJoin}, {@link Cube#prepareJoinChains}), built
 * again in the background after a write publishes a new version of one of their tables, so that the first query after
 * the write finds them built (a write replaces what was built for the old version: the new version's codes and
 * indexes are its own). A refresh is the same query the preparation ran, over the tables' then current versions:
 * what it builds belongs to the versions it read and is never found by a query of a later version, so a refresh that
 * a newer write overtakes builds for nothing but serves nothing stale. A query that comes first builds the same
 * things itself (one column is coded once, the others wait for it).
 *
 * <p>Thread-safety: thread-safe. One daemon thread, started on the first write that needs it, runs refreshes one at a
 * time; writes while it runs are gathered into the next one. A refresh that fails (a joined key no longer unique,
 * the cube closing) is logged and dropped: the next query that takes the join reports its error. {@link #close}
 * cancels a refresh in flight and waits for the thread.
 */
final class PreparedJoins implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PreparedJoins.class.getName());

    private final BiConsumer<String, Cancellation> run;
    private final Set<JoinSpec> joins = new LinkedHashSet<>();
    private final Set<JoinChain> chains = new LinkedHashSet<>();
    /** Per joined table (lower case), the queries that code its plain columns. */
    private final java.util.Map<String, List<String>> codings = new java.util.LinkedHashMap<>();
    /** Tables written since the last refresh started (lower case). */
    private final Set<String> written = new LinkedHashSet<>();

    private final Cancellation inFlight = new Cancellation();
    private Thread worker;
    private boolean busy;
    private boolean closed;
    private long refreshes;

    /** {@code run} runs one preparation's query with a cancellation switch (a cube's query). */
    PreparedJoins(BiConsumer<String, Cancellation> run) {
        this.run = run;
    }

    synchronized void add(JoinSpec join) {
        joins.add(join);
    }

    synchronized void add(JoinChain chain) {
        chains.add(chain);
    }

    /** The queries that code a joined table's columns ahead ({@link Cube#prepareJoin}), run again after its writes. */
    synchronized void add(String table, List<String> codings) {
        this.codings.put(table.toLowerCase(java.util.Locale.ROOT), List.copyOf(codings));
    }

    /** A write published new versions of {@code tables}: refresh what reads them, in the background. */
    synchronized void written(Set<String> tables) {
        if (closed || tables.isEmpty() || affected(tables).isEmpty()) {
            return;
        }
        tables.forEach(t -> written.add(t.toLowerCase(java.util.Locale.ROOT)));
        if (worker == null) {
            worker =
                    Thread.ofPlatform().daemon().name("numacube-prepared-joins").start(this::refreshLoop);
        }
        notifyAll();
    }

    /** Waits until no refresh is pending or running (for tests and orderly shutdown); false on timeout. */
    synchronized boolean awaitIdle(long timeoutMillis) throws InterruptedException {
        long end = System.currentTimeMillis() + timeoutMillis;
        while (!written.isEmpty() || busy) {
            long left = end - System.currentTimeMillis();
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

    /** Refreshes run so far. */
    synchronized long refreshes() {
        return refreshes;
    }

    private void refreshLoop() {
        while (true) {
            List<String> queries;
            Cancellation cancel;
            synchronized (this) {
                while (written.isEmpty() && !closed) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                queries = affected(written);
                written.clear();
                busy = true;
                cancel = inFlight;
            }
            refresh(queries, cancel);
            synchronized (this) {
                busy = false;
                refreshes++;
                notifyAll();
            }
        }
    }

    private void refresh(List<String> queries, Cancellation cancel) {
        for (String sql : queries) {
            try {
                run.accept(sql, cancel);
            } catch (RuntimeException e) {
                LOG.log(
                        System.Logger.Level.INFO,
                        "a prepared join was not built again after a write: {0}: {1}",
                        sql,
                        e.getMessage());
            }
        }
    }

    /** The preparation queries of the joins and chains that read any of {@code tables} (lower case or not). */
    private List<String> affected(Set<String> tables) {
        Set<String> lower = new java.util.HashSet<>();
        tables.forEach(t -> lower.add(t.toLowerCase(java.util.Locale.ROOT)));
        List<String> out = new ArrayList<>();
        for (JoinSpec j : joins) {
            if (reads(lower, j)) {
                out.add(j.sql());
            }
        }
        for (JoinChain c : chains) {
            if (c.links().stream().anyMatch(l -> reads(lower, l))) {
                out.add(c.sql());
            }
        }
        codings.forEach((table, sql) -> {
            if (lower.contains(table)) {
                out.addAll(sql);
            }
        });
        return out;
    }

    private static boolean reads(Set<String> lower, JoinSpec j) {
        return lower.contains(j.fact().toLowerCase(java.util.Locale.ROOT))
                || lower.contains(j.dim().toLowerCase(java.util.Locale.ROOT));
    }

    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            closed = true;
            inFlight.cancel("the cube is closing");
            written.clear();
            notifyAll();
            t = worker;
        }
        if (t != null) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
