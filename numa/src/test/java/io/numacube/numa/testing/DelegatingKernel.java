package io.numacube.numa.testing;

import io.numacube.numa.kernel.CpuLocation;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.kernel.RawMemoryPolicy;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import java.lang.foreign.MemorySegment;

/** A kernel that forwards to a real one; tests override the calls they want to refuse. */
public class DelegatingKernel implements NumaKernel {

    protected final NumaKernel real;

    public DelegatingKernel(NumaKernel real) {
        this.real = real;
    }

    @Override
    public String description() {
        return "fake over " + real.description();
    }

    @Override
    public long pageSizeBytes() {
        return real.pageSizeBytes();
    }

    @Override
    public MemorySegment mmapAnonymous(long byteSize) {
        return real.mmapAnonymous(byteSize);
    }

    @Override
    public void munmap(MemorySegment segment) {
        real.munmap(segment);
    }

    @Override
    public void madvise(MemorySegment segment, int advice) {
        real.madvise(segment, advice);
    }

    @Override
    public void mbind(MemorySegment segment, int mode, NodeSet nodes, int flags) {
        real.mbind(segment, mode, nodes, flags);
    }

    @Override
    public void setMempolicy(int mode, NodeSet nodes) {
        real.setMempolicy(mode, nodes);
    }

    @Override
    public RawMemoryPolicy getMempolicy() {
        return real.getMempolicy();
    }

    @Override
    public NodeSet memsAllowed() {
        return real.memsAllowed();
    }

    @Override
    public int[] pageNodes(MemorySegment segment) {
        return real.pageNodes(segment);
    }

    @Override
    public CpuSet threadAffinity() {
        return real.threadAffinity();
    }

    @Override
    public void setThreadAffinity(CpuSet cpus) {
        real.setThreadAffinity(cpus);
    }

    @Override
    public int threadId() {
        return real.threadId();
    }

    @Override
    public void setThreadAffinity(int tid, CpuSet cpus) {
        real.setThreadAffinity(tid, cpus);
    }

    @Override
    public CpuLocation currentCpu() {
        return real.currentCpu();
    }
}
