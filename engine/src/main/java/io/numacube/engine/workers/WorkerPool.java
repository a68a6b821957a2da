package io.numacube.engine.workers;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The engine's view of its workers: threads grouped by node. The groups are fixed, but for {@link #reshape}, which may
 * add a node (never take one away) and change a node's worker count: a caller that reads {@link #nodes()} and {@link
 * #workersOn} several times must allow for a node it did not see before. Implementations: {@link ThreadWorkerPool}
 * (plain threads on logical nodes) and {@link NumaWorkerPool} (threads pinned to each node's CPUs).
 *
 * <p>Thread-safety: every method may be called from any thread that is not itself one of the pool's workers
 * ({@link #runOnEveryWorker} from a worker would wait on itself). Several callers may use the pool at once; each
 * worker runs the tasks given to it one after another.
 */
public interface WorkerPool extends AutoCloseable {

    /** The node ids that have workers, ascending. */
    List<Integer> nodes();

    int workersOn(int node);

    int workerCount();

    /**
     * The worker count the pool started with, which a {@link #reshape} does not change: what a query's blocks of
     * morsels are sized for, so that the rounding of an answer never depends on how the pool was reshaped since.
     */
    default int workersAtStart() {
        return workerCount();
    }

    /**
     * The other nodes in the order a worker of {@code node} should steal from them: nearest first (by the node distance
     * table where known, else by id).
     */
    List<Integer> stealOrder(int node);

    /** Runs {@code task} on one of {@code node}'s workers (round-robin). */
    <T> CompletableFuture<T> submit(int node, Callable<T> task);

    /**
     * The queries running on this pool now, kept by {@link QueryExecutor}: while there are several, a worker of one
     * may not wait long for other nodes' workers, which may be busy with another.
     */
    AtomicInteger queriesRunning();

    /** Runs {@code body} once on every worker and waits for all; rethrows the first failure. */
    void runOnEveryWorker(WorkerBody body);

    /**
     * Re-pins the workers of each node in {@code cpusByNode} to its CPUs; they keep their node and queue. Waits up to
     * {@code timeoutMillis} for every worker to apply it; true when all did. Pools whose threads are not pinned (plain
     * threads) do nothing and answer true.
     */
    default boolean repin(
            java.util.SortedMap<Integer, io.numacube.numa.topology.CpuSet> cpusByNode, long timeoutMillis) {
        return true;
    }

    /**
     * Re-pins the workers of each node in {@code cpusByNode} to its CPUs and sizes the nodes' worker counts to them,
     * adding the nodes new to the pool ({@link io.numacube.numa.exec.NodeWorkerPool#reshape}); a node in {@code
     * borrowed} runs on another node's CPUs, with one worker. Does not wait for the workers to re-pin: {@link
     * #awaitPinned} with the answer does. Pools whose threads are not pinned do nothing and answer 0.
     *
     * @return the pin generation to wait for, and what changed in words (empty when no count did)
     */
    default Reshaped reshape(
            java.util.SortedMap<Integer, io.numacube.numa.topology.CpuSet> cpusByNode,
            java.util.Set<Integer> borrowed) {
        return new Reshaped(0, "");
    }

    /** Waits up to {@code timeoutMillis} for every worker to apply the pinning of {@code generation}; true when all did. */
    default boolean awaitPinned(long generation, long timeoutMillis) {
        return true;
    }

    /**
     * What a {@link #reshape} did. Immutable.
     *
     * @param generation the pin generation to wait for
     * @param workers    the nodes whose worker counts changed ({@code n0 4->1, n1 0->4}); empty when none did
     */
    record Reshaped(long generation, String workers) {}

    /** One line saying which path is active. */
    String describe();

    @Override
    void close();

    /** Work run once per worker. */
    @FunctionalInterface
    interface WorkerBody {
        /**
         * @param node        the worker's node
         * @param workerId    0..workerCount-1, unique in the pool
         * @param indexOnNode 0..workersOn(node)-1
         */
        void run(int node, int workerId, int indexOnNode) throws Exception;
    }
}
