package io.numacube.numa.kernel;

import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Locale;

/**
 * {@link NumaKernel} for Linux on x86_64 and aarch64, through FFM downcalls into glibc only: {@code syscall} for the
 * memory-policy calls (they have no glibc wrapper), glibc's {@code mmap}, {@code munmap}, {@code madvise},
 * {@code sched_getaffinity}, {@code sched_setaffinity} and {@code sysconf}. errno is captured with every call.
 *
 * <p>Node masks follow {@link NodeMasks}: {@code W} longs, {@code maxnode = 64*W + 1}. CPU masks start at
 * {@link NodeMasks#cpuMaskLongs(int)} of the possible CPUs and double on EINVAL.
 *
 * <p>Thread-safe: method handles are bound once in static constants; every call allocates its buffers in its own
 * confined arena; the only mutable field (a grown CPU-mask width) is volatile and only grows.
 */
final class LinuxKernel implements NumaKernel {

    /** Syscall numbers of the calls without a glibc wrapper, per architecture. */
    enum Arch {
        X86_64("x86_64", 237, 238, 239, 279, 309, 186),
        AARCH64("aarch64", 235, 237, 236, 239, 168, 178);

        final String label;
        final long mbind;
        final long setMempolicy;
        final long getMempolicy;
        final long movePages;
        final long getcpu;
        final long gettid;

        Arch(String label, long mbind, long setMempolicy, long getMempolicy, long movePages, long getcpu, long gettid) {
            this.label = label;
            this.mbind = mbind;
            this.setMempolicy = setMempolicy;
            this.getMempolicy = getMempolicy;
            this.movePages = movePages;
            this.getcpu = getcpu;
            this.gettid = gettid;
        }

        /** The architecture for an {@code os.arch} value, or null when numacube has no syscall table for it. */
        static Arch of(String osArch) {
            return switch (osArch.toLowerCase(Locale.ROOT)) {
                case "amd64", "x86_64" -> X86_64;
                case "aarch64", "arm64" -> AARCH64;
                default -> null;
            };
        }
    }

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final AddressLayout ADDRESS = ValueLayout.ADDRESS;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    /** {@code long syscall(long nr, ...)} with six long arguments after the number. */
    private static final MethodHandle SYSCALL = downcall(
            "syscall",
            FunctionDescriptor.of(LONG, LONG, LONG, LONG, LONG, LONG, LONG, LONG),
            CAPTURE_ERRNO,
            Linker.Option.firstVariadicArg(1));

