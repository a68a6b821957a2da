package io.numacube.engine.exec;

import io.numacube.engine.QueryResult;
import io.numacube.engine.QueryStats;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a query morsel by morsel (HyPer style): every morsel that its zone maps do not rule out goes to the queue of its
 * partition's home node; each worker of each node takes morsels from its own node's queue and, only when that is
 * empty and stealing is on, from the other nodes' queues nearest first — once that node's own workers have begun, and
 * only while it has more than two morsels per own worker left; or, when other queries run too and those workers have
 * not begun within 20 ms (they are busy with the others), down to the last morsel, so concurrent queries never wait
 * on each other. Each worker task folds its morsels into its own
 * {@link Partial}; the partials are merged and finished on the calling thread.
 *
 * <p>Stateless; thread-safe: concurrent queries each get their own queues and partials, and the tables they read are
 * immutable; each pool counts the queries running on it ({@link WorkerPool#queriesRunning()}).
 */
public final class QueryExecutor {

    /** How long a thief sleeps between looks at a node whose own workers have not begun yet. */
    private static final long WAIT_FOR_OWNERS_NANOS = 20_000;
    /**
     * How long a thief waits for a node's own workers to begin a query while other queries run too. Owners that have
     * not begun by then are busy with other work (possibly a thief of another query, waiting the other way round), so
     * the thief takes their morsels down to the last one: waiting longer could wait forever. A query that runs alone
     * waits as long as its owners take to wake (nothing else can hold them), keeping its morsels at home.
     */
    private static final long OWNER_PATIENCE_NANOS = 20_000_000;

    private QueryExecutor() {
    }

    /**
     * @param lookup      the joined table, or null
     * @param startNanos  {@link System#nanoTime()} when the query call began (for the wall time)
     */
    public static QueryResult run(LogicalQuery lq, FactTable fact, FactTable lookup, WorkerPool pool,
                                  boolean stealing, long startNanos) {
        pool.queriesRunning().incrementAndGet();
        try {
            return execute(lq, fact, lookup, pool, stealing, startNanos);
        } finally {
            pool.queriesRunning().decrementAndGet();
        }
    }

    private static QueryResult execute(LogicalQuery lq, FactTable fact, FactTable lookup, WorkerPool pool,
                                       boolean stealing, long startNanos) {
        CompiledQuery q = QueryCompiler.compile(lq, fact, lookup, pool.workerCount());
        List<Integer> nodes = pool.nodes();
        Map<Integer, MorselQueue> queues = new HashMap<>();
        for (int node : nodes) {
            queues.put(node, new MorselQueue(pool.workersOn(node)));
        }
        long skipped = 0;
        List<Partition> parts = fact.partitions();
        if (!q.empty) {
            for (int pi = 0; pi < parts.size(); pi++) {
                Partition p = parts.get(pi);
                if (!mayPass(q, p)) {
                    skipped += p.morselCount();
                    continue;
                }
                MorselQueue queue = queues.getOrDefault(p.homeNode(), queues.get(nodes.get(pi % nodes.size())));
                for (int m = 0; m < p.morselCount(); m++) {
                    long active = activeMasks(q, p, m);
                    if (active < 0) {
                        skipped++;
                    } else {
                        queue.add(pi, m, active);
                    }
                }
            }
        }
        List<CompletableFuture<TaskResult>> futures = new ArrayList<>();
        for (int node : nodes) {
            if (queues.values().stream().allMatch(MorselQueue::isEmpty)) {
                break;
            }
            List<MorselQueue> steal = new ArrayList<>();
            if (stealing) {
                for (int other : pool.stealOrder(node)) {
                    steal.add(queues.get(other));
                }
            }
            MorselQueue own = queues.get(node);
            for (int w = 0; w < pool.workersOn(node); w++) {
                futures.add(pool.submit(node, () -> work(q, parts, node, own, steal, pool.queriesRunning())));
            }
        }
        ThreadWorkerPool.awaitAll(futures);
        Partial merged = null;
        Map<Integer, Long> byNode = new TreeMap<>();
        long morsels = 0;
        long home = 0;
        long rows = 0;
        for (CompletableFuture<TaskResult> f : futures) {
            TaskResult t = f.join();
            if (t.partial == null) {
                continue;
            }
            byNode.merge(t.node, t.partial.morsels, Long::sum);
            morsels += t.partial.morsels;
            home += t.partial.morselsHome;
            rows += t.partial.rowsScanned;
            if (merged == null) {
                merged = t.partial;
            } else {
                merged.merge(t.partial);
            }
        }
        int leftover = 0;
        for (MorselQueue queue : queues.values()) {
            leftover += queue.remaining();
        }
        if (leftover > 0) {
            // stealing is off and a node with morsels has no workers: run them here rather than drop them
            Partial rest = new Partial(q);
            for (MorselQueue queue : queues.values()) {
                int i;
                while ((i = queue.take()) >= 0) {
                    rest.run(parts.get(queue.partition[i]), queue.morsel[i], queue.active[i]);
                }
            }
            morsels += rest.morsels;
            rows += rest.rowsScanned;
            if (merged == null) {
                merged = rest;
            } else {
                merged.merge(rest);
            }
        }
        double wall = (System.nanoTime() - startNanos) / 1e9;
        QueryStats stats = new QueryStats(wall, rows, rows * q.bytesPerRow, morsels, home, morsels - home, skipped,
                byNode, q.description);
        QueryResult r = Finalizer.finish(q, merged, stats);
        double total = (System.nanoTime() - startNanos) / 1e9;
        return r.withStats(new QueryStats(total, rows, rows * q.bytesPerRow, morsels, home, morsels - home, skipped,
                byNode, q.description));
    }

    /** False when, for some filtered dimension, no code present in the partition passes (partition pruning). */
    private static boolean mayPass(CompiledQuery q, Partition p) {
        for (int i = 0; i < q.maskColumns.length; i++) {
            long[] bits = p.presentCodes(q.maskColumns[i]);
            if (bits == null) {
                continue;
            }
            boolean[] mask = q.masks[i];
            boolean any = false;
            for (int w = 0; w < bits.length && !any; w++) {
                long word = bits[w];
                while (word != 0) {
                    int code = (w << 6) + Long.numberOfTrailingZeros(word);
                    if (code < mask.length && mask[code]) {
                        any = true;
                        break;
                    }
                    word &= word - 1;
                }
            }
            if (!any) {
                return false;
            }
        }
        return true;
    }

    /** -1 when the zone maps show no row can pass; else a bit per mask that must still be applied. */
    private static long activeMasks(CompiledQuery q, Partition p, int m) {
        long active = 0;
        for (int i = 0; i < q.maskColumns.length; i++) {
            int col = q.maskColumns[i];
            int lo = p.zoneMin(col, m);
            int hi = p.zoneMax(col, m);
            int[] prefix = q.maskPrefix[i];
            int pass = prefix[hi + 1] - prefix[lo];
            if (pass == 0) {
                return -1;
            }
            if (pass < hi - lo + 1 && i < 63) {
                active |= 1L << i;
            }
        }
        return active;
    }

    private record TaskResult(int node, Partial partial) {
    }

    private static TaskResult work(CompiledQuery q, List<Partition> parts, int node, MorselQueue own,
                                   List<MorselQueue> steal, AtomicInteger queriesRunning) {
        Partial partial = null;
        long patienceEnd = 0;
        while (true) {
            MorselQueue from = own;
            int i = own.take();
            while (i < 0) {
                boolean waiting = false;
                boolean patient = patienceEnd == 0 || queriesRunning.get() < 2 || System.nanoTime() < patienceEnd;
                for (MorselQueue other : steal) {
                    boolean begun = other.started();
                    if (!begun && patient) {
                        waiting |= other.remaining() > 0;
                        continue;
                    }
                    if (begun && !other.worthStealing()) {
                        continue;
                    }
                    i = other.take();
                    if (i >= 0) {
                        from = other;
                        break;
                    }
                }
                if (i >= 0) {
                    break;
                }
                if (!waiting) {
                    return new TaskResult(node, partial);
                }
                if (patienceEnd == 0) {
                    patienceEnd = System.nanoTime() + OWNER_PATIENCE_NANOS;
                }
                LockSupport.parkNanos(WAIT_FOR_OWNERS_NANOS);
            }
            if (partial == null) {
                partial = new Partial(q);
            }
            partial.run(parts.get(from.partition[i]), from.morsel[i], from.active[i]);
            if (from == own) {
                partial.morselsHome++;
            }
        }
    }

    /** The morsels of one node for one query: filled before the workers start, then taken by a shared cursor. */
    private static final class MorselQueue {
        static final int KEPT_PER_OWNER = 2;
        int[] partition = new int[64];
        int[] morsel = new int[64];
        long[] active = new long[64];
        int size;
        final AtomicInteger next = new AtomicInteger();
        /** The node's own workers; none: thieves take from it at once, down to the last morsel. */
        final int owners;
        final boolean ownerless;

        MorselQueue(int owners) {
            this.owners = owners;
            this.ownerless = owners == 0;
        }

        void add(int p, int m, long activeMasks) {
            if (size == partition.length) {
                partition = java.util.Arrays.copyOf(partition, size * 2);
                morsel = java.util.Arrays.copyOf(morsel, size * 2);
                active = java.util.Arrays.copyOf(active, size * 2);
            }
            partition[size] = p;
            morsel[size] = m;
            active[size] = activeMasks;
            size++;
        }

        int take() {
            if (next.get() >= size) {
                return -1;
            }
            int i = next.getAndIncrement();
            return i < size ? i : -1;
        }

        /**
         * Whether a thief should take from this queue now: while more than {@value #KEPT_PER_OWNER} morsels per own
         * worker are left. The last ones stay with the owners, who are busy with a morsel each and will get to them
         * about as soon as a thief would, reading local memory instead of remote.
         */
        boolean worthStealing() {
            return ownerless || remaining() > (long) KEPT_PER_OWNER * owners;
        }

        /**
         * Whether one of this node's own workers has begun: thieves wait for that (sleeping briefly, then looking
         * again, for at most {@link #OWNER_PATIENCE_NANOS}), so a node whose workers are merely slow to wake (a
         * descheduled vCPU) keeps its morsels; stealing is for nodes that fall behind.
         */
        boolean started() {
            return ownerless || next.get() > 0;
        }

        boolean isEmpty() {
            return size == 0;
        }

        int remaining() {
            return Math.max(0, size - next.get());
        }
    }
}
