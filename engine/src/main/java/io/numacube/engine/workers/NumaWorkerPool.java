package io.numacube.engine.workers;

import io.numacube.numa.exec.NodeWorkerPool;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The engine's worker pool on the NUMA runtime: a {@link NodeWorkerPool} with workers pinned to each worker node's
 * CPUs; steal order by the topology's node distances (nearest first, then by id). Its nodes and counts follow the
 * pool's ({@link #reshape}). Owns the pool and closes it.
 * Thread-safe.
 */
public final class NumaWorkerPool implements WorkerPool {

    private final NodeWorkerPool pool;
    private final Topology topology;
    private final int workersAtStart;
    private final AtomicInteger queriesRunning = new AtomicInteger();
    private volatile NodeList nodeList;

    public NumaWorkerPool(NodeWorkerPool pool, Topology topology) {
        this.pool = pool;
        this.topology = topology;
        this.workersAtStart = pool.workerCount();
    }

    @Override
    public int workersAtStart() {
        return workersAtStart;
    }

    @Override
    public List<Integer> nodes() {
        NodeSet now = pool.nodes();
        NodeList kept = nodeList;
        if (kept == null || kept.nodes() != now) {
            kept = new NodeList(now, now.stream().sorted().boxed().toList());
            nodeList = kept;
        }
        return kept.ids();
    }

    /** {@code nodes} as the sorted list {@link #nodes()} answers (kept while the pool's set is the same object). */
    private record NodeList(NodeSet nodes, List<Integer> ids) {}

    @Override
    public int workersOn(int node) {
        return pool.workersOn(node);
    }

    @Override
    public int workerCount() {
        return pool.workerCount();
    }

    @Override
    public List<Integer> stealOrder(int node) {
        List<Integer> others = new ArrayList<>();
        for (int n : nodes()) {
            if (n != node) {
                others.add(n);
            }
        }
        others.sort(Comparator.comparingInt((Integer n) -> distance(node, n)).thenComparingInt(n -> n));
        return others;
    }

    private int distance(int a, int b) {
        try {
            return topology.distance(a, b);
        } catch (RuntimeException e) {
            return Integer.MAX_VALUE;
        }
    }

    @Override
    public <T> CompletableFuture<T> submit(int node, Callable<T> task) {
        return pool.submit(node, task);
    }

    @Override
    public AtomicInteger queriesRunning() {
        return queriesRunning;
    }

    @Override
    public void runOnEveryWorker(WorkerBody body) {
        pool.runOnEveryWorker(ctx -> body.run(ctx.node(), ctx.workerId(), ctx.indexOnNode()));
    }

    @Override
    public boolean repin(
            java.util.SortedMap<Integer, io.numacube.numa.topology.CpuSet> cpusByNode, long timeoutMillis) {
        return pool.repin(cpusByNode, timeoutMillis);
    }

    @Override
    public Reshaped reshape(
            java.util.SortedMap<Integer, io.numacube.numa.topology.CpuSet> cpusByNode,
            java.util.Set<Integer> borrowed) {
        NodeWorkerPool.Reshape r = pool.reshape(cpusByNode, borrowed);
        return new Reshaped(r.generation(), r.describe());
    }

    @Override
    public boolean awaitPinned(long generation, long timeoutMillis) {
        return pool.awaitPinned(generation, timeoutMillis);
    }

    /** How each worker is pinned now. */
    public List<NodeWorkerPool.WorkerReport> workerReports() {
        return pool.workerReports();
    }

    @Override
    public String describe() {
        long pinned = pool.workerReports().stream()
                .filter(NodeWorkerPool.WorkerReport::pinned)
                .count();
        return "workers=pinned nodes=" + nodes() + " workers=" + pool.workerCount() + " pinned=" + pinned;
    }

    @Override
    public void close() {
        pool.close();
    }
}
