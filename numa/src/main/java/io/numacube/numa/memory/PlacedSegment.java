package io.numacube.numa.memory;

import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.topology.CpuSet;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;

/**
 * Off-heap memory allocated by {@link NodeMemory}, with what was asked and what was really done. The caller owns it
 * and frees it with {@link #close()} (or its {@link NodeMemory} frees it on close).
 *
 * <p>Invariants: {@link #segment()} is exactly {@link #byteSize()} bytes, page aligned, and usable only while the
 * segment is open. The view is scoped to a shared arena that is closed before the memory is unmapped, so a view kept
 * past {@link #close()} throws {@link IllegalStateException} on access instead of touching unmapped memory; close
 * waits for no thread and fails (leaving the segment open) if another thread is inside an access at that moment.
 * The memory is unmapped exactly once.
 *
 * <p>Thread-safe: the view may be used from any thread; {@link #close()} is synchronized and idempotent.
 */
public final class PlacedSegment implements AutoCloseable {

    private final NodeMemory owner;
    private final Optional<NumaKernel> kernel;
    private final MemorySegment mapped;
    private final Arena arena;
    private final MemorySegment view;
    private final PlacementRequest request;
    private final PlacementMode appliedMode;
    private final int targetNode;
    private final String fallbackReason;
    private final List<String> notes;
    private final List<CpuSet> fillers;
    private boolean closed;

    PlacedSegment(
            NodeMemory owner,
            Optional<NumaKernel> kernel,
            MemorySegment mapped,
            Arena arena,
            MemorySegment view,
            PlacementRequest request,
            PlacementMode appliedMode,
            int targetNode,
            String fallbackReason,
            List<String> notes,
            List<CpuSet> fillers) {
        this.owner = owner;
        this.kernel = kernel;
        this.mapped = mapped;
        this.arena = arena;
        this.view = view;
        this.request = request;
        this.appliedMode = appliedMode;
        this.targetNode = targetNode;
        this.fallbackReason = fallbackReason;
        this.notes = List.copyOf(notes);
        this.fillers = List.copyOf(fillers);
    }

    /** The memory, exactly {@link #byteSize()} bytes. Throws {@link IllegalStateException} once closed. */
    public synchronized MemorySegment segment() {
        if (closed) {
            throw new IllegalStateException("placed segment is closed: address=0x" + Long.toHexString(view.address())
                    + " byteSize=" + view.byteSize() + " — allocate a new one");
        }
        return view;
    }

    public long byteSize() {
        return view.byteSize();
    }

    /** The address of the first byte (stays readable after close, for reports and checks). */
    public long address() {
        return view.address();
    }

    public PlacementRequest request() {
        return request;
    }

    /** The placement really used: the request's mode, or the fallback taken. */
    public PlacementMode appliedMode() {
        return appliedMode;
    }

    /** Why {@link #appliedMode()} or {@link #targetNode()} differ from the request; empty when they do not. */
    public Optional<String> fallbackReason() {
        return Optional.ofNullable(fallbackReason);
    }

    /** The node the pages are meant to be on, or -1 (interleaved over several nodes, or OS default). */
    public int targetNode() {
        return targetNode;
    }

    /** Other facts of the allocation (e.g. a refused MADV_HUGEPAGE), one line each. */
    public List<String> notes() {
        return notes;
    }

    /** Whether the memory came from mmap (false: the pure-Java arena fallback). */
    public boolean isMapped() {
        return mapped != null;
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    /** CPU sets whose threads write the pages: one per stripe; empty means the calling thread. */
    List<CpuSet> fillers() {
        return fillers;
    }

    /** Frees the memory: closes the view's arena, then unmaps. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            arena.close();
            closed = true;
        }
        try {
            if (mapped != null) {
                kernel.orElseThrow().munmap(mapped);
            }
        } finally {
            owner.released(this);
        }
    }

    @Override
    public String toString() {
        return "PlacedSegment[address=0x" + Long.toHexString(address()) + " byteSize=" + byteSize()
                + " requested=" + request.mode() + " applied=" + appliedMode + " targetNode=" + targetNode
                + (fallbackReason == null ? "" : " fallback=\"" + fallbackReason + "\"") + "]";
    }
}
