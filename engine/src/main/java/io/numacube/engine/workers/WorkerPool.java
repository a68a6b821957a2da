package io.numacube.engine.workers;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The engine's view of its workers: a fixed set of threads grouped by node. Implementations: {@link ThreadWorkerPool}
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
