package io.numacube.numa.testing;

import io.numacube.numa.kernel.CpuLocation;
import io.numacube.numa.kernel.KernelCallException;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.kernel.RawMemoryPolicy;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link NumaKernel} answering from fields, for tests of code that reads through the interface. Calls named in
 * {@link #refuse} throw {@link KernelCallException} with the given errno. Records every call made. Not thread-safe.
 */
public final class FakeNumaKernel implements NumaKernel {

    public CpuSet affinity = CpuSet.of(0);
    public NodeSet memsAllowed = NodeSet.of(0);
    public RawMemoryPolicy policy = new RawMemoryPolicy(0, 0, NodeSet.empty());
    /** What {@link #pageNodes} answers: a node id per page, or a negative errno for a page move_pages calls absent. */
    public int[] pageNodes = new int[0];

    public final Map<String, Integer> refuse = new HashMap<>();
    public final List<String> calls = new ArrayList<>();

    private synchronized void call(String name) {
        calls.add(name);
        Integer errno = refuse.get(name);
        if (errno != null) {
            throw new KernelCallException(name, errno, "(fake)");
        }
    }

    @Override
    public String description() {
        return "fake";
    }

    @Override
    public long pageSizeBytes() {
        return 4096;
    }

    @Override
    public MemorySegment mmapAnonymous(long byteSize) {
        throw new UnsupportedOperationException("fake kernel maps nothing");
    }

    @Override
    public void munmap(MemorySegment segment) {
        throw new UnsupportedOperationException("fake kernel maps nothing");
    }

    @Override
    public void madvise(MemorySegment segment, int advice) {
        call("madvise");
    }

    @Override
    public void mbind(MemorySegment segment, int mode, NodeSet nodes, int flags) {
        call("mbind");
    }

    @Override
    public void setMempolicy(int mode, NodeSet nodes) {
        call("set_mempolicy");
    }

    @Override
    public RawMemoryPolicy getMempolicy() {
        call("get_mempolicy");
        return policy;
    }

    @Override
    public NodeSet memsAllowed() {
        call("get_mempolicy(MPOL_F_MEMS_ALLOWED)");
        return memsAllowed;
    }

    @Override
    public int[] pageNodes(MemorySegment segment) {
        call("move_pages");
        return pageNodes.clone();
    }

    @Override
    public CpuSet threadAffinity() {
        call("sched_getaffinity");
        return affinity;
    }

    @Override
    public void setThreadAffinity(CpuSet cpus) {
        call("sched_setaffinity");
        affinity = cpus;
    }

    @Override
    public CpuLocation currentCpu() {
        call("getcpu");
        return new CpuLocation(affinity.stream().findFirst().orElse(0), 0);
    }
}
