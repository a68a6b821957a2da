package io.numacube.engine.exec;

import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.engine.workers.WorkerPool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Combines the partitions' aggregation states of one query into the state {@link ResultFinalizer} reads, as a serial
 * combine in partition order would: every group's counts and values come out bit-identical to it. Few groups are
 * combined on the calling thread. Many ({@value #PARALLEL_GROUPS} or more group slots over several partitions) are
 * combined on the workers, side by side: dense arrays by chunks of their slots, into the first partition's state;
 * groups of a hash table by hash ranges of their keys, each range combined from every partition in partition order,
 * then the ranges' disjoint groups laid end to end (their order is the ranges', a function of the keys and the worker
 * count, never of timing). Stateless.
 */
final class PartitionStates {

    /** The groups over all partitions from which ranges are combined in parallel. */
    static final int PARALLEL_GROUPS = 65_536;

    /** The system property that, {@code false}, combines on the calling thread only (for an A/B of one process). */
    static final String PARALLEL_PROPERTY = "numacube.parallelCombine";

    private PartitionStates() {}

    /** The combined state of {@code states} (in partition order, none null), or null when there is none. */
    static AggregationState combine(PhysicalPlan plan, List<AggregationState> states, WorkerPool pool) {
        if (states.isEmpty()) {
            return null;
        }
        long groups = 0;
        for (AggregationState s : states) {
            groups += s.groups();
        }
        List<Integer> nodes = new ArrayList<>();
        for (int node : pool.nodes()) {
            if (pool.workersOn(node) > 0) {
                nodes.add(node);
            }
        }
        int workers = pool.workerCount();
        if (states.size() < 2
                || workers < 2
                || nodes.isEmpty()
                || groups < PARALLEL_GROUPS
                || "false".equals(System.getProperty(PARALLEL_PROPERTY))) {
            return serial(states);
        }
        if (!states.get(0).sparse()) {
            return denseBySlots(states, pool, nodes, workers);
        }
        int bits = 32 - Integer.numberOfLeadingZeros(Math.min(64, 2 * workers) - 1);
        List<CompletableFuture<AggregationState>> ranges = new ArrayList<>();
        for (int r = 0; r < 1 << bits; r++) {
            int range = r;
            ranges.add(pool.submit(nodes.get(r % nodes.size()), () -> range(plan, states, range, bits)));
        }
        ThreadWorkerPool.awaitAll(ranges);
        List<AggregationState> parts = new ArrayList<>();
        for (CompletableFuture<AggregationState> f : ranges) {
            parts.add(f.join());
        }
        AggregationState c = AggregationState.concat(plan, parts);
        for (AggregationState s : states) {
            c.addCounters(s);
        }
        return c;
    }

    /**
     * Dense states: the first state takes the others' slots in partition order, its slot range cut in chunks that
     * the workers combine side by side (each slot's order of additions is the serial combine's).
     */
    private static AggregationState denseBySlots(
            List<AggregationState> states, WorkerPool pool, List<Integer> nodes, int workers) {
        AggregationState first = states.get(0);
        List<AggregationState> others = states.subList(1, states.size());
        first.prepareSlotCombine(others);
        int slots = first.groups();
        int chunks = Math.min(Math.max(1, slots / 4096), Math.min(64, 2 * workers));
        List<CompletableFuture<Void>> tasks = new ArrayList<>();
        for (int c = 0; c < chunks; c++) {
            int from = (int) ((long) slots * c / chunks);
            int to = (int) ((long) slots * (c + 1) / chunks);
            tasks.add(pool.submit(nodes.get(c % nodes.size()), () -> {
                for (AggregationState o : others) {
                    first.combineSlots(o, from, to);
                }
                return null;
            }));
        }
        ThreadWorkerPool.awaitAll(tasks);
        for (AggregationState o : others) {
            first.addCounters(o);
        }
        return first;
    }

    private static AggregationState serial(List<AggregationState> states) {
        AggregationState merged = states.get(0);
        for (int i = 1; i < states.size(); i++) {
            merged.combine(states.get(i));
        }
        return merged;
    }

    private static AggregationState range(PhysicalPlan plan, List<AggregationState> states, int range, int bits) {
        AggregationState target = new AggregationState(plan);
        for (int p = 0; p < states.size(); p++) {
            target.combineRange(states.get(p), range, bits, p == 0);
        }
        return target;
    }
}
