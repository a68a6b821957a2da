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
import java.util.concurrent.LinkedBlockingDeque;

/**
 * A group of platform worker threads per NUMA node, each pinned at start to its node's whole CPU set, with one task
 * queue per node. Threads are daemons named {@code <prefix>-n<node>-w<i>}.
 *
 * <p>Contract: {@link #submit} runs a task on some worker of the node; {@link #runOnEveryWorker} runs a body exactly
 * once on every worker at the same time and blocks until all are done. Pinning failures do not stop the pool: each
 * worker's outcome is in {@link #workerReports()}. {@link #close()} lets queued tasks finish, then stops and joins the
 * workers; later submissions throw {@link IllegalStateException}.
 *
 * <p>The pool follows the machine: {@link #repin} moves workers onto other CPUs, {@link #reshape} also grows a node's
 * workers (or adds a node with a queue of its own) and shrinks them; a node once in the pool keeps its queue and one
 * worker at least, so a task submitted to it is never lost, and a worker taken away exits between two tasks.
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
     * @param workerId    unique among the pool's running threads (0 .. workerCount-1 until a {@link #reshape}; a
     *                    new worker takes the lowest id free)
     * @param indexOnNode 0 .. workersOn(node)-1 (a reshape takes the highest away first)
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

    /**
     * What {@link #reshape} did: the workers per node before and after, and the pin generation to wait for with
     * {@link #awaitPinned}. Immutable.
     */
    public record Reshape(long generation, SortedMap<Integer, Integer> before, SortedMap<Integer, Integer> after) {

        public Reshape {
            before = Collections.unmodifiableSortedMap(new TreeMap<>(before));
            after = Collections.unmodifiableSortedMap(new TreeMap<>(after));
        }

        /** Whether a node gained or lost workers. */
        public boolean resized() {
            return !before.equals(after);
        }

        /** The nodes whose worker count changed, as {@code n0 4->1, n1 0->4}; empty when none did. */
        public String describe() {
            StringBuilder b = new StringBuilder();
            java.util.SortedSet<Integer> nodes = new java.util.TreeSet<>(before.keySet());
            nodes.addAll(after.keySet());
            for (int n : nodes) {
                int was = before.getOrDefault(n, 0);
                int now = after.getOrDefault(n, 0);
                if (was != now) {
                    b.append(b.isEmpty() ? "" : ", ")
                            .append('n')
                            .append(n)
                            .append(' ')
                            .append(was)
                            .append("->")
                            .append(now);
                }
            }
            return b.toString();
        }
    }

    /** One worker thread; {@code retired} once a {@link #reshape} took it away (it exits between two tasks). */
    private static final class Worker {
        final WorkerContext context;
        final String threadName;
        final LinkedBlockingDeque<Runnable> queue;
        volatile boolean retired;
        volatile long appliedGeneration = -1;
        volatile WorkerReport report;
        /** The thread's kernel id while it runs (guarded by this worker's monitor), -1 before and after. */
        int tid = -1;

        Worker(WorkerContext context, String threadName, LinkedBlockingDeque<Runnable> queue) {
            this.context = context;
            this.threadName = threadName;
            this.queue = queue;
        }
    }

    private static final System.Logger LOG = System.getLogger(NodeWorkerPool.class.getName());
    private static final ThreadLocal<WorkerContext> CURRENT = new ThreadLocal<>();
    private static final ThreadLocal<NodeWorkerPool> CURRENT_POOL = new ThreadLocal<>();
    private static final Runnable STOP = () -> {};
    private static final String STARTING = "starting";

    /** How often an idle worker looks for a {@link #repin} or its retirement. */
    static final long REPIN_CHECK_MILLIS = 200;

    private final Object lock = new Object();
    /** Held by {@link #runOnEveryWorker} throughout and by {@link #reshape}: the worker counts stay put meanwhile. */
    private final java.util.concurrent.locks.ReentrantLock shapeLock = new java.util.concurrent.locks.ReentrantLock();

    private final Optional<NumaKernel> kernel;
    private final int threadsPerNode;
    private final String namePrefix;
    /** Guarded by {@link #lock}; a node's queue outlives its workers (none is ever removed). */
    private final SortedMap<Integer, LinkedBlockingDeque<Runnable>> queues = new TreeMap<>();
    /** Every node's live workers by index on node; an immutable map replaced under {@link #lock}. */
    private volatile SortedMap<Integer, List<Worker>> live = Collections.emptySortedMap();

    /** The keys of {@link #live} as a set, replaced with it. */
    private volatile NodeSet liveNodes = NodeSet.of(new int[0]);
    /** Every thread started, retired ones included (guarded by {@link #lock}); close joins them all. */
    private final List<Thread> threads = new ArrayList<>();
    /** Worker ids held by a running thread (guarded by {@link #lock}); a new worker takes the lowest free one. */
    private final java.util.BitSet idsInUse = new java.util.BitSet();
    /** The CPUs each node's workers are to run on now; read by each worker between tasks. */
    private volatile SortedMap<Integer, CpuSet> pinTargets = new TreeMap<>();
    /** Counts pin changes; a worker whose applied generation is lower re-pins itself. */
    private volatile long pinGeneration;

    private boolean closed;

    private NodeWorkerPool(Optional<NumaKernel> kernel, int threadsPerNode, String namePrefix) {
        this.kernel = kernel;
        this.threadsPerNode = threadsPerNode;
        this.namePrefix = namePrefix;
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
        for (Map.Entry<Integer, CpuSet> e : cpusByNode.entrySet()) {
            if (e.getValue().isEmpty()) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "no CPUs to pin workers to: node=" + e.getKey()
                                + " — leave memory-only nodes out of the worker pool");
            }
        }
        NodeWorkerPool pool = new NodeWorkerPool(kernel, threadsPerNode, namePrefix);
        Reshape shape = pool.change(cpusByNode, java.util.Set.of(), true);
        if (!pool.awaitPinned(shape.generation(), Long.MAX_VALUE / 2_000_000L)) {
            throw new IllegalStateException("workers did not start: workers=" + pool.workerCount());
        }
        return pool;
    }

    /** The workers {@code node} gets for {@code cpus}: one when it borrows another node's CPUs. */
    private int wantedOn(CpuSet cpus, boolean borrowed) {
        if (borrowed) {
            return 1;
        }
        return threadsPerNode == 0 ? cpus.size() : threadsPerNode;
    }

    /**
     * Sets the pin targets of the nodes of {@code cpusByNode} (empty CPU sets are skipped) and, when {@code resize},
     * their worker counts: a node new to the pool gets a queue and workers, a node's count follows its CPUs (one per
     * CPU when threads per node is 0), a node in {@code borrowed} keeps one worker. Workers taken away finish the task
     * they run and exit; queued tasks stay for the others. New workers are started, not waited for.
     */
    private Reshape change(SortedMap<Integer, CpuSet> cpusByNode, java.util.Set<Integer> borrowed, boolean resize) {
        List<Worker> started = new ArrayList<>();
        Reshape out;
        synchronized (lock) {
            checkOpen();
            SortedMap<Integer, Integer> before = counts(live);
            SortedMap<Integer, CpuSet> targets = new TreeMap<>(pinTargets);
            SortedMap<Integer, List<Worker>> next = new TreeMap<>(live);
            for (Map.Entry<Integer, CpuSet> e : cpusByNode.entrySet()) {
                if (e.getValue().isEmpty()) {
                    continue;
                }
                targets.put(e.getKey(), e.getValue());
                if (resize) {
                    int want = wantedOn(e.getValue(), borrowed.contains(e.getKey()));
                    next.put(e.getKey(), resized(e.getKey(), next.getOrDefault(e.getKey(), List.of()), want, started));
                }
            }
            pinTargets = targets;
            long generation = ++pinGeneration;
            live = Collections.unmodifiableSortedMap(next);
            liveNodes = NodeSet.of(
                    next.keySet().stream().mapToInt(Integer::intValue).toArray());
            out = new Reshape(generation, before, counts(next));
            for (Worker w : started) {
                Thread t = Thread.ofPlatform().daemon().name(w.threadName).unstarted(() -> work(w));
                threads.add(t);
                t.start();
            }
        }
        pinRunningWorkers();
        return out;
    }

    /** {@code workers} of {@code node} grown or cut to {@code want} (the last ones retire); adds new ones to start. */
    private List<Worker> resized(int node, List<Worker> workers, int want, List<Worker> toStart) {
        LinkedBlockingDeque<Runnable> queue = queues.computeIfAbsent(node, n -> new LinkedBlockingDeque<>());
        List<Worker> out = new ArrayList<>(workers);
        while (out.size() > want) {
            out.remove(out.size() - 1).retired = true;
        }
        while (out.size() < want) {
            int id = idsInUse.nextClearBit(0);
            idsInUse.set(id);
            Worker w = new Worker(
                    new WorkerContext(node, id, out.size()), namePrefix + "-n" + node + "-w" + out.size(), queue);
            out.add(w);
            toStart.add(w);
        }
        return List.copyOf(out);
    }

    private static SortedMap<Integer, Integer> counts(SortedMap<Integer, List<Worker>> shape) {
        SortedMap<Integer, Integer> out = new TreeMap<>();
        shape.forEach((n, ws) -> out.put(n, ws.size()));
        return out;
    }

    private void work(Worker w) {
        CURRENT.set(w.context);
        CURRENT_POOL.set(this);
        synchronized (w) {
            w.tid = ownThreadId();
        }
        try {
            while (!w.retired) {
                if (w.appliedGeneration != pinGeneration) {
                    applyPin(w);
                }
                Runnable task;
                try {
                    // wakes at least every REPIN_CHECK_MILLIS so that an idle worker follows a repin too
                    task = w.queue.poll(REPIN_CHECK_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    continue;
                }
                if (task == null) {
                    continue;
                }
                if (w.retired) {
                    // taken away meanwhile: the task (or a close's STOP) is for one of the node's live workers
                    w.queue.offerFirst(task);
                    return;
                }
                if (task == STOP) {
                    return;
                }
                task.run();
            }
        } finally {
            synchronized (w) {
                w.tid = -1;
            }
            synchronized (lock) {
                idsInUse.clear(w.context.workerId());
            }
        }
    }

    /** The calling thread's kernel id, or -1 where there is no kernel or it will not say. */
    private int ownThreadId() {
        if (kernel.isEmpty()) {
            return -1;
        }
        try {
            return kernel.get().threadId();
        } catch (KernelCallException e) {
            return -1;
        }
    }

    /** A worker pins itself to its node's target (0: the calling thread), and reports a refusal. */
    private void applyPin(Worker w) {
        synchronized (w) {
            long generation = pinGeneration;
            if (w.appliedGeneration >= generation) {
                return;
            }
            CpuSet cpus = pinTargets.get(w.context.node());
            String failure = null;
            if (cpus == null || cpus.isEmpty()) {
                failure = "no CPUs given for node " + w.context.node() + ": affinity left as it was";
            } else if (kernel.isEmpty()) {
                failure = "no native access: worker not pinned";
            } else {
                try {
                    kernel.get().setThreadAffinity(cpus);
                } catch (KernelCallException e) {
                    failure = e.getMessage();
                }
            }
            WorkerReport before = w.report;
            CpuSet shown = failure == null || before == null ? cpus : before.cpus();
            w.report = new WorkerReport(w.context, w.threadName, shown, failure == null, Optional.ofNullable(failure));
            w.appliedGeneration = generation;
        }
    }

    /**
     * Pins every running worker to its node's target from the calling thread (by its kernel thread id), so that a
     * worker busy with a long task follows a change at once rather than after its task (a query's morsels, which
     * took tens of seconds under emulation). A worker this cannot reach (no thread id, or the kernel refuses to pin
     * another thread) is left to pin itself between two tasks, as before, and to report a refusal.
     */
    private void pinRunningWorkers() {
        if (kernel.isEmpty()) {
            return;
        }
        List<String> left = new ArrayList<>();
        List<String> starting = new ArrayList<>();
        for (List<Worker> ws : live.values()) {
            for (Worker w : ws) {
                pinFromOutside(w).ifPresent(why -> {
                    if (why.equals(STARTING)) {
                        starting.add(w.threadName);
                    } else {
                        left.add(w.threadName + ": " + why);
                    }
                });
            }
        }
        if (!starting.isEmpty()) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "workers still starting, to pin themselves before their first task: " + starting);
        }
        if (!left.isEmpty()) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "workers left to re-pin themselves after their task (not pinned from outside): " + left);
        }
    }

    /** Pins {@code w} to its node's target by its thread id; why not, when it was not (and needed to be). */
    private Optional<String> pinFromOutside(Worker w) {
        synchronized (w) {
            long generation = pinGeneration;
            CpuSet cpus = pinTargets.get(w.context.node());
            if (w.retired || w.appliedGeneration >= generation) {
                return Optional.empty();
            }
            if (cpus == null || cpus.isEmpty()) {
                return Optional.of("no CPUs for node " + w.context.node());
            }
            if (w.tid <= 0) {
                return Optional.of(w.appliedGeneration < 0 ? STARTING : "no thread id");
            }
            try {
                kernel.orElseThrow().setThreadAffinity(w.tid, cpus);
            } catch (KernelCallException e) {
                return Optional.of(e.getMessage());
            }
            w.report = new WorkerReport(w.context, w.threadName, cpus, true, Optional.empty());
            w.appliedGeneration = generation;
            return Optional.empty();
        }
    }

    /**
     * Re-pins the workers: those of each node in {@code cpusByNode} to its CPUs (a node's workers keep their node and
     * queue, so tasks submitted to it still run; only where the threads may run changes, e.g. onto the CPUs of the
     * nearest node when their own node's CPUs were taken away). Each worker re-pins itself between two tasks (an idle
     * one within {@value #REPIN_CHECK_MILLIS} ms) unless this call pinned it from outside first, by its thread id (a busy
     * one then follows at once); this waits up to {@code timeoutMillis} for all of them. The worker
     * counts stay as they are: {@link #reshape} changes them.
     *
     * @return true when every worker applied the new pinning in time (whether or not the kernel accepted it: see
     *     {@link #workerReports()})
     */
    public boolean repin(SortedMap<Integer, CpuSet> cpusByNode, long timeoutMillis) {
        return awaitPinned(change(cpusByNode, java.util.Set.of(), false).generation(), timeoutMillis);
    }

    /**
     * Re-pins and resizes the pool for new bindings, at once, without waiting for the workers ({@link #awaitPinned}
     * does): each node of {@code cpusByNode} (empty CPU sets are skipped) is to run on its CPUs, with one worker per
     * CPU (or the pool's threads per node), or a single worker when it is in {@code borrowed} (its node lost its CPUs
     * and it runs on another node's, only to drain its own queue). A node new to the pool gets a queue and workers
     * (so {@link #submit} to it works from now on); workers taken from a node finish the task they run and exit, and
     * the tasks queued for the node are run by the node's remaining workers (every node keeps one at least), so no
     * task submitted is lost. Nodes not in {@code cpusByNode} keep their workers and CPUs. Waits for a {@link
     * #runOnEveryWorker} under way.
     */
    public Reshape reshape(SortedMap<Integer, CpuSet> cpusByNode, java.util.Set<Integer> borrowed) {
        shapeLock.lock();
        try {
            return change(cpusByNode, borrowed, true);
        } finally {
            shapeLock.unlock();
        }
    }

    /**
     * Waits up to {@code timeoutMillis} until every live worker applied the pinning of {@code generation} ({@link
     * Reshape#generation()}) or a later one; new workers apply it as they start. True when all did in time.
     */
    public boolean awaitPinned(long generation, long timeoutMillis) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        boolean first = true;
        while (true) {
            List<String> late = new ArrayList<>();
            for (List<Worker> ws : live.values()) {
                for (Worker w : ws) {
                    if (w.appliedGeneration < generation) {
                        late.add(w.threadName + " (pinning " + w.appliedGeneration + " of " + generation + ", tid "
                                + w.tid + ")");
                    }
                }
            }
            if (late.isEmpty()) {
                return true;
            }
            if (first && generation > 1) {
                LOG.log(System.Logger.Level.INFO, "waiting for workers to re-pin themselves: " + late);
            }
            first = false;
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000L);
        }
    }

    /** The context of the calling thread when it is a worker of any NodeWorkerPool. */
    public static Optional<WorkerContext> currentWorker() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** The nodes that have workers now, ascending (a node added by {@link #reshape} is never taken away). */
    public NodeSet nodes() {
        return liveNodes;
    }

    /** The live workers now (retired ones that are still finishing a task not counted). */
    public int workerCount() {
        int n = 0;
        for (List<Worker> ws : live.values()) {
            n += ws.size();
        }
        return n;
    }

    /** Workers on {@code node} now; 0 for a node that is not in the pool. */
    public int workersOn(int node) {
        return live.getOrDefault(node, List.of()).size();
    }

    /** How each live worker is pinned now, by worker id. */
    public List<WorkerReport> workerReports() {
        List<WorkerReport> out = new ArrayList<>();
        for (List<Worker> ws : live.values()) {
            for (Worker w : ws) {
                WorkerReport r = w.report;
                out.add(
                        r != null
                                ? r
                                : new WorkerReport(
                                        w.context,
                                        w.threadName,
                                        CpuSet.empty(),
                                        false,
                                        Optional.of("not started yet")));
            }
        }
        out.sort(java.util.Comparator.comparingInt(r -> r.context().workerId()));
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
     * A {@link #reshape} waits until it is done.
     */
    public void runOnEveryWorker(WorkerBody body) {
        if (currentWorker().isPresent() && CURRENT_POOL.get() == this) {
            throw new IllegalStateException("runOnEveryWorker called from a worker of the same pool: worker="
                    + Thread.currentThread().getName() + " — it would wait for itself; call it from outside the pool");
        }
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        shapeLock.lock();
        try {
            synchronized (lock) {
                checkOpen();
                for (Map.Entry<Integer, List<Worker>> e : live.entrySet()) {
                    futures.addAll(
                            enqueueOnEach(queues.get(e.getKey()), e.getValue().size(), body));
                }
            }
            rethrowFirst(futures);
        } finally {
            shapeLock.unlock();
        }
    }

    /** {@code workers} tasks on {@code queue}, each holding its worker until all are taken: one per worker. */
    private static List<CompletableFuture<Void>> enqueueOnEach(
            LinkedBlockingDeque<Runnable> queue, int workers, WorkerBody body) {
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        CountDownLatch allTaken = new CountDownLatch(workers);
        for (int i = 0; i < workers; i++) {
            CompletableFuture<Void> f = new CompletableFuture<>();
            futures.add(f);
            queue.add(() -> {
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
        return futures;
    }

    private static void rethrowFirst(List<CompletableFuture<Void>> futures) {
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
            LinkedBlockingDeque<Runnable> q = queues.get(node);
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

    /** Lets queued tasks finish, stops every worker (retired ones still finishing a task too) and waits for them. Idempotent. */
    @Override
    public void close() {
        List<Thread> all;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            for (Map.Entry<Integer, List<Worker>> e : live.entrySet()) {
                for (int i = 0; i < e.getValue().size(); i++) {
                    queues.get(e.getKey()).add(STOP);
                }
            }
            all = List.copyOf(threads);
        }
        for (Thread t : all) {
            if (t != Thread.currentThread()) {
                io.numacube.numa.base.Uninterruptibly.await(() -> {
                    t.join();
                    return null;
                });
            }
        }
    }
}