    private static final MethodHandle MMAP =
            downcall("mmap", FunctionDescriptor.of(ADDRESS, ADDRESS, LONG, INT, INT, INT, LONG), CAPTURE_ERRNO);
    private static final MethodHandle MUNMAP =
            downcall("munmap", FunctionDescriptor.of(INT, ADDRESS, LONG), CAPTURE_ERRNO);
    private static final MethodHandle MPROTECT =
            downcall("mprotect", FunctionDescriptor.of(INT, ADDRESS, LONG, INT), CAPTURE_ERRNO);
    private static final MethodHandle MADVISE =
            downcall("madvise", FunctionDescriptor.of(INT, ADDRESS, LONG, INT), CAPTURE_ERRNO);
    private static final MethodHandle SCHED_GETAFFINITY =
            downcall("sched_getaffinity", FunctionDescriptor.of(INT, INT, LONG, ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle SCHED_SETAFFINITY =
            downcall("sched_setaffinity", FunctionDescriptor.of(INT, INT, LONG, ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle SYSCONF = downcall("sysconf", FunctionDescriptor.of(LONG, INT));

    private static final int SC_PAGESIZE = 30;
    private static final int PROT_NONE = 0;
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE = 0x02;
    private static final int MAP_ANONYMOUS = 0x20;
    private static final int MAP_NORESERVE = 0x4000;
    private static final long MAP_FAILED = -1L;
    /** The mode bits get_mempolicy may or into the mode: STATIC, RELATIVE and MPOL_F_NUMA_BALANCING (1 << 13). */
    private static final int ALL_MODE_FLAGS = MemPolicyConstants.MPOL_MODE_FLAGS | (1 << 13);

    private static final int MOVE_PAGES_CHUNK = 4096;

    private final Arch arch;
    private final int nodeMaskLongs;
    private final long pageSize;
    private volatile int cpuMaskLongs;

    LinuxKernel(Arch arch, int nodeMaskLongs, int cpuMaskLongs) {
        this.arch = arch;
        this.nodeMaskLongs = nodeMaskLongs;
        this.cpuMaskLongs = cpuMaskLongs;
        this.pageSize = sysconf(SC_PAGESIZE, "_SC_PAGESIZE");
    }

    /** Binds to this machine: mask widths from /proc/self/status and /sys/devices/system/cpu/possible. */
    static LinuxKernel create(Arch arch) {
        return new LinuxKernel(
                arch,
                NodeMasks.readNodeMaskLongs(Path.of("/proc/self/status")),
                NodeMasks.readCpuMaskLongs(Path.of("/sys/devices/system/cpu/possible")));
    }

    private static MethodHandle downcall(String name, FunctionDescriptor fd, Linker.Option... options) {
        MemorySegment symbol = LIBC.find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError(
                        "glibc symbol not found: symbol=" + name + " — numacube needs glibc (musl is not supported)"));
        return LINKER.downcallHandle(symbol, fd, options);
    }

    int nodeMaskLongs() {
        return nodeMaskLongs;
    }

    int cpuMaskLongs() {
        return cpuMaskLongs;
    }

    @Override
    public String description() {
        return "linux-" + arch.label + " via glibc syscall (FFM), nodeMask=" + 64L * nodeMaskLongs + " bits";
    }

    @Override
    public long pageSizeBytes() {
        return pageSize;
    }

    @Override
    public MemorySegment mmapAnonymous(long byteSize) {
        if (byteSize <= 0) {
            throw new KernelCallException("mmap", Errno.EINVAL, "length must be positive: length=" + byteSize);
        }
        long inner = roundUpToPages(byteSize);
        long outer = inner + 2 * pageSize;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            MemorySegment r = (MemorySegment) MMAP.invokeExact(
                    state, MemorySegment.NULL, outer, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0L);
            if (r.address() == MAP_FAILED) {
                throw failure(
                        "mmap",
                        state,
                        "length=" + outer + " (" + byteSize + " and two guard pages)"
                                + " flags=MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE");
            }
            MemorySegment usable = MemorySegment.ofAddress(r.address() + pageSize);
            int p = (int) MPROTECT.invokeExact(state, usable, inner, PROT_READ_WRITE);
            if (p != 0) {
                KernelCallException e = failure(
                        "mprotect",
                        state,
                        "addr=0x" + Long.toHexString(usable.address()) + " length=" + inner
                                + " prot=PROT_READ|PROT_WRITE");
                int ignored = (int) MUNMAP.invokeExact(state, r, outer);
                throw e;
            }
            return usable.reinterpret(byteSize);
        } catch (KernelCallException e) {
            throw e;
        } catch (Throwable t) {
            throw unexpected("mmap", t);
        }
    }

    @Override
    public void munmap(MemorySegment segment) {
        requireNative("munmap", segment);
        long start = segment.address() - pageSize;
        long length = roundUpToPages(segment.byteSize()) + 2 * pageSize;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int r = (int) MUNMAP.invokeExact(state, MemorySegment.ofAddress(start), length);
            if (r != 0) {
                throw failure("munmap", state, range(segment) + " (with its guard pages)");
            }
        } catch (KernelCallException e) {
            throw e;
        } catch (Throwable t) {
            throw unexpected("munmap", t);
        }
    }

    private long roundUpToPages(long bytes) {
        return (bytes + pageSize - 1) / pageSize * pageSize;
    }

    @Override
    public void madvise(MemorySegment segment, int advice) {
        requireNative("madvise", segment);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int r = (int)
                    MADVISE.invokeExact(state, MemorySegment.ofAddress(segment.address()), segment.byteSize(), advice);
            if (r != 0) {
                throw failure("madvise", state, range(segment) + " advice=" + advice);
            }
        } catch (KernelCallException e) {
            throw e;
        } catch (Throwable t) {
            throw unexpected("madvise", t);
        }
    }

