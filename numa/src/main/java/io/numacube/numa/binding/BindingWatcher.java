package io.numacube.numa.binding;

import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.topology.SystemRoot;
import io.numacube.numa.topology.Topology;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Re-reads the process's bindings about every {@code period} and tells its listeners when they changed: the allowed
 * CPUs (sched_getaffinity of the watcher's own thread, else {@code Cpus_allowed_list}), the allowed memory nodes
 * (get_mempolicy MEMS_ALLOWED, else {@code Mems_allowed_list}), the cgroup v2 or v1 cpuset's effective cpus and mems,
 * and the memory each node can give (carried with every state, not a change by itself). It reads with the runtime's
 * own readers ({@link ProcessBindingReader}, {@link io.numacube.numa.topology.NodeAvailableMemory}) under a {@link
 * SystemRoot}, so a test points it at a fixture tree and edits the files.
 *
 * <p>The watcher's thread must not pin itself: its affinity is the process's allowed CPUs as long as it inherited them
 * from an unpinned thread, which is why {@link #start()} should be called from one (not from a pinned worker). The
 * kernel narrows and widens an unpinned thread's affinity with the cgroup's cpuset.
 *
 * <p>Thread-safety: {@link #poll()} may be called from any thread but not concurrently with itself (the running
 * watcher calls it from its own thread; tests call it directly without {@link #start()}). Listeners are called on the
 * polling thread, one after another, in the order they were added; a listener that throws is logged and the others
 * still run. {@link #close()} stops the thread and waits for it (a listener running then finishes first).
 */
public final class BindingWatcher implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(BindingWatcher.class.getName());

    /** The period the issue asks for. */
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);

    private final SystemRoot root;
    private final Optional<NumaKernel> kernel;
    private final Topology topology;
    private final Duration period;
    private final Clock clock;
    private final List<Consumer<BindingChange>> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<BindingState>> readingListeners = new CopyOnWriteArrayList<>();
    private final Object stateLock = new Object();
    private BindingState last;
    private BindingState latest;
    private Thread thread;
    private volatile boolean closed;

    /**
     * A watcher that has read the first state (its baseline) and not started.
     *
     * @param period time between readings; at least 10 ms
     */
    public BindingWatcher(SystemRoot root, Optional<NumaKernel> kernel, Topology topology, Duration period) {
        this(root, kernel, topology, period, Clock.systemUTC());
    }

    BindingWatcher(SystemRoot root, Optional<NumaKernel> kernel, Topology topology, Duration period, Clock clock) {
        this.root = Objects.requireNonNull(root, "root must not be null");
        this.kernel = Objects.requireNonNull(kernel, "kernel must not be null");
        this.topology = Objects.requireNonNull(topology, "topology must not be null");
        this.clock = clock;
        if (period.toMillis() < 10) {
            throw new IllegalArgumentException(
                    "the watch period must be at least 10 ms: period=" + period.toMillis() + "ms");
        }
        this.period = period;
        this.last = read();
        this.latest = last;
    }

    /** Adds a listener, called on the polling thread for every later change. */
    public void addListener(Consumer<BindingChange> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener must not be null"));
    }

    /**
     * Adds a listener of every reading (changed or not, free memory included: {@link BindingState#availableBytesByNode}),
     * called on the polling thread after the change listeners.
     */
    public void addReadingListener(Consumer<BindingState> listener) {
        readingListeners.add(Objects.requireNonNull(listener, "listener must not be null"));
    }

    /** The bindings last seen (the baseline until a change). */
    public BindingState current() {
        synchronized (stateLock) {
            return last;
        }
    }

    /** The state of the last reading, free memory included (changes without the bindings changing). */
    public BindingState latest() {
        synchronized (stateLock) {
            return latest;
        }
    }

    public Duration period() {
        return period;
    }

    /**
     * Reads the bindings once; when they differ from the last seen, records the new state, tells the listeners and
     * returns the change. A reading that fails (a file garbled mid-write) is logged and treated as no change.
     */
    public Optional<BindingChange> poll() {
        BindingState now;
        try {
            now = read();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "reading the bindings failed, trying again: {0}", e.getMessage());
            return Optional.empty();
        }
        BindingChange change;
        synchronized (stateLock) {
            latest = now;
            if (now.sameBindings(last)) {
                change = null;
            } else {
                change = new BindingChange(last, now, clock.instant());
                last = now;
            }
        }
        if (change != null) {
            tell(change);
        }
        for (Consumer<BindingState> l : readingListeners) {
            try {
                l.accept(now);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "a reading listener failed: error=" + e, e);
            }
        }
        return Optional.ofNullable(change);
    }

    private void tell(BindingChange change) {
        for (Consumer<BindingChange> l : listeners) {
            try {
                l.accept(change);
            } catch (RuntimeException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "a binding-change listener failed: change=" + change.describe() + " error=" + e,
                        e);
            }
        }
    }

    /** Starts polling every period on a daemon thread {@code numacube-binding-watcher}. Idempotent. */
    public synchronized BindingWatcher start() {
        if (thread == null && !closed) {
            thread = Thread.ofPlatform()
                    .daemon()
                    .name("numacube-binding-watcher")
                    .start(this::loop);
        }
        return this;
    }

    private void loop() {
        while (!closed) {
            try {
                Thread.sleep(period);
            } catch (InterruptedException e) {
                if (closed) {
                    return;
                }
            }
            if (!closed) {
                poll();
            }
        }
    }

    private BindingState read() {
        return BindingState.read(root, kernel, topology);
    }

    /** Stops the thread and waits for it. Idempotent. */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            closed = true;
            t = thread;
        }
        if (t != null && t != Thread.currentThread()) {
            t.interrupt();
            io.numacube.numa.base.Uninterruptibly.await(() -> {
                t.join();
                return null;
            });
        }
    }
}
