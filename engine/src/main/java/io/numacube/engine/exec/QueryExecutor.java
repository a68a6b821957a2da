package io.numacube.engine.exec;

import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.engine.workers.WorkerPool;
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
 * on each other.
 *
 * <p>Answers are bit-identical from run to run for the same data, query and worker count, however morsels are stolen
 * and whichever thread finishes first: the unit of aggregation state is a {@link Block}, a fixed run of consecutive
 * morsels of one partition (its size depends on the data, the group count and the worker count, never on timing).
 * A worker folds a whole block into a fresh {@link Partial}; each partition's {@link PartitionMerger} merges its
 * blocks' states in block order as they complete (so only the states that finished ahead of an unfinished
 * predecessor stay alive), and the calling thread merges the partitions' states in partition order and finishes.
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

    private QueryExecutor() {}

    /**
     * @param lookup      the joined table, or null
     * @param startNanos  {@link System#nanoTime()} when the query call began (for the wall time)
     */
    public static QueryResult run(
            LogicalQuery lq, FactTable fact, FactTable lookup, WorkerPool pool, boolean stealing, long startNanos) {
        pool.queriesRunning().incrementAndGet();
        try {
            return execute(lq, fact, lookup, pool, stealing, startNanos);
        } finally {
            pool.queriesRunning().decrementAndGet();
        }
    }

    private static QueryResult execute(
            LogicalQuery lq, FactTable fact, FactTable lookup, WorkerPool pool, boolean stealing, long startNanos) {
        CompiledQuery q = QueryCompiler.compile(lq, fact, lookup, pool.workerCount());
        List<Integer> nodes = pool.nodes();
        Map<Integer, MorselQueue> queues = new HashMap<>();
        for (int node : nodes) {
            queues.put(node, new MorselQueue(pool.workersOn(node)));
        }
        long skipped = 0;
        List<Partition> parts = fact.partitions();
        PartitionMerger[] mergers = new PartitionMerger[parts.size()];
        if (!q.empty) {
            int blockMorsels = blockMorsels(q, fact, pool.workerCount());
            for (int pi = 0; pi < parts.size(); pi++) {
                Partition p = parts.get(pi);
                if (!mayPass(q, p)) {
                    skipped += p.morselCount();
                    continue;
                }
                MorselQueue queue = queues.getOrDefault(p.homeNode(), queues.get(nodes.get(pi % nodes.size())));
                PartitionMerger merger = new PartitionMerger();
                for (int m = 0; m < p.morselCount(); m++) {
                    long active = activeMasks(q, p, m);
                    if (active < 0) {
                        skipped++;
                    } else {
                        queue.add(pi, m, active, merger, blockMorsels);
                    }
                }
                queue.endBlock();
                mergers[pi] = merger;
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
        Map<Integer, Long> byNode = new TreeMap<>();
        for (CompletableFuture<TaskResult> f : futures) {
            TaskResult t = f.join();
            if (t.morsels > 0) {
                byNode.merge(t.node, t.morsels, Long::sum);
            }
        }
        Partial rest = null;
        for (MorselQueue queue : queues.values()) {
            // stealing is off and a node with morsels has no workers: run them here rather than drop them
            int i;
            while ((i = queue.take()) >= 0) {
                if (rest == null) {
                    rest = new Partial(q);
                }
                queue.runBlock(i, q, parts, rest, false);
            }
        }
        Partial merged = null;
        for (PartitionMerger merger : mergers) {
            Partial state = merger == null ? null : merger.result();
            if (state == null) {
                continue;
            }
            if (merged == null) {
                merged = state;
            } else {
                merged.merge(state);
            }
        }
        long morsels = merged == null ? 0 : merged.morsels;
        long home = merged == null ? 0 : merged.morselsHome;
        long rows = merged == null ? 0 : merged.rowsScanned;
        double wall = (System.nanoTime() - startNanos) / 1e9;
        QueryStats stats = new QueryStats(
                wall, rows, rows * q.bytesPerRow, morsels, home, morsels - home, skipped, byNode, q.description);
        QueryResult r = Finalizer.finish(q, merged, stats);
        double total = (System.nanoTime() - startNanos) / 1e9;
        return r.withStats(new QueryStats(
                total, rows, rows * q.bytesPerRow, morsels, home, morsels - home, skipped, byNode, q.description));
    }

    /**
     * Morsels per block: enough rows that merging a block's state (one pass over its groups, serial per partition)
     * costs a small fraction of scanning it, so blocks grow with the group count and the workers that scan in
     * parallel; one morsel when groups are few. Never from timing: the blocks, and so the answer's rounding, are a
     * function of the data, the query and the worker count.
     */
    static int blockMorsels(CompiledQuery q, FactTable fact, int workers) {
        long groups = Math.min(Math.max(1, q.groupSpace), 1L << 40);
        long rows = groups * 16L * Math.max(1, Math.min(workers, 1 << 16));
        long morselRows = Math.max(
                1, fact.partitions().isEmpty() ? 1 : fact.partitions().get(0).morselRows());
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (rows + morselRows - 1) / morselRows));
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

    /** What one worker task did: the morsels it ran, for the per-node counts. */
    private record TaskResult(int node, long morsels) {}

    private static TaskResult work(
            CompiledQuery q,
            List<Partition> parts,
            int node,
            MorselQueue own,
            List<MorselQueue> steal,
            AtomicInteger queriesRunning) {
        Partial scratch = null;
        long ran = 0;
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
                    return new TaskResult(node, ran);
                }
                if (patienceEnd == 0) {
                    patienceEnd = System.nanoTime() + OWNER_PATIENCE_NANOS;
                }
                LockSupport.parkNanos(WAIT_FOR_OWNERS_NANOS);
            }
            if (scratch == null) {
                scratch = new Partial(q);
            }
            ran += from.runBlock(i, q, parts, scratch, from == own);
        }
    }

    /**
     * Merges the block states of one partition in block order, as they complete: a state that finishes before its
     * predecessor waits here; the merged prefix is one state. Thread-safe (its methods are synchronized); the
     * result is read once every block completed.
     */
    static final class PartitionMerger {
        private final List<Partial> waiting = new ArrayList<>();
        private int next;
        private Partial merged;

        synchronized void complete(int block, Partial state) {
            while (waiting.size() <= block) {
                waiting.add(null);
            }
            waiting.set(block, state);
            while (next < waiting.size() && waiting.get(next) != null) {
                Partial s = waiting.set(next, null);
                next++;
                if (merged == null) {
                    merged = s;
                } else {
                    merged.merge(s);
                }
            }
        }

        /** The partition's merged state, or null when none of its blocks ran. */
        synchronized Partial result() {
            return merged;
        }
    }

    /**
     * The morsels of one node for one query, in blocks ({@link Block}: consecutive morsels of one partition, the unit
     * that a worker takes and folds into one state): filled before the workers start, then taken by a shared cursor.
     */
    private static final class MorselQueue {
        static final int KEPT_PER_OWNER = 2;
        int[] partition = new int[64];
        int[] morsel = new int[64];
        long[] active = new long[64];
        int size;
        final List<Block> blocks = new ArrayList<>();
        private int blockStart;
        private PartitionMerger blockMerger;
        private int blockOfPartition;
        final AtomicInteger next = new AtomicInteger();
        /** The node's own workers; none: thieves take from it at once, down to the last block. */
        final int owners;

        final boolean ownerless;

        MorselQueue(int owners) {
            this.owners = owners;
            this.ownerless = owners == 0;
        }

        /** Appends a morsel; a block ends at {@code blockMorsels} morsels or where the partition changes. */
        void add(int p, int m, long activeMasks, PartitionMerger merger, int blockMorsels) {
            if (merger != blockMerger) {
                endBlock();
                blockMerger = merger;
                blockOfPartition = 0;
            } else if (size - blockStart >= blockMorsels) {
                endBlock();
            }
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

        /** Closes the block being filled, if it holds a morsel. */
        void endBlock() {
            if (size > blockStart) {
                blocks.add(new Block(blockStart, size, blockMerger, blockOfPartition++));
                blockStart = size;
            }
        }

        /**
         * Folds block {@code i} into a fresh state that borrows {@code scratch}'s vectors and hands it to its
         * partition's merger. Returns the morsels run.
         */
        int runBlock(int i, CompiledQuery q, List<Partition> parts, Partial scratch, boolean home) {
            Block b = blocks.get(i);
            Partial state = new Partial(scratch);
            for (int e = b.first(); e < b.end(); e++) {
                state.run(parts.get(partition[e]), morsel[e], active[e]);
            }
            if (home) {
                state.morselsHome += b.end() - b.first();
            }
            b.merger().complete(b.indexInPartition(), state);
            return b.end() - b.first();
        }

        int take() {
            if (next.get() >= blocks.size()) {
                return -1;
            }
            int i = next.getAndIncrement();
            return i < blocks.size() ? i : -1;
        }

        /**
         * Whether a thief should take from this queue now: while more than {@value #KEPT_PER_OWNER} blocks per own
         * worker are left. The last ones stay with the owners, who are busy with a block each and will get to them
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
            return Math.max(0, blocks.size() - next.get());
        }
    }

    /**
     * Consecutive queue entries {@code [first, end)}, all of one partition, folded into one state by one worker.
     *
     * @param indexInPartition the block's place among its partition's blocks: the order its state is merged in
     */
    private record Block(int first, int end, PartitionMerger merger, int indexInPartition) {}
}
