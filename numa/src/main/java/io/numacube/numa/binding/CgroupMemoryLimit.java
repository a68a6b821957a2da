package io.numacube.numa.binding;

/**
 * The memory limit of this process's cgroup (v1 or v2): the tightest limit on the way from its cgroup up to the root
 * of the hierarchy, and what the cgroup uses now. Beyond the limit the kernel's OOM killer ends the process without a
 * word (exit status 137), so a large load checks against it first. Immutable.
 *
 * @param version    1 or 2
 * @param path       the cgroup path, as in /proc/self/cgroup (e.g. {@code /docker/abc})
 * @param limitBytes the tightest limit in bytes ({@code memory.max} in v2, {@code memory.limit_in_bytes} in v1)
 * @param usageBytes what the cgroup used when read ({@code memory.current}, {@code memory.usage_in_bytes}); -1 when
 *                   unknown
 * @param file       the file the limit was read from, for messages
 */
public record CgroupMemoryLimit(int version, String path, long limitBytes, long usageBytes, String file) {

    public CgroupMemoryLimit {
        if (limitBytes < 0) {
            throw new IllegalArgumentException("a cgroup memory limit is not negative: limitBytes=" + limitBytes);
        }
    }

    /** The bytes the cgroup may still take: the limit less the usage (the limit when the usage is unknown). */
    public long availableBytes() {
        return usageBytes < 0 ? limitBytes : Math.max(0, limitBytes - usageBytes);
    }
}
