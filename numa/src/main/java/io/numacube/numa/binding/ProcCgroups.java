package io.numacube.numa.binding;

import io.numacube.numa.topology.SystemRoot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * This process's cgroup membership, parsed from {@code /proc/self/cgroup}: a v1 line {@code N:controller[,...]:/path}
 * per mounted v1 hierarchy, and the v2 line {@code 0::/path}. Malformed lines are skipped. The readers of the cpuset
 * ({@link ProcessBindingReader}) and the memory limit ({@link CgroupMemoryLimitReader}) share it, and both prefer v1
 * when a controller is listed there. Immutable.
 *
 * @param v1     each v1 line's controllers and path, in file order
 * @param v2Path the v2 path, or null when the process is in no v2 hierarchy
 */
record ProcCgroups(List<V1Line> v1, String v2Path) {

    /** One v1 hierarchy line. */
    record V1Line(List<String> controllers, String path) {}

    /** Parses {@code /proc/self/cgroup} under {@code root}; empty when the file is missing. */
    static Optional<ProcCgroups> read(SystemRoot root) {
        return root.readLines("/proc/self/cgroup").map(ProcCgroups::parse);
    }

    static ProcCgroups parse(List<String> lines) {
        List<V1Line> v1 = new ArrayList<>();
        String v2 = null;
        for (String line : lines) {
            String[] f = line.strip().split(":", 3);
            if (f.length != 3) {
                continue;
            }
            if (f[0].equals("0") && f[1].isEmpty()) {
                v2 = f[2];
            } else {
                v1.add(new V1Line(List.of(f[1].split(",")), f[2]));
            }
        }
        return new ProcCgroups(List.copyOf(v1), v2);
    }

    /** The paths of the v1 lines that list {@code controller}, in file order. */
    List<String> v1Paths(String controller) {
        return v1.stream()
                .filter(l -> l.controllers().contains(controller))
                .map(V1Line::path)
                .toList();
    }

    /**
     * Whether a listed path can be walked under {@code /sys/fs/cgroup}: absolute and without {@code ..} (a path
     * outside this cgroup namespace is listed relative to it, as {@code /../x}).
     */
    static boolean walkable(String path) {
        return path.startsWith("/") && !path.contains("..");
    }

    /** The parent cgroup path; null above the root. */
    static String parent(String cgroupPath) {
        if (cgroupPath.equals("/") || cgroupPath.isEmpty()) {
            return null;
        }
        int slash = cgroupPath.lastIndexOf('/');
        return slash <= 0 ? "/" : cgroupPath.substring(0, slash);
    }
}
