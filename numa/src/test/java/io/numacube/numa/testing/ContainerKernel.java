package io.numacube.numa.testing;

import io.numacube.numa.kernel.Errno;
import io.numacube.numa.kernel.KernelCallException;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.kernel.RawMemoryPolicy;
import io.numacube.numa.topology.NodeSet;
import java.lang.foreign.MemorySegment;

/** What a default Docker container allows: the memory-policy calls and move_pages fail with EPERM; mmap, affinity
 *  and getcpu work. */
public class ContainerKernel extends DelegatingKernel {

    public ContainerKernel(NumaKernel real) {
        super(real);
    }

    private static KernelCallException eperm(String call) {
        return new KernelCallException(call, Errno.EPERM, "(test: seccomp)");
    }

    @Override
    public void mbind(MemorySegment segment, int mode, NodeSet nodes, int flags) {
        throw eperm("mbind");
    }

    @Override
    public void setMempolicy(int mode, NodeSet nodes) {
        throw eperm("set_mempolicy");
    }

    @Override
    public RawMemoryPolicy getMempolicy() {
        throw eperm("get_mempolicy");
    }

    @Override
    public NodeSet memsAllowed() {
        throw eperm("get_mempolicy");
    }

    @Override
    public int[] pageNodes(MemorySegment segment) {
        throw eperm("move_pages");
    }
}
