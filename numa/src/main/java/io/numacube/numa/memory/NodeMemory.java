package io.numacube.numa.memory;

import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.exec.ScopedAffinity;
import io.numacube.numa.kernel.Errno;
import io.numacube.numa.kernel.KernelCallException;
import io.numacube.numa.kernel.MemPolicyConstants;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.kernel.NumaKernels;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.NumaNode;
import io.numacube.numa.topology.Topology;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * Allocates off-heap memory on chosen NUMA nodes and keeps track of it until it is freed.
 *
 * <p>How each {@link PlacementMode} is done: BIND, PREFERRED and INTERLEAVE mmap the memory ({@code MAP_NORESERVE})
 * and mbind it with {@code MPOL_F_STATIC_NODES}, so that the nodes asked for stay the policy's when a cpuset's
 * {@code mems} change (without it the kernel remaps a bound mapping's node by its position in the old and new sets: a
 * partition bound to node 1 under mems {@code 1} was rebound to node 0 when the set widened to {@code 0-1}); where
 * mbind is refused (seccomp, no CAP_SYS_NICE: {@link PolicySupport#mbind()} false or EPERM) they
 * fall back to FIRST_TOUCH, and the segment's {@link PlacedSegment#fallbackReason()} names the call and errno.
 * FIRST_TOUCH calls nothing: {@link #touch} writes the pages from a thread pinned to the node's CPUs; a node with no
 * CPUs this process may run on (memory-only) is filled from the nearest node that has some, with a reason.
 * OS_DEFAULT does nothing. Huge pages are asked with madvise(MADV_HUGEPAGE); a refusal is a note, not an error.
 * Without a kernel, memory comes from a shared {@link Arena} (zeroed, so placed by the allocating thread) with
 * applied mode OS_DEFAULT and the reason.
 *
 * <p>Ownership: the caller owns each {@link PlacedSegment} and should close it; {@link #close()} frees whatever is
 * still live and logs those leaks. Thread-safe: allocate, touch and close segments from any threads.
 */
public final class NodeMemory implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(NodeMemory.class.getName());
    private static final VarHandle LONG_AT = ValueLayout.JAVA_LONG.varHandle();
    private static final long FALLBACK_PAGE_SIZE = 4096;
    private static final int BIND_STATIC = MemPolicyConstants.MPOL_BIND | MemPolicyConstants.MPOL_F_STATIC_NODES;
    private static final long DEFAULT_STRIPE_BYTES = 2L << 20;

    private final Optional<NumaKernel> kernel;
    private final PolicySupport support;
    private final Topology topology;
    private final CpuSet allowedCpus;
    private final boolean nativeMemory;
    /** Whether {@link #populate} still tries madvise(MADV_POPULATE_WRITE); false once the kernel refused it. */
    private volatile boolean populateWrite = true;

    private final long pageSize;
    private final long stripeBytes;
    private final PageLocator locator;
    private final Set<PlacedSegment> live = ConcurrentHashMap.newKeySet();
    private final AtomicLong liveBytes = new AtomicLong();
    private volatile boolean closed;

    /**
     * @param kernel      the kernel, or empty for the pure-Java fallback
     * @param support     what works here ({@link PolicyProbe#current()})
     * @param topology    the machine's nodes, CPUs and distances
     * @param allowedCpus the CPUs this process may run on (its affinity or cpuset)
     */
    public NodeMemory(Optional<NumaKernel> kernel, PolicySupport support, Topology topology, CpuSet allowedCpus) {
        this.kernel = kernel;
        this.support = support;
        this.topology = topology;
        this.allowedCpus = allowedCpus;
        this.nativeMemory = kernel.isPresent() && support.nativeAccess();
        this.pageSize = kernel.map(NumaKernel::pageSizeBytes).orElse(FALLBACK_PAGE_SIZE);
        this.locator = PageLocator.forThisProcess(kernel, support);
        this.stripeBytes = Math.max(pageSize, transparentHugePageBytes());
    }

    /** The PMD (transparent huge page) size: a first write faults in this much at once where THP is on. */
    private static long transparentHugePageBytes() {
        try {
            return Long.parseLong(java.nio.file.Files.readString(
                            java.nio.file.Path.of("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"))
                    .strip());
        } catch (java.io.IOException | RuntimeException e) {
            return DEFAULT_STRIPE_BYTES;
        }
    }

    /** For this process: {@link NumaKernels#load()}, {@link PolicyProbe#current()}, the calling thread's affinity. */
    public static NodeMemory forThisProcess(Topology topology) {
        Optional<NumaKernel> kernel = NumaKernels.load();
        CpuSet allowed = topology.onlineCpus();
        if (kernel.isPresent()) {
            try {
                allowed = kernel.get().threadAffinity();
            } catch (KernelCallException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "sched_getaffinity failed, assuming all online CPUs: {0}",
                        e.getMessage());
            }
        }
        return new NodeMemory(kernel, PolicyProbe.current(), topology, allowed);
    }

    /** Allocates {@code bytes} placed as {@code request} asks (or as the fallback allows); pages not yet touched. */
    public PlacedSegment allocate(long bytes, PlacementRequest request) {
        checkOpen();
        validate(bytes, request);
        PlacedSegment seg = nativeMemory ? allocateMapped(bytes, request) : allocateInArena(bytes, request);
        live.add(seg);
        liveBytes.addAndGet(seg.byteSize());
        if (closed) {
            seg.close();
            checkOpen();
        }
        return seg;
    }

    /** {@link #allocate} then {@link #touch}. */
    public PlacedSegment allocateTouched(long bytes, PlacementRequest request) {
        PlacedSegment seg = allocate(bytes, request);
        try {
            touch(seg);
        } catch (RuntimeException e) {
            seg.close();
            throw e;
        }
        return seg;
    }

    /**
     * Faults every page in by a write (a read would map the shared zero page and place nothing): from the calling
     * thread when it already runs only on the target node's CPUs or the mode needs no particular thread
     * (INTERLEAVE by mbind, OS_DEFAULT), else inside a {@link ScopedAffinity} on the filler CPUs. The write is an
     * atomic add of zero, so data already there is kept.
     */
    public void touch(PlacedSegment seg) {
        MemorySegment view = seg.segment();
        List<CpuSet> fillers = seg.fillers();
        if (fillers.isEmpty() || !nativeMemory || !support.affinity()) {
            populate(seg);
            return;
        }
        if (fillers.size() == 1 && alreadyWithin(fillers.get(0))) {
            populate(seg);
            return;
        }
        for (int stripe = 0; stripe < fillers.size(); stripe++) {
            try (ScopedAffinity pin = pinnedToFill(seg, fillers.get(stripe))) {
                if (fillers.size() == 1) {
                    populate(seg);
                } else {
                    writePages(view, stripe, fillers.size());
                }
            }
        }
    }

    /** This thread pinned to {@code cpus} for the first touch of {@code seg}; a warning when the pinning failed. */
    private ScopedAffinity pinnedToFill(PlacedSegment seg, CpuSet cpus) {
        ScopedAffinity pin = ScopedAffinity.pin(kernel, cpus);
        if (!pin.pinned()) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "first touch without pinning: {0} {1}",
                    seg,
                    pin.reason().orElse(""));
        }
        return pin;
    }

    /** Where the pages of {@code seg} are now (move_pages, else /proc/self/numa_maps). */
    public PageCensus census(PlacedSegment seg) {
        return locator.census(seg.segment());
    }

    /**
     * Moves the pages of {@code seg} to {@code node} where they are and binds the segment there for good, {@code
     * chunkBytes} at a time: mbind(MPOL_BIND, node, MPOL_MF_MOVE) on each page-aligned range, then {@code pace} with
     * its bytes (it may sleep to rate-limit, or throw to stop). The addresses stay the same, so a thread reading the
     * segment meanwhile reads the same bytes (a page under migration is read once it has moved). Only this process's
     * private pages move (MF_MOVE, not MOVE_ALL), which numacube's all are.
     *
     * @return empty when every range was moved; else why not (no native access, mbind not usable here, the kernel
     *     refused or failed: a default container's seccomp profile, a node without room), nothing or part of the
     *     segment then moved and all of its bytes unchanged, for the caller to copy instead
     */
    public Optional<String> moveInPlace(PlacedSegment seg, int node, long chunkBytes, LongConsumer pace) {
        if (!nativeMemory || !seg.isMapped()) {
            return Optional.of("no native access: memory from a Java arena cannot be moved in place");
        }
        if (!support.mbind()) {
            return Optional.of("mbind not usable here ("
                    + support.refusals().getOrDefault("mbind", "probe found it unusable") + ")");
        }
        if (chunkBytes < pageSize || chunkBytes % pageSize != 0) {
            throw new IllegalArgumentException("chunkBytes must be a positive multiple of the page size: chunkBytes="
                    + chunkBytes + " pageSize=" + pageSize);
        }
        NumaKernel k = kernel.orElseThrow();
        NodeSet target = NodeSet.of(node);
        MemorySegment view = seg.segment();
        long size = view.byteSize();
        for (long at = 0; at < size; at += chunkBytes) {
            long n = Math.min(chunkBytes, size - at);
            try {
                k.mbind(view.asSlice(at, n), BIND_STATIC, target, MemPolicyConstants.MPOL_MF_MOVE);
            } catch (KernelCallException e) {
                return Optional.of("mbind(MPOL_MF_MOVE) to node " + node + " failed at byte " + at + " of " + size
                        + ": " + e.getMessage());
            }
            pace.accept(n);
        }
        return Optional.empty();
    }

    /**
     * Pins the calling thread, for good, to the CPUs that fill {@code node} ({@link #fillerCpus}): for a thread of its
     * own that writes a block on that node (a partition copied there), so that it neither waits behind the node's
     * workers nor writes from another node. Meant for a thread that ends with its work: the pinning is not undone.
     *
     * @return empty when pinned; else why not (no native access, no CPU near the node, the kernel refused), the thread
     *     then running where it did
     */
    public Optional<String> pinCurrentThreadToFiller(int node) {
        if (!nativeMemory || !support.affinity()) {
            return Optional.of("no native access or affinity: thread not pinned (node " + node + ")");
        }
        Optional<Filler> f = tryFiller(node);
        if (f.isEmpty()) {
            return Optional.of("no CPU this process may run on is near node " + node + ": allowedCpus=" + allowedCpus);
        }
        try {
            kernel.orElseThrow().setThreadAffinity(f.get().cpus());
            return Optional.empty();
        } catch (KernelCallException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** The CPUs that first-touch memory for {@code node}: its CPUs this process may run on, else the nearest node's. */
    public CpuSet fillerCpus(int node) {
        return filler(node).cpus();
    }

    public int liveSegmentCount() {
        return live.size();
    }

    public long liveBytes() {
        return liveBytes.get();
    }

    /** Frees every live segment (logging them as leaks). Idempotent; later allocations throw. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<PlacedSegment> leaked = new ArrayList<>(live);
        if (!leaked.isEmpty()) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "NodeMemory closed with live segments, freeing them: count={0} " + "bytes={1}",
                    leaked.size(),
                    liveBytes.get());
        }
        RuntimeException first = null;
        for (PlacedSegment s : leaked) {
            try {
                s.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    void released(PlacedSegment seg) {
        if (live.remove(seg)) {
            liveBytes.addAndGet(-seg.byteSize());
        }
    }

    private PlacedSegment allocateInArena(long bytes, PlacementRequest request) {
        Arena arena = Arena.ofShared();
        MemorySegment view;
        try {
            view = arena.allocate(bytes, pageSize);
        } catch (OutOfMemoryError e) {
            arena.close();
            throw new NumacubeException(
                    NumacubeException.Kind.OUT_OF_MEMORY,
                    "off-heap allocation failed: bytes=" + bytes + " — lower the data size or free memory",
                    e);
        }
        String why = request.mode() == PlacementMode.OS_DEFAULT
                ? null
                : "no native access (" + support.refusals().getOrDefault("native", "no kernel")
                        + "): memory from a Java arena, placed where the allocating thread ran";
        return new PlacedSegment(
                this, kernel, null, arena, view, request, PlacementMode.OS_DEFAULT, -1, why, List.of(), List.of());
    }

    private PlacedSegment allocateMapped(long bytes, PlacementRequest request) {
        NumaKernel k = kernel.orElseThrow();
        MemorySegment mapped;
        try {
            mapped = k.mmapAnonymous(bytes);
        } catch (KernelCallException e) {
            if (e.errno() == Errno.ENOMEM) {
                throw new NumacubeException(
                        NumacubeException.Kind.OUT_OF_MEMORY,
                        "mmap of placed memory failed: bytes=" + bytes + " errno=ENOMEM(12) — lower the data size "
                                + "or raise vm.max_map_count / the memory limit",
                        e);
            }
            throw e;
        }
        Arena arena = Arena.ofShared();
        try {
            List<String> notes = new ArrayList<>();
            if (request.hugePages()) {
                try {
                    k.madvise(mapped, MemPolicyConstants.MADV_HUGEPAGE);
                } catch (KernelCallException e) {
                    notes.add("madvise(MADV_HUGEPAGE) refused: " + e.getMessage() + "; using base pages");
                }
            }
            Decision d = decide(k, mapped, request);
            MemorySegment view = mapped.reinterpret(bytes, arena, null);
            return new PlacedSegment(
                    this, kernel, mapped, arena, view, request, d.mode, d.targetNode, d.reason, notes, d.fillers);
        } catch (RuntimeException | Error e) {
            arena.close();
            try {
                k.munmap(mapped);
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private record Decision(PlacementMode mode, int targetNode, String reason, List<CpuSet> fillers) {}

    private record Filler(int node, CpuSet cpus, String reason) {}

    private Decision decide(NumaKernel k, MemorySegment mapped, PlacementRequest request) {
        switch (request.mode()) {
            case OS_DEFAULT:
                return new Decision(PlacementMode.OS_DEFAULT, -1, null, List.of());
            case FIRST_TOUCH:
                return firstTouch(request.nodes(), null);
            default:
                break;
        }
        if (!support.mbind()) {
            return firstTouch(
                    request.nodes(),
                    "mbind not usable here (" + support.refusals().getOrDefault("mbind", "probe found it unusable")
                            + ")");
        }
        int mode = MemPolicyConstants.MPOL_F_STATIC_NODES
                | switch (request.mode()) {
                    case BIND -> MemPolicyConstants.MPOL_BIND;
                    case PREFERRED -> MemPolicyConstants.MPOL_PREFERRED;
                    default -> MemPolicyConstants.MPOL_INTERLEAVE;
                };
        try {
            k.mbind(mapped, mode, request.nodes(), 0);
        } catch (KernelCallException e) {
            if (e.isRefusal()) {
                return firstTouch(request.nodes(), "mbind refused: " + e.getMessage());
            }
            throw e;
        }
        if (request.mode() == PlacementMode.INTERLEAVE) {
            return new Decision(PlacementMode.INTERLEAVE, request.targetNode(), null, List.of());
        }
        int node = request.targetNode();
        Optional<Filler> f = tryFiller(node);
        return new Decision(
                request.mode(), node, null, f.map(x -> List.of(x.cpus())).orElse(List.of()));
    }

    private Decision firstTouch(NodeSet nodes, String prior) {
        if (!support.affinity()) {
            return new Decision(
                    PlacementMode.OS_DEFAULT,
                    -1,
                    join(
                            prior,
                            "first touch needs sched_setaffinity ("
                                    + support.refusals()
                                            .getOrDefault(
                                                    "sched_setaffinity",
                                                    support.refusals().getOrDefault("sched_getaffinity", "not usable"))
                                    + "); pages land where the "
                                    + "touching thread runs"),
                    List.of());
        }
        if (nodes.size() == 1) {
            Filler f = filler(nodes.stream().findFirst().getAsInt());
            return new Decision(PlacementMode.FIRST_TOUCH, f.node(), join(prior, f.reason()), List.of(f.cpus()));
        }
        List<CpuSet> stripes = new ArrayList<>();
        String notes = prior;
        for (int n : nodes.toArray()) {
            Filler f = filler(n);
            stripes.add(f.cpus());
            notes = join(notes, f.reason());
        }
        return new Decision(
                PlacementMode.FIRST_TOUCH,
                -1,
                join(
                        notes,
                        "interleaving by first touch in "
                                + (stripeBytes >> 10)
                                + " KiB stripes (a transparent huge page lands whole): stripe i is written "
                                + "from node " + nodes + "[i mod " + nodes.size() + "]"),
                stripes);
    }

    private Filler filler(int node) {
        return tryFiller(node)
                .orElseThrow(() -> new NumacubeException(
                        NumacubeException.Kind.PLATFORM,
                        "no CPU this process may run on is near node " + node + ": allowedCpus=" + allowedCpus
                                + " nodesWithCpus=" + topology.nodesWithCpus()
                                + " — widen the CPU affinity or cpuset"));
    }

    private Optional<Filler> tryFiller(int node) {
        CpuSet own =
                topology.node(node).map(NumaNode::cpus).orElse(CpuSet.empty()).and(allowedCpus);
        if (!own.isEmpty()) {
            return Optional.of(new Filler(node, own, null));
        }
        List<Integer> candidates = new ArrayList<>();
        for (NumaNode n : topology.nodes()) {
            if (n.cpus().intersects(allowedCpus)) {
                candidates.add(n.id());
            }
        }
        OptionalInt nearest = topology.nearest(
                node, NodeSet.of(candidates.stream().mapToInt(Integer::intValue).toArray()));
        if (nearest.isEmpty()) {
            return Optional.empty();
        }
        int m = nearest.getAsInt();
        CpuSet cpus = topology.node(m).orElseThrow().cpus().and(allowedCpus);
        return Optional.of(new Filler(
                m,
                cpus,
                "node " + node + " has no CPU this process may run on "
                        + "(memory-only node, or none allowed): first touch from the nearest node " + m
                        + " (distance " + topology.distance(node, m) + ", cpus " + cpus + ")"));
    }

    private boolean alreadyWithin(CpuSet cpus) {
        try {
            return cpus.containsAll(kernel.orElseThrow().threadAffinity());
        } catch (KernelCallException e) {
            return false;
        }
    }

    /** Writes every page, or with several stripes those in stripe-sized address blocks {@code i} with
     *  {@code i mod stripes == stripe} (blocks aligned as transparent huge pages are). */
    /**
     * Faults every page of {@code seg} in as a write would, by one madvise(MADV_POPULATE_WRITE) where the kernel has
     * it (5.14+; the kernel walks the pages, with no trap per page: what the JDK's pretouch does since 22), else by
     * {@link #writePages}. Either way the data is kept and the pages are placed by the mapping's policy, or for first
     * touch on the calling thread's node. A refusal (EINVAL: an older kernel; a filter) is remembered: the next segments are written page by page.
     */
    private void populate(PlacedSegment seg) {
        MemorySegment view = seg.segment();
        if (nativeMemory && seg.isMapped() && populateWrite) {
            try {
                kernel.orElseThrow().madvise(view, MemPolicyConstants.MADV_POPULATE_WRITE);
                return;
            } catch (KernelCallException e) {
                // EINVAL: a kernel before 5.14; EPERM/ENOSYS: a filter. Else (no memory, ...) this segment only.
                if (e.errno() == Errno.EINVAL || e.isRefusal()) {
                    populateWrite = false;
                }
                LOG.log(
                        System.Logger.Level.DEBUG,
                        "madvise(MADV_POPULATE_WRITE) failed, pages written one by one: {0}",
                        e.getMessage());
            }
        }
        writePages(view, 0, 1);
    }

    private void writePages(MemorySegment view, int stripe, int stripes) {
        long size = view.byteSize();
        long base = view.address();
        for (long off = 0; off < size; off += pageSize) {
            if (stripes > 1
                    && Long.remainderUnsigned(Long.divideUnsigned(base + off, stripeBytes), stripes) != stripe) {
                continue;
            }
            if (off + Long.BYTES <= size) {
                LONG_AT.getAndAdd(view, off, 0L);
            } else {
                view.set(ValueLayout.JAVA_BYTE, off, view.get(ValueLayout.JAVA_BYTE, off));
            }
        }
    }

    private void validate(long bytes, PlacementRequest request) {
        if (bytes <= 0) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT, "allocation size must be positive: bytes=" + bytes);
        }
        NodeSet nodes = request.nodes();
        switch (request.mode()) {
            case BIND, PREFERRED, FIRST_TOUCH -> {
                if (nodes.size() != 1) {
                    throw new NumacubeException(
                            NumacubeException.Kind.INVALID_INPUT,
                            request.mode()
                                    + " needs exactly one node: nodes=" + (nodes.isEmpty() ? "<none>" : nodes)
                                    + " — use INTERLEAVE for several");
                }
            }
            case INTERLEAVE -> {
                if (nodes.isEmpty()) {
                    throw new NumacubeException(
                            NumacubeException.Kind.INVALID_INPUT, "INTERLEAVE needs at least one node: nodes=<none>");
                }
            }
            case OS_DEFAULT -> {
                return;
            }
        }
        NodeSet unknown = nodes.andNot(topology.nodeIds());
        if (!unknown.isEmpty()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "placement names nodes this machine " + "does not have: unknown=" + unknown + " nodes="
                            + topology.nodeIds());
        }
        if (request.mode() == PlacementMode.BIND || request.mode() == PlacementMode.PREFERRED) {
            NodeSet noMemory = nodes.andNot(topology.nodesWithMemory());
            if (!noMemory.isEmpty() && topology.numaInSysfs()) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        request.mode()
                                + " to a node without memory: node=" + noMemory + " nodesWithMemory="
                                + topology.nodesWithMemory() + " — pick a node with memory");
            }
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("NodeMemory is closed: no more allocations");
        }
    }

    private static String join(String a, String b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : a + "; " + b;
    }
}
