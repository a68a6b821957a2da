package io.numacube.numa.binding;

import io.numacube.numa.topology.SystemRoot;
import java.util.Optional;

/**
 * Reads this process's cgroup memory limit ({@link CgroupMemoryLimit}) under a {@link SystemRoot}: the live machine
 * or a snapshot. v1 ({@code N:memory:/path}, {@code /sys/fs/cgroup/memory/...}) is preferred when both are listed,
 * as {@link ProcessBindingReader} does for the cpuset. Each directory from the cgroup up to the root is read and the
 * smallest limit wins; "max" (v2) and v1's page-rounded 2^63 mean no limit. Inside a cgroup namespace the listed path
 * may not exist under /sys/fs/cgroup: its ancestors, and the root, are still read. Stateless.
 */
public final class CgroupMemoryLimitReader {

    /** v1 writes 2^63 rounded down to the page size for "no limit"; anything from 2^62 up is no limit. */
    private static final long V1_UNLIMITED = 1L << 62;

    private CgroupMemoryLimitReader() {}

    /** The limit, or empty when no cgroup sets one (or /proc/self/cgroup is missing). */
    public static Optional<CgroupMemoryLimit> read(SystemRoot root) {
        Optional<ProcCgroups> cgroups = ProcCgroups.read(root);
        if (cgroups.isEmpty()) {
            return Optional.empty();
        }
        for (String path : cgroups.get().v1Paths("memory")) {
            Optional<CgroupMemoryLimit> v1 =
                    tightest(root, 1, path, "/sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes");
            if (v1.isPresent()) {
                return v1;
            }
        }
        String v2Path = cgroups.get().v2Path();
        return v2Path == null
                ? Optional.empty()
                : tightest(root, 2, v2Path, "/sys/fs/cgroup", "memory.max", "memory.current");
    }

    private static Optional<CgroupMemoryLimit> tightest(
            SystemRoot root, int version, String path, String base, String limitFile, String usageFile) {
        if (!ProcCgroups.walkable(path)) {
            return Optional.empty();
        }
        CgroupMemoryLimit best = null;
        for (String p = path; p != null; p = ProcCgroups.parent(p)) {
            String dir = p.equals("/") ? base : base + p;
            Optional<Long> limit = root.read(dir + "/" + limitFile).flatMap(t -> bytes(t, version));
            if (limit.isPresent() && (best == null || limit.get() < best.limitBytes())) {
                long usage = root.read(dir + "/" + usageFile)
                        .flatMap(t -> bytes(t, version))
                        .orElse(-1L);
                best = new CgroupMemoryLimit(version, p, limit.get(), usage, dir + "/" + limitFile);
            }
        }
        return Optional.ofNullable(best);
    }

    /** A byte count; empty for "max", v1's no-limit value, or text that is not a count. */
    private static Optional<Long> bytes(String text, int version) {
        String t = text.strip();
        if (t.equals("max")) {
            return Optional.empty();
        }
        try {
            long v = Long.parseLong(t);
            return v < 0 || (version == 1 && v >= V1_UNLIMITED) ? Optional.empty() : Optional.of(v);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
