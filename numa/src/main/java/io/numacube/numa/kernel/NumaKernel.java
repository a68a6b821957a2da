package io.numacube.numa.kernel;

import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import java.lang.foreign.MemorySegment;

/**
 * The Linux calls numacube needs, and nothing else: the only way the runtime reaches the kernel.
 * Obtain one from {@link NumaKernels#load()}; where it is empty (not Linux, an unknown architecture, native access
 * denied) the runtime falls back to pure Java and says so.
 *
 * <p>Every method either succeeds or throws {@link KernelCallException} naming the call and its errno. Methods that
 * act on "this thread" act on the calling thread only. Implementations are thread-safe and hold no per-thread state.
 *
 * <p>Mode and flag numbers are the kernel's ({@code MPOL_BIND = 2}, ...): see {@link MemPolicyConstants}.
 */
public interface NumaKernel {

    /** What this implementation is, for reports: e.g. {@code linux-x86_64 via glibc syscall (FFM)}. */
    String description();

    /** The base page size in bytes (sysconf(_SC_PAGESIZE)). */
    long pageSizeBytes();

    /**
     * Maps {@code byteSize} bytes of private anonymous memory, readable and writable, not yet faulted in. The mapping
     * has an inaccessible guard page on each side, so the kernel never merges it with a neighbouring mapping: its
     * memory policy stays its own and a {@code numa_maps} line counts exactly its pages.
     */
    MemorySegment mmapAnonymous(long byteSize);

    /** Unmaps a whole segment returned by {@link #mmapAnonymous(long)}, guard pages included. */
    void munmap(MemorySegment segment);

    /** madvise(2) on the whole segment, e.g. {@link MemPolicyConstants#MADV_HUGEPAGE}. */
    void madvise(MemorySegment segment, int advice);

    /** mbind(2) on the whole segment: {@code mode} with optional mode flags or'ed in, {@code flags} MPOL_MF_*. */
    void mbind(MemorySegment segment, int mode, NodeSet nodes, int flags);

    /** set_mempolicy(2) for the calling thread. */
    void setMempolicy(int mode, NodeSet nodes);

    /** get_mempolicy(2) for the calling thread: its mode (mode flags separated) and node mask. */
    RawMemoryPolicy getMempolicy();

    /** get_mempolicy(MPOL_F_MEMS_ALLOWED): the nodes this thread may allocate on, after cpusets. */
    NodeSet memsAllowed();

    /**
     * move_pages(2) with a null node list: for each page of the segment, the node it is on, or a negative errno
     * ({@code -2} ENOENT: not present yet, {@code -14} EFAULT: not mapped). Faults nothing in.
     */
    int[] pageNodes(MemorySegment segment);

    /** sched_getaffinity(2) of the calling thread. */
    CpuSet threadAffinity();

    /** sched_setaffinity(2) of the calling thread. */
    void setThreadAffinity(CpuSet cpus);

    /**
     * gettid(2): the calling thread's kernel thread id, which {@link #setThreadAffinity(int, CpuSet)} takes to pin
     * that thread from another one. This kernel has none by default: {@code -1}.
     */
    default int threadId() {
        return -1;
    }

    /**
     * sched_setaffinity(2) of thread {@code tid} of this process (a {@link #threadId()} of a thread still running;
     * {@code 0} is the calling thread). Refused ({@code ENOSYS}) by default.
     */
    default void setThreadAffinity(int tid, CpuSet cpus) {
        if (tid == 0) {
            setThreadAffinity(cpus);
            return;
        }
        throw new KernelCallException("sched_setaffinity", Errno.ENOSYS, "no thread ids: tid=" + tid);
    }

    /** getcpu(2): the CPU and node the calling thread runs on right now. */
    CpuLocation currentCpu();
}
