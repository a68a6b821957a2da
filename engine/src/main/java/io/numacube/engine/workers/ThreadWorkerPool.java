package io.numacube.engine.workers;

import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Plain-Java worker pool: {@code nodes × threadsPerNode} daemon threads, unpinned, grouped on <em>logical</em> nodes
 * {@code 0..nodes-1}. Used where the NUMA runtime is not available, and in tests to exercise multi-node scheduling
 * (home queues, stealing) on a one-node machine. Each worker has its own task queue. Thread-safe.
 */
public final class ThreadWorkerPool implements WorkerPool {

    private final int nodeCount;
    private final int threadsPerNode;
    private final Worker[] workers;
    private final AtomicInteger[] roundRobin;
    private final AtomicInteger queriesRunning = new AtomicInteger();

    public ThreadWorkerPool(int nodeCount, int threadsPerNode) {
        if (nodeCount < 1 || threadsPerNode < 1) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a pool needs at least one node and one thread per node: nodes=" + nodeCount + " threadsPerNode="
                            + threadsPerNode);
        }
        this.nodeCount = nodeCount;
        this.threadsPerNode = threadsPerNode;
        this.workers = new Worker[nodeCount * threadsPerNode];
        this.roundRobin = new AtomicInteger[nodeCount];
        for (int n = 0; n < nodeCount; n++) {
            roundRobin[n] = new AtomicInteger();
            for (int i = 0; i < threadsPerNode; i++) {
                int id = n * threadsPerNode + i;
                workers[id] = new Worker("numacube-n" + n + "-w" + i);
                workers[id].start();
            }
        }
    }

    @Override
    public List<Integer> nodes() {
        List<Integer> ids = new ArrayList<>();
        for (int n = 0; n < nodeCount; n++) {
            ids.add(n);
        }
        return ids;
    }

    @Override
    public int workersOn(int node) {
        return node >= 0 && node < nodeCount ? threadsPerNode : 0;
    }

    @Override
    public int workerCount() {
        return workers.length;
    }

    @Override
    public List<Integer> stealOrder(int node) {
        List<Integer> order = new ArrayList<>();
        for (int d = 1; d < nodeCount; d++) {
            order.add((node + d) % nodeCount);
        }
        return order;
    }

    @Override
    public <T> CompletableFuture<T> submit(int node, Callable<T> task) {
        if (node < 0 || node >= nodeCount) {
            throw new NumacubeException(NumacubeException.Kind.INTERNAL, "no workers on node: node=" + node);
        }
        int i = Math.floorMod(roundRobin[node].getAndIncrement(), threadsPerNode);
        CompletableFuture<T> f = new CompletableFuture<>();
        workers[node * threadsPerNode + i].queue.add(() -> {
            try {
                f.complete(task.call());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f;
    }

    @Override
    public AtomicInteger queriesRunning() {
        return queriesRunning;
    }

    @Override
    public void runOnEveryWorker(WorkerBody body) {
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int id = 0; id < workers.length; id++) {
            int node = id / threadsPerNode;
            int idx = id % threadsPerNode;
            int wid = id;
            CompletableFuture<Void> f = new CompletableFuture<>();
            workers[id].queue.add(() -> {
                try {
                    body.run(node, wid, idx);
                    f.complete(null);
                } catch (Throwable t) {
                    f.completeExceptionally(t);
                }
            });
            all.add(f);
        }
        awaitAll(all);
    }

    /**
     * Runs {@code task(0 .. count - 1)}, one task each, spread in turn over {@code pool}'s nodes, and waits for them all
     * ({@link #awaitAll}); on the calling thread, one after another, when {@code pool} is null (the caller must then not
     * be one of a pool's workers waiting for itself).
     */
    public static void runEach(WorkerPool pool, int count, java.util.function.IntConsumer task) {
        if (pool == null) {
            for (int k = 0; k < count; k++) {
                task.accept(k);
            }
            return;
        }
        List<Integer> nodes = pool.nodes();
        List<CompletableFuture<Void>> running = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            int index = k;
            running.add(pool.submit(nodes.get(k % nodes.size()), () -> {
                task.accept(index);
                return null;
            }));
        }
        awaitAll(running);
    }

    /** Waits for every future and rethrows the first failure unwrapped (NumacubeException and Errors as they are). */
    public static void awaitAll(List<? extends CompletableFuture<?>> futures) {
        Throwable first = null;
        for (CompletableFuture<?> f : futures) {
            try {
                f.get();
            } catch (ExecutionException | CompletionException e) {
                if (first == null) {
                    first = e.getCause();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new NumacubeException(
                        NumacubeException.Kind.INTERNAL, "interrupted while waiting for workers", e);
            }
        }
        if (first instanceof RuntimeException re) {
            throw re;
        }
        if (first instanceof Error err) {
            throw err;
        }
        if (first != null) {
            throw new NumacubeException(NumacubeException.Kind.INTERNAL, "worker failed: " + first, first);
        }
    }

    @Override
    public String describe() {
        return "workers=threads (unpinned) nodes=" + nodeCount + " threadsPerNode=" + threadsPerNode;
    }

    @Override
    public void close() {
        for (Worker w : workers) {
            w.queue.add(Worker.STOP);
        }
        for (Worker w : workers) {
            try {
                w.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static final class Worker extends Thread {
        static final Runnable STOP = () -> {};
        final BlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();

        Worker(String name) {
            super(name);
            setDaemon(true);
        }

        @Override
        public void run() {
            while (true) {
                Runnable r;
                try {
                    r = queue.take();
                } catch (InterruptedException e) {
                    return;
                }
                if (r == STOP) {
                    return;
                }
                r.run();
            }
        }
    }
}
