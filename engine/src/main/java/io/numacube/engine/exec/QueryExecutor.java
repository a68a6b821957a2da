package io.numacube.engine.exec;

import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.result.Cancellation;
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
 * and whichever thread finishes first: the unit of aggregation state is a {@link MorselQueue.Block}, a fixed run of consecutive
 * morsels of one partition (its size depends on the data, the group count and the worker count, never on timing).
 * A worker sinks a whole block into a fresh {@link AggregationState}; each partition's {@link PartitionMerger} combines
 * its blocks' states in block order as they complete (so only the states that finished ahead of an unfinished
 * predecessor stay alive), then the partitions' states are combined as in partition order ({@link PartitionStates}: by
 * hash ranges of the groups on the workers where they are many) and {@link ResultFinalizer} finalizes the result.
 *
 * <p>Stateless; thread-safe: concurrent queries each get their own queues and aggregation states, and the tables they read are
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
     * @param dimensions  the joined dimension tables, in the order of {@code lq.joins()}
     * @param startNanos  {@link System#nanoTime()} when the query call began (for the wall time)
     * @param cancel      checked between blocks of morsels; once thrown the query stops with 57014
     */
    public static QueryResult run(
            LogicalQuery lq,
            FactTable fact,
            List<FactTable> dimensions,
            WorkerPool pool,
            boolean stealing,
            long startNanos,
            Cancellation cancel) {
        cancel.check();
        pool.queriesRunning().incrementAndGet();
        try {
            return execute(lq, fact, dimensions, pool, stealing, startNanos, cancel);
        } finally {
            pool.queriesRunning().decrementAndGet();
        }
    }

    private static QueryResult execute(
            LogicalQuery lq,
            FactTable fact,
            List<FactTable> dimensions,
            WorkerPool pool,
            boolean stealing,
            long startNanos,
            Cancellation cancel) {
        long planStart = System.nanoTime();
        PhysicalPlan plan = QueryCompiler.compile(lq, fact, dimensions, pool);
        long scanStart = System.nanoTime();
        Schedule schedule = Schedule.of(plan, pool);
        NodeCounts byNode = runWorkers(plan, schedule, pool, stealing, cancel);
        cancel.check();
        runLeftovers(plan, schedule, cancel);
        cancel.check();
        List<AggregationState> states = new ArrayList<>();
        for (PartitionMerger merger : schedule.mergers()) {
            AggregationState state = merger == null ? null : merger.result();
            if (state != null) {
                states.add(state);
            }
        }
        AggregationState merged = PartitionStates.combine(plan, states, pool);
        long finishStart = System.nanoTime();
        QueryResult r = ResultFinalizer.finish(
                plan, merged, stats(plan, merged, schedule, byNode, startNanos, QueryStats.Phases.NONE), pool);
        QueryStats.Phases phases = new QueryStats.Phases(
                (scanStart - planStart) / 1e9,
                (finishStart - scanStart) / 1e9,
                (System.nanoTime() - finishStart) / 1e9);
        return r.withStats(stats(plan, merged, schedule, byNode, startNanos, phases));
    }

    private static QueryStats stats(
            PhysicalPlan plan,
            AggregationState merged,
            Schedule schedule,
            NodeCounts byNode,
            long startNanos,
            QueryStats.Phases phases) {
        long morsels = merged == null ? 0 : merged.morsels;
        long home = merged == null ? 0 : merged.morselsHome;
        long rows = merged == null ? 0 : merged.rowsScanned;
        double wall = (System.nanoTime() - startNanos) / 1e9;
        return new QueryStats(
                wall,
                rows,
                rows * plan.scan().bytesPerRow(),
                morsels,
                home,
                morsels - home,
                schedule.skipped(),
                byNode.run(),
                byNode.home(),
                plan.description(),
                phases,
                Map.of());
    }

    /**
     * Where a query's morsels go: a queue per node of the blocks of morsels that zone maps do not rule out, each
     * partition's blocks on its home node's queue, and a merger per partition (null for a pruned one).
     *
     * @param skipped morsels ruled out by partition pruning or zone maps
     */
    private record Schedule(
            Map<Integer, MorselQueue> queues, List<Partition> parts, PartitionMerger[] mergers, long skipped) {

        static Schedule of(PhysicalPlan plan, WorkerPool pool) {
            List<Integer> nodes = pool.nodes();
            Map<Integer, MorselQueue> queues = new HashMap<>();
            for (int node : nodes) {
                queues.put(node, new MorselQueue(pool.workersOn(node)));
            }
            long skipped = 0;
            List<Partition> parts = plan.fact().partitions();
            PartitionMerger[] mergers = new PartitionMerger[parts.size()];
            if (plan.filter().nothingPasses()) {
                return new Schedule(queues, parts, mergers, 0);
            }
            int blockMorsels = blockMorsels(plan, plan.fact(), pool.workersAtStart());
            for (int pi = 0; pi < parts.size(); pi++) {
                Partition p = parts.get(pi);
                if (!mayPass(plan, p)) {
                    skipped += p.morselCount();
                    continue;
                }
                MorselQueue queue = queues.getOrDefault(p.homeNode(), queues.get(nodes.get(pi % nodes.size())));
                PartitionMerger merger = new PartitionMerger();
                for (int m = 0; m < p.morselCount(); m++) {
                    long active = activeMasks(plan, p, m);
                    if (active < 0) {
                        skipped++;
                    } else {
                        queue.add(pi, m, active, merger, blockMorsels);
                    }
                }
                queue.endBlock();
                mergers[pi] = merger;
            }
            return new Schedule(queues, parts, mergers, skipped);
        }
    }

    /** Per worker node, the morsels its workers ran and those they took from their own node's queue. */
    private record NodeCounts(Map<Integer, Long> run, Map<Integer, Long> home) {}

    /** Starts every node's workers on the schedule and waits for them; returns the morsels run per node. */
    private static NodeCounts runWorkers(
            PhysicalPlan plan, Schedule schedule, WorkerPool pool, boolean stealing, Cancellation cancel) {
        Map<Integer, MorselQueue> queues = schedule.queues();
        List<CompletableFuture<TaskResult>> futures = new ArrayList<>();
        // the nodes and worker counts the schedule was made for: the pool may have been reshaped since
        for (int node : new java.util.TreeSet<>(queues.keySet())) {
            if (queues.values().stream().allMatch(MorselQueue::isEmpty)) {
                break;
            }
            List<MorselQueue> steal = new ArrayList<>();
            if (stealing) {
                for (int other : pool.stealOrder(node)) {
                    MorselQueue q = queues.get(other);
                    if (q != null) {
                        steal.add(q);
                    }
                }
            }
            MorselQueue own = queues.get(node);
            for (int w = 0; w < Math.max(1, own.owners); w++) {
                futures.add(pool.submit(
                        node, () -> work(plan, schedule.parts(), node, own, steal, pool.queriesRunning(), cancel)));
            }
        }
        ThreadWorkerPool.awaitAll(futures);
        Map<Integer, Long> byNode = new TreeMap<>();
        Map<Integer, Long> homeByNode = new TreeMap<>();
        for (CompletableFuture<TaskResult> f : futures) {
            TaskResult t = f.join();
            if (t.morsels > 0) {
                byNode.merge(t.node, t.morsels, Long::sum);
            }
            if (t.home > 0) {
                homeByNode.merge(t.node, t.home, Long::sum);
            }
        }
        return new NodeCounts(byNode, homeByNode);
    }

    /** Stealing is off and a node with morsels has no workers: runs them on this thread rather than drop them. */
    private static void runLeftovers(PhysicalPlan plan, Schedule schedule, Cancellation cancel) {
        AggregationState vectors = null;
        for (MorselQueue queue : schedule.queues().values()) {
            int i;
            while (!cancel.isCancelled() && (i = queue.take()) >= 0) {
                if (vectors == null) {
                    vectors = new AggregationState(plan);
                }
                queue.runBlock(i, schedule.parts(), vectors, false);
            }
        }
    }

    /**
     * Morsels per block: enough rows that merging a block's state (one pass over its groups, serial per partition)
     * costs a small fraction of scanning it, so blocks grow with the group count and the workers that scan in
     * parallel; one morsel when groups are few. Never from timing: the blocks, and so the answer's rounding, are a
     * function of the data, the query and the worker count the pool started with ({@link WorkerPool#workersAtStart()}).
     */
    static int blockMorsels(PhysicalPlan plan, FactTable fact, int workers) {
        long groups = Math.min(Math.max(1, plan.keys().size()), 1L << 40);
        long rows = groups * 16L * Math.max(1, Math.min(workers, 1 << 16));
        long morselRows = Math.max(
                1, fact.partitions().isEmpty() ? 1 : fact.partitions().get(0).morselRows());
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (rows + morselRows - 1) / morselRows));
    }

    /** False when, for some filtered dimension, no code present in the partition passes (partition pruning). */
    private static boolean mayPass(PhysicalPlan plan, Partition p) {
        for (RowFilter.CodeMask m : plan.filter().masks()) {
            if (plan.fact().isCodedIndex(m.column())) {
                continue;
            }
            long[] bits = p.presentCodes(m.column());
            if (bits != null && !anyPasses(bits, m.passes())) {
                return false;
            }
        }
        return true;
    }

    private static boolean anyPasses(long[] presentCodes, boolean[] passes) {
        for (int w = 0; w < presentCodes.length; w++) {
            long word = presentCodes[w];
            while (word != 0) {
                int code = (w << 6) + Long.numberOfTrailingZeros(word);
                if (code < passes.length && passes[code]) {
                    return true;
                }
                word &= word - 1;
            }
        }
        return false;
    }

    /** -1 when the zone maps show no row can pass; else a bit per mask that must still be applied. */
    private static long activeMasks(PhysicalPlan plan, Partition p, int m) {
        long active = 0;
        RowFilter.CodeMask[] masks = plan.filter().masks();
        for (int i = 0; i < masks.length; i++) {
            int col = masks[i].column();
            boolean zoned = !plan.fact().isCodedIndex(col);
            int lo = zoned ? p.zoneMin(col, m) : 0;
            int hi = zoned ? p.zoneMax(col, m) : masks[i].passes().length - 1;
            int pass = masks[i].passingIn(lo, hi);
            if (pass == 0) {
                return -1;
            }
            if (pass < hi - lo + 1 && i < 63) {
                active |= 1L << i;
            }
        }
        return active;
    }

    /** What one worker task did: the morsels it ran and those of its own node's queue, for the per-node counts. */
    private record TaskResult(int node, long morsels, long home) {}

    private static TaskResult work(
            PhysicalPlan plan,
            List<Partition> parts,
            int node,
            MorselQueue own,
            List<MorselQueue> steal,
            AtomicInteger queriesRunning,
            Cancellation cancel) {
        AggregationState vectors = null;
        long ran = 0;
        long home = 0;
        long patienceEnd = 0;
        while (true) {
            if (cancel.isCancelled()) {
                return new TaskResult(node, ran, home);
            }
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
                    return new TaskResult(node, ran, home);
                }
                if (patienceEnd == 0) {
                    patienceEnd = System.nanoTime() + OWNER_PATIENCE_NANOS;
                }
                LockSupport.parkNanos(WAIT_FOR_OWNERS_NANOS);
            }
            if (vectors == null) {
                vectors = new AggregationState(plan);
            }
            int n = from.runBlock(i, parts, vectors, from == own);
            ran += n;
            home += from == own ? n : 0;
        }
    }
}