    @Override
    public void mbind(MemorySegment segment, int mode, NodeSet nodes, int flags) {
        requireNative("mbind", segment);
        String facts = range(segment) + " mode=" + mode + " nodes=" + nodes + " flags=" + flags + " maxnode="
                + NodeMasks.maxnode(nodeMaskLongs);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = nodeMask(arena, "mbind", nodes);
            MemorySegment state = arena.allocate(CALL_STATE);
            long r = syscall(
                    state,
                    arch.mbind,
                    segment.address(),
                    segment.byteSize(),
                    mode,
                    mask.address(),
                    NodeMasks.maxnode(nodeMaskLongs),
                    Integer.toUnsignedLong(flags));
            if (r != 0) {
                throw failure("mbind", state, facts);
            }
        }
    }

    @Override
    public void setMempolicy(int mode, NodeSet nodes) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = nodeMask(arena, "set_mempolicy", nodes);
            MemorySegment state = arena.allocate(CALL_STATE);
            long r = syscall(state, arch.setMempolicy, mode, mask.address(), NodeMasks.maxnode(nodeMaskLongs), 0, 0, 0);
            if (r != 0) {
                throw failure(
                        "set_mempolicy",
                        state,
                        "mode=" + mode + " nodes=" + nodes + " maxnode=" + NodeMasks.maxnode(nodeMaskLongs));
            }
        }
    }

    @Override
    public RawMemoryPolicy getMempolicy() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment modeOut = arena.allocate(INT);
            MemorySegment mask = arena.allocate(LONG, nodeMaskLongs);
            MemorySegment state = arena.allocate(CALL_STATE);
            long r = syscall(
                    state,
                    arch.getMempolicy,
                    modeOut.address(),
                    mask.address(),
                    NodeMasks.maxnode(nodeMaskLongs),
                    0,
                    0,
                    0);
            if (r != 0) {
                throw failure("get_mempolicy", state, "maxnode=" + NodeMasks.maxnode(nodeMaskLongs));
            }
            int raw = modeOut.get(INT, 0);
            return new RawMemoryPolicy(
                    raw & ~ALL_MODE_FLAGS, raw & ALL_MODE_FLAGS, NodeSet.fromBits(NodeMasks.read(mask, nodeMaskLongs)));
        }
    }

    @Override
    public NodeSet memsAllowed() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(LONG, nodeMaskLongs);
            MemorySegment state = arena.allocate(CALL_STATE);
            long r = syscall(
                    state,
                    arch.getMempolicy,
                    0,
                    mask.address(),
                    NodeMasks.maxnode(nodeMaskLongs),
                    0,
                    MemPolicyConstants.MPOL_F_MEMS_ALLOWED,
                    0);
            if (r != 0) {
                throw failure(
                        "get_mempolicy",
                        state,
                        "flags=MPOL_F_MEMS_ALLOWED maxnode=" + NodeMasks.maxnode(nodeMaskLongs));
            }
            return NodeSet.fromBits(NodeMasks.read(mask, nodeMaskLongs));
        }
    }

    @Override
    public int[] pageNodes(MemorySegment segment) {
        requireNative("move_pages", segment);
        long first = Math.floorDiv(segment.address(), pageSize) * pageSize;
        long end = segment.address() + segment.byteSize();
        long pages = segment.byteSize() == 0 ? 0 : (end - first + pageSize - 1) / pageSize;
        if (pages > Integer.MAX_VALUE - 8) {
            throw new KernelCallException(
                    "move_pages",
                    Errno.E2BIG,
                    "too many pages for one census: pages=" + pages + " — ask about a smaller slice");
        }
        int[] result = new int[(int) pages];
        try (Arena arena = Arena.ofConfined()) {
            int chunk = (int) Math.min(MOVE_PAGES_CHUNK, Math.max(1, pages));
            MemorySegment addresses = arena.allocate(LONG, chunk);
            MemorySegment status = arena.allocate(INT, chunk);
            MemorySegment state = arena.allocate(CALL_STATE);
            for (int done = 0; done < result.length; ) {
                int n = Math.min(chunk, result.length - done);
                for (int i = 0; i < n; i++) {
                    addresses.setAtIndex(LONG, i, first + (long) (done + i) * pageSize);
                }
                long r = syscall(state, arch.movePages, 0, n, addresses.address(), 0, status.address(), 0);
                if (r < 0) {
                    throw failure("move_pages", state, range(segment) + " pages=" + n + " nodes=NULL");
                }
                for (int i = 0; i < n; i++) {
                    result[done + i] = status.getAtIndex(INT, i);
                }
                done += n;
            }
        }
        return result;
    }

    @Override
    public CpuSet threadAffinity() {
        int longs = cpuMaskLongs;
        while (true) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment mask = arena.allocate(LONG, longs);
                MemorySegment state = arena.allocate(CALL_STATE);
                int r = (int) SCHED_GETAFFINITY.invokeExact(state, 0, 8L * longs, mask);
                if (r == 0) {
                    growCpuMask(longs);
                    return CpuSet.fromBits(NodeMasks.read(mask, longs));
                }
                int errno = errno(state);
                if (errno != Errno.EINVAL || longs >= NodeMasks.MAX_CPU_MASK_LONGS) {
                    throw new KernelCallException("sched_getaffinity", errno, "maskBytes=" + 8L * longs);
                }
                longs = Math.min(NodeMasks.MAX_CPU_MASK_LONGS, longs * 2);
            } catch (KernelCallException e) {
                throw e;
            } catch (Throwable t) {
                throw unexpected("sched_getaffinity", t);
            }
        }
    }

    @Override
    public void setThreadAffinity(CpuSet cpus) {
        setThreadAffinity(0, cpus);
    }

    @Override
    public int threadId() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            long r = syscall(state, arch.gettid, 0, 0, 0, 0, 0, 0);
            if (r <= 0) {
                throw failure("gettid", state, "");
            }
            return (int) r;
        }
    }

    @Override
    public void setThreadAffinity(int tid, CpuSet cpus) {
        if (tid < 0) {
            throw new KernelCallException("sched_setaffinity", Errno.ESRCH, "no such thread id: tid=" + tid);
        }
        if (cpus.isEmpty()) {
            throw new KernelCallException(
                    "sched_setaffinity", Errno.EINVAL, "empty cpu set — give at least one CPU this process may run on");
        }
        int longs = Math.max(cpuMaskLongs, (cpus.max() + 64) / 64);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(LONG, longs);
            NodeMasks.write(mask, cpus.toBits(), longs);
            MemorySegment state = arena.allocate(CALL_STATE);
            int r = (int) SCHED_SETAFFINITY.invokeExact(state, tid, 8L * longs, mask);
            if (r != 0) {
                throw failure(
                        "sched_setaffinity",
                        state,
                        (tid == 0 ? "" : "tid=" + tid + " ") + "cpus=" + cpus + " maskBytes=" + 8L * longs
                                + (errno(state) == Errno.EINVAL
                                        ? " — none of these CPUs is online and allowed here"
                                        : ""));
            }
        } catch (KernelCallException e) {
            throw e;
        } catch (Throwable t) {
            throw unexpected("sched_setaffinity", t);
        }
    }

    @Override
    public CpuLocation currentCpu() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cpu = arena.allocate(INT);
            MemorySegment node = arena.allocate(INT);
            MemorySegment state = arena.allocate(CALL_STATE);
            long r = syscall(state, arch.getcpu, cpu.address(), node.address(), 0, 0, 0, 0);
            if (r != 0) {
                throw failure("getcpu", state, "");
            }
            return new CpuLocation(cpu.get(INT, 0), node.get(INT, 0));
        }
    }

    private void growCpuMask(int longs) {
        if (longs > cpuMaskLongs) {
            cpuMaskLongs = longs;
        }
    }

    private MemorySegment nodeMask(Arena arena, String call, NodeSet nodes) {
        if (nodes.max() >= 64 * nodeMaskLongs) {
            throw new KernelCallException(
                    call,
                    Errno.EINVAL,
                    "node id beyond the kernel's node mask: node=" + nodes.max() + " maskBits=" + 64L * nodeMaskLongs);
        }
        MemorySegment mask = arena.allocate(LONG, nodeMaskLongs);
        BitSet bits = nodes.toBits();
        NodeMasks.write(mask, bits, nodeMaskLongs);
        return mask;
    }

    private static long syscall(MemorySegment state, long nr, long a1, long a2, long a3, long a4, long a5, long a6) {
        try {
            return (long) SYSCALL.invokeExact(state, nr, a1, a2, a3, a4, a5, a6);
        } catch (Throwable t) {
            throw unexpected("syscall(" + nr + ")", t);
        }
    }

    private static long sysconf(int name, String label) {
        try {
            long v = (long) SYSCONF.invokeExact(name);
            if (v <= 0) {
                throw new KernelCallException("sysconf", Errno.EINVAL, "name=" + label + " result=" + v);
            }
            return v;
        } catch (KernelCallException e) {
            throw e;
        } catch (Throwable t) {
            throw unexpected("sysconf", t);
        }
    }

    private static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    private static KernelCallException failure(String call, MemorySegment state, String facts) {
        return new KernelCallException(call, errno(state), facts);
    }

    private static KernelCallException unexpected(String call, Throwable t) {
        if (t instanceof Error e) {
            throw e;
        }
        KernelCallException k = new KernelCallException(call, 0, "downcall threw " + t);
        k.initCause(t);
        return k;
    }

    private static void requireNative(String call, MemorySegment segment) {
        if (!segment.isNative()) {
            throw new KernelCallException(
                    call,
                    Errno.EFAULT,
                    "segment is on the Java heap, not native memory: " + "byteSize=" + segment.byteSize()
                            + " — pass memory from mmapAnonymous");
        }
    }

    private static String range(MemorySegment segment) {
        return "addr=0x" + Long.toHexString(segment.address()) + " length=" + segment.byteSize();
    }
}
