package io.numacube.bench.probe;

import io.numacube.numa.exec.NodeWorkerPool;
import java.util.function.IntConsumer;

/**
 * A {@link ThreadTeam} of the runtime's node-pinned workers ({@link NodeWorkerPool}): body {@code i} runs on worker
 * {@code i} (workers are numbered node by node), so a probe with every worker reads with every node's CPUs, and the
 * pages each worker first touches land on its node. At most {@link #size()} threads at once.
 *
 * <p>Safe to call from one thread at a time (not from a worker of its own pool). The pool's threads are daemons owned
 * by this team.
 */
public final class PinnedTeam implements ThreadTeam {

    private final NodeWorkerPool pool;

    public PinnedTeam(NodeWorkerPool pool) {
        this.pool = pool;
    }

    /** Workers available. */
    public int size() {
        return pool.workerCount();
    }

    /**
     * @throws IllegalArgumentException when {@code n} exceeds the pool's workers
     */
    @Override
    public void run(int n, IntConsumer body) {
        if (n > pool.workerCount()) {
            throw new IllegalArgumentException("a pinned team runs at most one body per worker: n=" + n + " workers="
                    + pool.workerCount() + " — ask for fewer threads");
        }
        pool.runOnEveryWorker(ctx -> {
            if (ctx.workerId() < n) {
                body.accept(ctx.workerId());
            }
        });
    }

    @Override
    public String description() {
        return "runtime workers pinned per node (" + pool.workerCount() + " on nodes " + pool.nodes() + ")";
    }
}
