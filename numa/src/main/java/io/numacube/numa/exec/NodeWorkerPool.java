package io.numacube.numa.exec;

import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.kernel.KernelCallException;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A group of platform worker threads per NUMA node, each pinned at start to its node's whole CPU set, with one task
 * queue per node. Threads are daemons named {@code <prefix>-n<node>-w<i>}.
 *
 * <p>Contract: {@link #submit} runs a task on some worker of the node; {@link #runOnEveryWorker} runs a body exactly
 * once on every worker at the same time and blocks until all are done. Pinning failures do not stop the pool: each
 * worker's outcome is in {@link #workerReports()}. {@link #close()} lets queued tasks finish, then stops and joins the
 * workers; later submissions throw {@link IllegalStateException}.
 *
 * <p>Thread-safe: any thread may submit. {@link #runOnEveryWorker} must not be called from a worker of this pool
 * (it would wait for itself) and throws {@link IllegalStateException} there.
 */
public final class NodeWorkerPool implements AutoCloseable {

    /** Code run once per worker by {@link #runOnEveryWorker}. */
    @FunctionalInterface
    public interface WorkerBody {
        void run(WorkerContext context) throws Exception;
    }

    /**
     * Which worker a thread is. Immutable.
     *
     * @param node        the node the worker is pinned to
     * @param workerId    0 .. workerCount-1, unique in the pool
     * @param indexOnNode 0 .. workersOn(node)-1
     */
    public record WorkerContext(int node, int workerId, int indexOnNode) {}

    /**
     * How one worker started. Immutable.
     *
     * @param context    the worker
     * @param threadName its thread's name
     * @param cpus       the CPUs it was pinned to (its node's CPU set)
     * @param pinned     whether the pinning worked
     * @param pinFailure why not, when it did not
     */
    public record WorkerReport(
            WorkerContext context, String threadName, CpuSet cpus, boolean pinned, Optional<String> pinFailure) {}

    private static final ThreadLocal<WorkerContext> CURRENT = new ThreadLocal<>();
    private static final Runnable STOP = () -> {};

    private final Object lock = new Object();
    private final SortedMap<Integer, LinkedBlockingQueue<Runnable>> queues = new TreeMap<>();
    private final SortedMap<Integer, Integer> workersByNode = new TreeMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReferenceArray<WorkerReport> reports;
    /** The CPUs each node's workers are to run on now ({@link #repin}); read by each worker between tasks. */
    private volatile SortedMap<Integer, CpuSet> pinTargets = new TreeMap<>();
    /** Counts {@link #repin} calls; a worker whose applied generation is lower re-pins itself. */
    private volatile long pinGeneration;

    private final java.util.concurrent.atomic.AtomicLongArray appliedGeneration;
    private boolean closed;

    private NodeWorkerPool(int workerCount) {
        this.reports = new AtomicReferenceArray<>(workerCount);
        this.appliedGeneration = new java.util.concurrent.atomic.AtomicLongArray(workerCount);
    }

    /**
     * Starts the workers and returns once every worker has pinned itself (or failed to).
     *
     * @param cpusByNode     for each node, the CPUs its workers are pinned to (not empty)
     * @param threadsPerNode workers per node; 0 means one per CPU of the node
     * @param namePrefix     thread-name prefix
     */
    public static NodeWorkerPool start(
            Optional<NumaKernel> kernel, SortedMap<Integer, CpuSet> cpusByNode, int threadsPerNode, String namePrefix) {
        if (cpusByNode.isEmpty()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT, "a worker pool needs at least one node: nodes=<none>");
        }
        if (threadsPerNode < 0) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "threads per node must be 0 (one per CPU) or more: threadsPerNode=" + threadsPerNode);
        }
        int total = 0;
        for (Map.Entry<Integer, CpuSet> e : cpusByNode.entrySet()) {
            if (e.getValue().isEmpty()) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "no CPUs to pin workers to: node=" + e.getKey()
                                + " — leave memory-only nodes out of the worker pool");
            }
            total += threadsPerNode == 0 ? e.getValue().size() : threadsPerNode;
        }
        NodeWorkerPool pool = new NodeWorkerPool(total);
        pool.pinTargets = new TreeMap<>(cpusByNode);
        CountDownLatch started = new CountDownLatch(total);
        int workerId = 0;
        for (Map.Entry<Integer, CpuSet> e : cpusByNode.entrySet()) {
            int node = e.getKey();
            CpuSet cpus = e.getValue();
            int n = threadsPerNode == 0 ? cpus.size() : threadsPerNode;
            LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
            pool.queues.put(node, queue);
            pool.workersByNode.put(node, n);
            for (int i = 0; i < n; i++, workerId++) {
                WorkerContext ctx = new WorkerContext(node, workerId, i);
                String name = namePrefix + "-n" + node + "-w" + i;
                Thread t = Thread.ofPlatform()
                        .daemon()
                        .name(name)
                        .unstarted(() -> pool.work(kernel, ctx, cpus, queue, started));
                pool.threads.add(t);
            }
        }
        pool.threads.forEach(Thread::start);
        io.numacube.numa.base.Uninterruptibly.await(() -> {
            started.await();
            return null;
        });
        return pool;
    }

    private void work(
            Optional<NumaKernel> kernel,
            WorkerContext ctx,
            CpuSet cpus,
            LinkedBlockingQueue<Runnable> queue,
            CountDownLatch started) {
        CURRENT.set(ctx);
        String failure = null;
        if (kernel.isEmpty()) {
            failure = "no native access: worker not pinned";
        } else {
            try {
                kernel.get().setThreadAffinity(cpus);
            } catch (KernelCallException e) {
                failure = e.getMessage();
            }
        }
        reports.set(
                ctx.workerId(),
                new WorkerReport(
                        ctx, Thread.currentThread().getName(), cpus, failure == null, Optional.ofNullable(failure)));
        started.countDown();
        while (true) {
            Runnable task;
            try {
                // wakes at least every REPIN_CHECK_MILLIS so that an idle worker follows a repin too
                task = queue.poll(REPIN_CHECK_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                continue;
            }
            if (appliedGeneration.get(ctx.workerId()) != pinGeneration) {
                applyPin(kernel, ctx);
            }
            if (task == null) {
                continue;
            }
            if (task == STOP) {
                return;
            }
            task.run();
        }
    }

    /** How often an idle worker looks for a {@link #repin}. */
    static final long REPIN_CHECK_MILLIS = 200;

    private void applyPin(Optional<NumaKernel> kernel, WorkerContext ctx) {
        long generation = pinGeneration;
        CpuSet cpus = pinTargets.get(ctx.node());
        String failure = null;
        if (cpus == null || cpus.isEmpty()) {
            failure = "no CPUs given for node " + ctx.node() + ": affinity left as it was";
        } else if (kernel.isEmpty()) {
            failure = "no native access: worker not pinned";
        } else {
            try {
                kernel.get().setThreadAffinity(cpus);
            } catch (KernelCallException e) {
                failure = e.getMessage();
            }
        }
        WorkerReport before = reports.get(ctx.workerId());
        reports.set(
                ctx.workerId(),
                new WorkerReport(
                        ctx,
                        before.threadName(),
                        failure == null ? cpus : before.cpus(),
                        failure == null,
                        Optional.ofNullable(failure)));
        appliedGeneration.set(ctx.workerId(), generation);
    }

    /**
     * Re-pins the workers: those of each node in {@code cpusByNode} to its CPUs (a node's workers keep their node and
     * queue, so tasks submitted to it still run; only where the threads may run changes, e.g. onto the CPUs of the
     * nearest node when their own node's CPUs were taken away). Each worker re-pins itself between two tasks (an idle
     * one within {@value #REPIN_CHECK_MILLIS} ms); this waits up to {@code timeoutMillis} for all of them.
     *
     * @return true when every worker applied the new pinning in time (whether or not the kernel accepted it: see
     *     {@link #workerReports()})
     */
    public boolean repin(SortedMap<Integer, CpuSet> cpusByNode, long timeoutMillis) {
        long generation;
        synchronized (lock) {
            checkOpen();
            SortedMap<Integer, CpuSet> next = new TreeMap<>(pinTargets);
            next.putAll(cpusByNode);
            pinTargets = next;
            generation = ++pinGeneration;
        }
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (true) {
            boolean all = true;
            for (int i = 0; i < appliedGeneration.length(); i++) {
                if (appliedGeneration.get(i) < generation) {
                    all = false;
                    break;
                }
            }
            if (all) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000L);
        }
    }

    /** The context of the calling thread when it is a worker of any NodeWorkerPool. */
    public static Optional<WorkerContext> currentWorker() {
        return Optional.ofNullable(CURRENT.get());
    }

    public NodeSet nodes() {
        return NodeSet.of(
                workersByNode.keySet().stream().mapToInt(Integer::intValue).toArray());
    }

    public int workerCount() {
        return reports.length();
    }

    /** Workers on {@code node}; 0 for a node that is not in the pool. */
    public int workersOn(int node) {
        return workersByNode.getOrDefault(node, 0);
    }

    /** How each worker started, by worker id. */
    public List<WorkerReport> workerReports() {
        List<WorkerReport> out = new ArrayList<>(reports.length());
        for (int i = 0; i < reports.length(); i++) {
            out.add(reports.get(i));
        }
        return Collections.unmodifiableList(out);
    }

    /** Runs {@code task} on one of {@code node}'s workers; the future completes with its result or failure. */
    public <T> CompletableFuture<T> submit(int node, Callable<T> task) {
        CompletableFuture<T> future = new CompletableFuture<>();
        enqueue(node, () -> {
            try {
                future.complete(task.call());
            } catch (Throwable t) {
                future.completeExceptionally(t);
            }
        });
        return future;
    }

    /**
     * Runs {@code body} once on every worker, all at the same time, and returns when all are done. The first
     * failure is rethrown (checked exceptions wrapped in {@link CompletionException}) with the others suppressed.
     */
    public void runOnEveryWorker(WorkerBody body) {
        if (currentWorker().isPresent() && threads.contains(Thread.currentThread())) {
            throw new IllegalStateException("runOnEveryWorker called from a worker of the same pool: worker="
                    + Thread.currentThread().getName() + " — it would wait for itself; call it from outside the pool");
        }
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        synchronized (lock) {
            checkOpen();
            for (Map.Entry<Integer, Integer> e : workersByNode.entrySet()) {
                // every task holds its worker until all tasks of the node have been taken: one per worker
                CountDownLatch allTaken = new CountDownLatch(e.getValue());
                for (int i = 0; i < e.getValue(); i++) {
                    CompletableFuture<Void> f = new CompletableFuture<>();
                    futures.add(f);
                    queues.get(e.getKey()).add(() -> {
                        allTaken.countDown();
                        try {
                            allTaken.await();
                            body.run(CURRENT.get());
                            f.complete(null);
                        } catch (Throwable t) {
                            f.completeExceptionally(t);
                        }
                    });
                }
            }
        }
        Throwable first = null;
        for (CompletableFuture<Void> f : futures) {
            try {
                f.join();
            } catch (CompletionException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                if (first == null) {
                    first = cause;
                } else if (first != cause) {
                    first.addSuppressed(cause);
                }
            }
        }
        if (first instanceof RuntimeException re) {
            throw re;
        }
        if (first instanceof Error err) {
            throw err;
        }
        if (first != null) {
            throw new CompletionException(first);
        }
    }

    private void enqueue(int node, Runnable r) {
        synchronized (lock) {
            checkOpen();
            LinkedBlockingQueue<Runnable> q = queues.get(node);
            if (q == null) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "no workers for this node: node=" + node + " poolNodes=" + nodes()
                                + " — submit to one of the pool's nodes");
            }
            q.add(r);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("worker pool is closed: workers=" + workerCount());
        }
    }

    /** Lets queued tasks finish, stops every worker and waits for them. Idempotent. */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            for (Map.Entry<Integer, LinkedBlockingQueue<Runnable>> e : queues.entrySet()) {
                for (int i = 0; i < workersByNode.get(e.getKey()); i++) {
                    e.getValue().add(STOP);
                }
            }
        }
        boolean interrupted = false;
        for (Thread t : threads) {
            if (t == Thread.currentThread()) {
                continue;
            }
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
