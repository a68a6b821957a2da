package io.numacube.numa.exec;

import io.numacube.numa.kernel.CpuLocation;
import io.numacube.numa.kernel.KernelCallException;
import io.numacube.numa.kernel.NumaKernel;
import java.util.Optional;

/** Where the calling thread runs right now (getcpu). Stateless and thread-safe; the answer may be stale at once
 *  unless the thread is pinned. */
public final class CpuLocator {

    private CpuLocator() {}

    /** The CPU and node of the calling thread; empty without a kernel or when getcpu fails. */
    public static Optional<CpuLocation> current(Optional<NumaKernel> kernel) {
        if (kernel.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(kernel.get().currentCpu());
        } catch (KernelCallException e) {
            return Optional.empty();
        }
    }
}
