package io.numacube.numa.memory;

import java.util.Map;

/**
 * Which NUMA calls work in this process, found by trying them once (a seccomp filter or a missing capability makes
 * them fail with EPERM; old kernels with ENOSYS). Immutable.
 *
 * @param nativeAccess whether any native call is possible at all (false: pure-Java fallback)
 * @param mbind        mbind works: BIND, PREFERRED and INTERLEAVE placement are available
 * @param setMempolicy set_mempolicy works
 * @param getMempolicy get_mempolicy works
 * @param movePages    move_pages works for reading where pages are (else /proc/self/numa_maps is used)
 * @param affinity     sched_setaffinity works: threads can be pinned, so first touch can place memory
 * @param refusals     for each call that failed: the call name to a readable reason with errno
 */
public record PolicySupport(
        boolean nativeAccess,
        boolean mbind,
        boolean setMempolicy,
        boolean getMempolicy,
        boolean movePages,
        boolean affinity,
        Map<String, String> refusals) {

    public PolicySupport {
        refusals = Map.copyOf(refusals);
    }

    /** No native access: nothing can be placed, threads cannot be pinned. */
    public static PolicySupport none(String reason) {
        return new PolicySupport(false, false, false, false, false, false, Map.of("native", reason));
    }
}
