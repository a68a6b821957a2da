package io.numacube.numa.memory;

import io.numacube.numa.kernel.Errno;
import io.numacube.numa.kernel.KernelCallException;
import io.numacube.numa.kernel.MemPolicyConstants;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.kernel.NumaKernels;
import io.numacube.numa.kernel.RawMemoryPolicy;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Finds out which NUMA calls work in this process by trying each once, harmlessly: mbind(MPOL_BIND) of a private
 * test mapping to an allowed node, get_mempolicy of the calling thread and set_mempolicy back to that same policy,
 * move_pages on one written page of the test mapping, sched_getaffinity and sched_setaffinity to the same mask.
 * Nothing of the process's state is changed. Failures are recorded with their errno and what numacube does instead.
 *
 * <p>Thread-safe. {@link #probe(Optional)} is a pure function of the kernel's answers (tests pass fakes);
 * {@link #current()} probes this process once and caches the answer.
 */
public final class PolicyProbe {

    private static final class Holder {
        static final PolicySupport CURRENT = probe(NumaKernels.load(), NumaKernels.unavailableReason());
    }

    private PolicyProbe() {}

    /** This process's support, probed on first use with {@link NumaKernels#load()}. */
    public static PolicySupport current() {
        return Holder.CURRENT;
    }

    /** Probes {@code kernel}; empty means no native access. */
    public static PolicySupport probe(Optional<NumaKernel> kernel) {
        return probe(kernel, Optional.empty());
    }

    private static PolicySupport probe(Optional<NumaKernel> kernel, Optional<String> whyNone) {
        if (kernel.isEmpty()) {
            return PolicySupport.none(whyNone.orElse("no native access"));
        }
        NumaKernel k = kernel.get();
        Map<String, String> refusals = new LinkedHashMap<>();

        boolean getMempolicy = true;
        int node = 0;
        RawMemoryPolicy threadPolicy = null;
        try {
            threadPolicy = k.getMempolicy();
            NodeSet allowed = k.memsAllowed();
            if (!allowed.isEmpty()) {
                node = allowed.stream().findFirst().getAsInt();
            }
        } catch (RuntimeException e) {
            getMempolicy = false;
            refusals.put(
                    "get_mempolicy",
                    reason(
                            e,
                            "the thread's policy cannot be read (the JVM's UseNUMA is off " + "for the same reason)"));
        }

        boolean setMempolicy = probeSetMempolicy(k, threadPolicy, refusals);
        MappingSupport mapping = probeMapping(k, node, refusals);
        boolean affinity = probeAffinity(k, refusals);
        return new PolicySupport(
                true, mapping.mbind(), setMempolicy, getMempolicy, mapping.movePages(), affinity, refusals);
    }

    /** What the one-page test mapping showed: whether mbind placed it and move_pages reported its node. */
    private record MappingSupport(boolean mbind, boolean movePages) {}

    /** Sets the thread's policy back to {@code threadPolicy}, as read by get_mempolicy (null: it could not be). */
    private static boolean probeSetMempolicy(NumaKernel k, RawMemoryPolicy threadPolicy, Map<String, String> refusals) {
        if (threadPolicy == null) {
            refusals.put(
                    "set_mempolicy",
                    "not tried: get_mempolicy failed, so the thread's policy could not be " + "restored");
            return false;
        }
        try {
            k.setMempolicy(threadPolicy.mode() | threadPolicy.modeFlags(), threadPolicy.nodes());
            return true;
        } catch (RuntimeException e) {
            refusals.put("set_mempolicy", reason(e, "thread memory policies are not used"));
            return false;
        }
    }

    /** Maps one private page, binds it to {@code node}, writes it, asks where it is, and unmaps it. */
    private static MappingSupport probeMapping(NumaKernel k, int node, Map<String, String> refusals) {
        boolean mbind = false;
        boolean movePages = false;
        MemorySegment region = null;
        try {
            region = k.mmapAnonymous(k.pageSizeBytes());
        } catch (RuntimeException e) {
            refusals.put("mmap", reason(e, "no placed memory at all; allocation falls back to the Java heap arena"));
        }
        if (region != null) {
            try {
                try {
                    k.mbind(region, MemPolicyConstants.MPOL_BIND, NodeSet.of(node), 0);
                    mbind = true;
                } catch (RuntimeException e) {
                    refusals.put("mbind", reason(e, "placement falls back to first touch"));
                }
                region.set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
                movePages = probeMovePages(k, region, refusals);
            } finally {
                try {
                    k.munmap(region);
                } catch (RuntimeException e) {
                    refusals.put("munmap", reason(e, "the probe's one-page test mapping stays mapped"));
                }
            }
        }
        return new MappingSupport(mbind, movePages);
    }

    /** Whether move_pages reports the node of the written page in {@code region}. */
    private static boolean probeMovePages(NumaKernel k, MemorySegment region, Map<String, String> refusals) {
        try {
            int[] where = k.pageNodes(region);
            boolean movePages = where.length == 1 && where[0] >= 0;
            if (!movePages) {
                refusals.put(
                        "move_pages",
                        "move_pages: a written page was reported as status="
                                + (where.length == 0 ? "none" : where[0])
                                + "; page placement is read from /proc/self/numa_maps");
            }
            return movePages;
        } catch (RuntimeException e) {
            refusals.put("move_pages", reason(e, "page placement is read from /proc/self/numa_maps"));
            return false;
        }
    }

    /** Reads the thread's CPU mask and sets it back unchanged. */
    private static boolean probeAffinity(NumaKernel k, Map<String, String> refusals) {
        try {
            CpuSet mask = k.threadAffinity();
            try {
                k.setThreadAffinity(mask);
                return true;
            } catch (RuntimeException e) {
                refusals.put(
                        "sched_setaffinity",
                        reason(e, "threads cannot be pinned, so first touch cannot " + "place memory"));
            }
        } catch (RuntimeException e) {
            refusals.put(
                    "sched_getaffinity", reason(e, "threads cannot be pinned, so first touch cannot place memory"));
        }
        return false;
    }

    /** A readable reason: the call, errno, the likely cause, and what numacube does instead. */
    static String reason(RuntimeException e, String instead) {
        if (e instanceof KernelCallException k) {
            return k.call() + ": errno=" + k.errnoName() + "(" + k.errno() + ")" + cause(k) + "; " + instead;
        }
        return "error: " + e + "; " + instead;
    }

    private static String cause(KernelCallException k) {
        return switch (k.errno()) {
            case Errno.EPERM -> " — seccomp or missing CAP_SYS_NICE (a default Docker container)";
            case Errno.ENOSYS -> " — the kernel has no NUMA support (CONFIG_NUMA off) or the call is filtered";
            case Errno.EINVAL -> " — the kernel rejected the arguments (unsupported mode or node)";
            default -> "";
        };
    }
}
