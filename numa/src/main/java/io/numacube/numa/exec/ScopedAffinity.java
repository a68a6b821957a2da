package io.numacube.numa.exec;

import io.numacube.numa.kernel.KernelCallException;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.topology.CpuSet;
import java.util.Optional;

/**
 * Pins the calling thread to a CPU set for a scope and restores its previous affinity on {@link #close()} (the
 * pattern of ZGC's relocation workers). Use with try-with-resources.
 *
 * <p>Invariants: when {@link #pinned()} is true the thread's affinity was set to {@link #cpus()} and
 * {@link #previous()} holds what it was; close restores exactly that, once. When the kernel is absent or refuses
 * (EPERM, ENOSYS) nothing is changed, {@link #pinned()} is false and {@link #reason()} says why. Other failures
 * (EINVAL: none of the CPUs is allowed here) are thrown as {@link KernelCallException}.
 *
 * <p>Not thread-safe: it belongs to the thread that created it, and {@link #close()} from another thread throws
 * {@link IllegalStateException} (affinity is per thread, so a restore there would change the wrong thread).
 */
public final class ScopedAffinity implements AutoCloseable {

    private final Optional<NumaKernel> kernel;
    private final Thread owner;
    private final CpuSet cpus;
    private final CpuSet previous;
    private final String reason;
    private boolean closed;

    private ScopedAffinity(Optional<NumaKernel> kernel, CpuSet cpus, CpuSet previous, String reason) {
        this.kernel = kernel;
        this.owner = Thread.currentThread();
        this.cpus = cpus;
        this.previous = previous;
        this.reason = reason;
    }

    /** Pins the calling thread to {@code cpus} (not empty) until {@link #close()}. */
    public static ScopedAffinity pin(Optional<NumaKernel> kernel, CpuSet cpus) {
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("cannot pin to an empty cpu set: thread="
                    + Thread.currentThread().getName() + " — pass the CPUs of a node this process may run on");
        }
        if (kernel.isEmpty()) {
            return new ScopedAffinity(kernel, cpus, null, "no native access: thread not pinned");
        }
        NumaKernel k = kernel.get();
        CpuSet before;
        try {
            before = k.threadAffinity();
            k.setThreadAffinity(cpus);
        } catch (KernelCallException e) {
            if (e.isRefusal()) {
                return new ScopedAffinity(kernel, cpus, null, e.getMessage() + "; thread not pinned");
            }
            throw e;
        }
        return new ScopedAffinity(kernel, cpus, before, null);
    }

    /** Whether the thread really was pinned. */
    public boolean pinned() {
        return previous != null;
    }

    /** Why the thread was not pinned; empty when it was. */
    public Optional<String> reason() {
        return Optional.ofNullable(reason);
    }

    /** The CPUs asked for. */
    public CpuSet cpus() {
        return cpus;
    }

    /** The affinity before pinning, which close restores; empty set when not pinned. */
    public CpuSet previous() {
        return previous == null ? CpuSet.empty() : previous;
    }

    /** Restores the previous affinity. Idempotent; must run on the thread that pinned. */
    @Override
    public void close() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("ScopedAffinity must be closed on the thread that pinned: owner="
                    + owner.getName() + " caller=" + Thread.currentThread().getName());
        }
        if (closed) {
            return;
        }
        closed = true;
        if (previous != null) {
            kernel.orElseThrow().setThreadAffinity(previous);
        }
    }
}
