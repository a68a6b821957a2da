package io.numacube.numa.topology;

import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Saves the sysfs/procfs files that {@link TopologyReader} and the process binding reader use into a directory,
 * keeping their absolute layout ({@code dir/sys/devices/system/node/node0/cpulist}), so that
 * {@code TopologyReader.read(SystemRoot.at(dir))} reproduces the machine elsewhere (bug reports, tests).
 *
 * <p>Copied when present: {@code /sys/devices/system/node/{online,possible,has_cpu,has_memory,has_normal_memory}},
 * each {@code nodeN/{cpulist,meminfo,distance,numastat}}, {@code /sys/devices/system/cpu/{online,offline,possible,present}},
 * {@code /proc/self/status}, {@code /proc/self/cgroup}, {@code /proc/sys/kernel/numa_balancing}, {@code /proc/meminfo},
 * and the cpuset files of every cgroup named in {@code /proc/self/cgroup} and its ancestors (v1 and v2). Missing files
 * are skipped. A marker {@value #MARKER} records host, time and kernel.
 *
 * <p>Stateless and thread-safe. Note that {@code /proc/self} is the process that saves the snapshot.
 */
public final class SnapshotWriter {

    /** The marker file written at the top of every snapshot. */
    public static final String MARKER = "numacube-snapshot.txt";

    private static final List<String> NODE_FILES =
            List.of("online", "possible", "has_cpu", "has_memory", "has_normal_memory");
    private static final List<String> PER_NODE_FILES = List.of("cpulist", "meminfo", "distance", "numastat");
    private static final List<String> CPU_FILES = List.of("online", "offline", "possible", "present");
    private static final List<String> PROC_FILES =
            List.of("/proc/self/status", "/proc/self/cgroup", "/proc/sys/kernel/numa_balancing", "/proc/meminfo");
    private static final List<String> CPUSET_FILES = List.of(
            "cpuset.cpus.effective",
            "cpuset.mems.effective",
            "cpuset.cpus",
            "cpuset.mems",
            "cpuset.effective_cpus",
            "cpuset.effective_mems");

    private SnapshotWriter() {}

    /**
     * Copies the files from {@code from} into {@code dir} (created if needed) and writes the marker.
     *
     * @return the absolute paths copied, in copy order
     * @throws NumacubeException (PLATFORM) when {@code dir} cannot be written, naming it
     */
    public static List<String> save(SystemRoot from, Path dir) {
        Set<String> wanted = new LinkedHashSet<>();
        for (String f : NODE_FILES) {
            wanted.add(TopologyReader.NODE_DIR + "/" + f);
        }
        for (String name : from.list(TopologyReader.NODE_DIR)) {
            if (name.matches("node\\d+")) {
                for (String f : PER_NODE_FILES) {
                    wanted.add(TopologyReader.NODE_DIR + "/" + name + "/" + f);
                }
            }
        }
        for (String f : CPU_FILES) {
            wanted.add(TopologyReader.CPU_DIR + "/" + f);
        }
        wanted.addAll(PROC_FILES);
        wanted.addAll(cpusetFiles(from));
        List<String> copied = new ArrayList<>();
        for (String path : wanted) {
            Optional<String> text = from.readRaw(path);
            if (text.isPresent()) {
                write(dir, path, text.get());
                copied.add(path);
            }
        }
        String marker = "numacube snapshot\n"
                + "host="
                + from.read("/proc/sys/kernel/hostname").orElse(System.getenv().getOrDefault("HOSTNAME", "unknown"))
                + "\n"
                + "date=" + Instant.now() + "\n"
                + "kernel=" + from.read("/proc/sys/kernel/osrelease").orElse("unknown") + "\n"
                + "source=" + from + "\n"
                + "files=" + copied.size() + "\n";
        write(dir, "/" + MARKER, marker);
        return copied;
    }

    /** The cpuset files of each cgroup in /proc/self/cgroup and of its ancestors, v2 and v1 layouts. */
    private static List<String> cpusetFiles(SystemRoot from) {
        List<String> out = new ArrayList<>();
        for (String line : from.readLines("/proc/self/cgroup").orElse(List.of())) {
            String[] f = line.split(":", 3);
            if (f.length != 3 || !f[2].startsWith("/") || f[2].contains("..")) {
                continue;
            }
            List<String> bases = new ArrayList<>();
            if (f[0].equals("0") && f[1].isEmpty()) {
                bases.add("/sys/fs/cgroup");
                bases.add("/sys/fs/cgroup/unified");
            } else if (List.of(f[1].split(",")).contains("cpuset")) {
                bases.add("/sys/fs/cgroup/cpuset");
            }
            for (String base : bases) {
                for (String p = f[2]; p != null; p = parent(p)) {
                    String d = p.equals("/") ? base : base + p;
                    for (String file : CPUSET_FILES) {
                        out.add(d + "/" + file);
                    }
                }
            }
        }
        return out;
    }

    static String parent(String cgroupPath) {
        if (cgroupPath.equals("/") || cgroupPath.isEmpty()) {
            return null;
        }
        int slash = cgroupPath.lastIndexOf('/');
        return slash <= 0 ? "/" : cgroupPath.substring(0, slash);
    }

    private static void write(Path dir, String absolutePath, String text) {
        Path target = SystemRoot.at(dir).resolve(absolutePath);
        if (!target.normalize().startsWith(dir.toAbsolutePath().normalize())) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "snapshot path escapes the snapshot directory: path=" + absolutePath + " dir=" + dir);
        }
        try {
            Files.createDirectories(target.getParent());
            Files.writeString(target, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.PLATFORM,
                    "cannot write snapshot file: file=" + target + " error=" + e + " — choose a writable directory",
                    e);
        }
    }
}
