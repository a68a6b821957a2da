package io.numacube.numa.topology;

import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the NUMA {@link Topology} from sysfs/procfs under a {@link SystemRoot}.
 *
 * <p>Files read: {@code /sys/devices/system/node/online} (else the {@code nodeN} directories),
 * {@code nodeN/cpulist}, {@code nodeN/meminfo}, {@code nodeN/distance}, {@code /sys/devices/system/cpu/online},
 * {@code present}, {@code possible}, {@code offline}; without {@code /sys/devices/system/node}: {@code /proc/meminfo}.
 *
 * <p>Rules:
 * <ul>
 *   <li>A node's distance file lists its distance to every online node in id order; position i maps to the i-th
 *       online node id (ids may be sparse, e.g. 4-7). A distance file of the wrong length or with garbage is left out
 *       with a note ({@link Topology#distance} then uses the kernel's defaults).</li>
 *   <li>Node CPUs are intersected with the online CPUs. Offline CPUs are the present (else possible) CPUs that are
 *       not online; else the {@code offline} file.</li>
 *   <li>A missing meminfo, or one without MemTotal, makes the node memory-less with a note.</li>
 *   <li>Without {@code /sys/devices/system/node} (kernel without NUMA): one synthetic node 0 with every online CPU
 *       and the {@code /proc/meminfo} totals, {@code numaInSysfs=false}.</li>
 *   <li>A CPU list, node list or memory size that does not parse where the reader cannot do without it (a node's
 *       cpulist, MemTotal, the CPU online list) fails with a {@link NumacubeException} naming the file and the text;
 *       everything else odd is tolerated and written into {@link Topology#notes()}.</li>
 * </ul>
 *
 * <p>Stateless and thread-safe; every call reads the files again.
 */
public final class TopologyReader {

    static final String NODE_DIR = "/sys/devices/system/node";
    static final String CPU_DIR = "/sys/devices/system/cpu";
    private static final Pattern NODE_NAME = Pattern.compile("node(\\d{1,4})");
    private static final Pattern MEMINFO_LINE =
            Pattern.compile("^\\s*(?:Node\\s+\\d+\\s+)?(\\w+):\\s*(\\d{1,19})\\s*(kB)?\\s*$");

    private TopologyReader() {}

    /** Reads the topology under {@code root}. */
    public static Topology read(SystemRoot root) {
        List<String> notes = new ArrayList<>();
        Optional<CpuSet> online = root.readCpuList(CPU_DIR + "/online");
        if (!root.isDirectory(NODE_DIR)) {
            return synthetic(root, online, notes);
        }
        NodeSet nodeIds = onlineNodes(root, notes);
        if (nodeIds.isEmpty()) {
            notes.add(NODE_DIR + " lists no node: treating the machine as one node");
            return synthetic(root, online, notes);
        }
        List<NumaNode> nodes = new ArrayList<>();
        BitSet seenCpus = new BitSet();
        int[] ids = nodeIds.toArray();
        for (int id : ids) {
            String dir = NODE_DIR + "/node" + id;
            CpuSet cpus = root.readCpuList(dir + "/cpulist").orElseGet(() -> {
                notes.add("node " + id + ": " + dir + "/cpulist missing: assuming no CPUs");
                return CpuSet.empty();
            });
            if (online.isPresent()) {
                cpus = cpus.and(online.get());
            }
            BitSet overlap = cpus.toBits();
            overlap.and(seenCpus);
            if (!overlap.isEmpty()) {
                throw new NumacubeException(
                        NumacubeException.Kind.PLATFORM,
                        "a CPU belongs to two nodes: file=" + dir + "/cpulist node=" + id + " cpus="
                                + IdList.format(overlap) + " root=" + root
                                + " — the tree is inconsistent; take a fresh snapshot");
            }
            seenCpus.or(cpus.toBits());
            long[] mem = meminfo(root, dir + "/meminfo", id, notes);
            Map<Integer, Integer> distances = distances(root, dir + "/distance", id, ids, notes);
            nodes.add(new NumaNode(id, cpus, mem[0], mem[1], distances));
        }
        CpuSet onlineCpus = online.orElseGet(() -> {
            notes.add(CPU_DIR + "/online missing: online CPUs are those of the nodes");
            return CpuSet.fromBits(seenCpus);
        });
        CpuSet offline = offlineCpus(root, onlineCpus, notes);
        CpuSet homeless = onlineCpus.andNot(CpuSet.fromBits(seenCpus));
        if (!homeless.isEmpty()) {
            notes.add("online CPUs " + homeless + " belong to no node's cpulist");
        }
        return new Topology(nodes, onlineCpus, offline, true, notes);
    }

    private static NodeSet onlineNodes(SystemRoot root, List<String> notes) {
        String file = NODE_DIR + "/online";
        Optional<String> text = root.read(file);
        if (text.isPresent()) {
            try {
                NodeSet s = NodeSet.parse(text.get());
                if (!s.isEmpty()) {
                    return s;
                }
                notes.add(file + " is empty: using the node directories");
            } catch (NumacubeException e) {
                notes.add(file + " does not parse (text=\"" + SystemRoot.abbreviate(text.get())
                        + "\"): using the node directories");
            }
        } else {
            notes.add(file + " missing: using the node directories");
        }
        BitSet ids = new BitSet();
        for (String name : root.list(NODE_DIR)) {
            Matcher m = NODE_NAME.matcher(name);
            if (m.matches() && root.isDirectory(NODE_DIR + "/" + name)) {
                int id = Integer.parseInt(m.group(1));
                if (id <= NodeSet.MAX_NODE_ID) {
                    ids.set(id);
                }
            }
        }
        return NodeSet.fromBits(ids);
    }

    /** {MemTotal, MemFree} in bytes. */
    private static long[] meminfo(SystemRoot root, String file, int id, List<String> notes) {
        Optional<List<String>> lines = root.readLines(file);
        if (lines.isEmpty()) {
            notes.add("node " + id + ": " + file + " missing: assuming no memory");
            return new long[] {0, 0};
        }
        OptionalLong total = meminfoValue(lines.get(), "MemTotal", file);
        OptionalLong free = meminfoValue(lines.get(), "MemFree", file);
        if (total.isEmpty()) {
            notes.add("node " + id + ": " + file + " has no MemTotal line: assuming no memory");
            return new long[] {0, 0};
        }
        if (free.isEmpty()) {
            notes.add("node " + id + ": " + file + " has no MemFree line: assuming 0 free");
        }
        return new long[] {total.getAsLong(), Math.min(free.orElse(0), total.getAsLong())};
    }

    /**
     * The value of {@code key} in bytes from meminfo lines ({@code Node 0 MemTotal:  123 kB} or
     * {@code MemTotal:  123 kB}); empty when no line has the key; an error naming the file when the line is garbage.
     */
    static OptionalLong meminfoValue(List<String> lines, String key, String file) {
        for (String line : lines) {
            String t = line.strip();
            int colon = t.indexOf(':');
            if (colon < 0 || !t.substring(0, colon).strip().matches("(Node\\s+\\d+\\s+)?" + key)) {
                continue;
            }
            Matcher m = MEMINFO_LINE.matcher(t);
            if (!m.matches()) {
                throw badMeminfo(file, line, "expected \"" + key + ": <number> kB\"");
            }
            long v;
            try {
                v = Long.parseLong(m.group(2));
            } catch (NumberFormatException e) {
                throw badMeminfo(file, line, "number too large");
            }
            long unit = m.group(3) != null ? 1024 : 1;
            if (v > Long.MAX_VALUE / unit) {
                throw badMeminfo(file, line, "number too large");
            }
            return OptionalLong.of(v * unit);
        }
        return OptionalLong.empty();
    }

    private static NumacubeException badMeminfo(String file, String line, String rule) {
        return new NumacubeException(
                NumacubeException.Kind.PLATFORM,
                "unreadable meminfo line: " + rule + ": file=" + file + " line=\"" + SystemRoot.abbreviate(line)
                        + "\" — check the file; a snapshot may be damaged");
    }

    private static Map<Integer, Integer> distances(
            SystemRoot root, String file, int id, int[] ids, List<String> notes) {
        Optional<String> text = root.read(file);
        Map<Integer, Integer> out = new TreeMap<>();
        if (text.isEmpty()) {
            notes.add("node " + id + ": " + file + " missing: distances unknown (defaults 10/20)");
            return out;
        }
        String[] parts = text.get().isEmpty() ? new String[0] : text.get().split("\\s+");
        if (parts.length != ids.length) {
            notes.add("node " + id + ": " + file + " has " + parts.length + " distances for " + ids.length
                    + " online nodes (text=\"" + SystemRoot.abbreviate(text.get()) + "\"): distances unknown");
            return out;
        }
        for (int i = 0; i < parts.length; i++) {
            int d;
            try {
                d = parts[i].length() > 4 ? -1 : Integer.parseInt(parts[i]);
            } catch (NumberFormatException e) {
                d = -1;
            }
            if (d <= 0) {
                notes.add("node " + id + ": " + file + " has a bad distance \"" + SystemRoot.abbreviate(parts[i])
                        + "\" (text=\"" + SystemRoot.abbreviate(text.get()) + "\"): distances unknown");
                return new TreeMap<>();
            }
            out.put(ids[i], d);
        }
        return out;
    }

    private static CpuSet offlineCpus(SystemRoot root, CpuSet online, List<String> notes) {
        Optional<CpuSet> present = root.readCpuList(CPU_DIR + "/present");
        Optional<CpuSet> offlineFile = root.readCpuList(CPU_DIR + "/offline");
        CpuSet offline;
        if (present.isPresent()) {
            offline = present.get().andNot(online);
        } else if (offlineFile.isPresent()) {
            offline = offlineFile.get();
        } else {
            offline = root.readCpuList(CPU_DIR + "/possible")
                    .map(p -> p.andNot(online))
                    .orElse(CpuSet.empty());
        }
        if (!offline.isEmpty()) {
            notes.add("CPUs " + offline + " are present but offline");
        }
        return offline;
    }

    private static Topology synthetic(SystemRoot root, Optional<CpuSet> online, List<String> notes) {
        CpuSet cpus = online.orElseGet(() -> {
            int n = Runtime.getRuntime().availableProcessors();
            notes.add(CPU_DIR + "/online missing: assuming CPUs 0-" + (n - 1) + " (availableProcessors)");
            return n == 1 ? CpuSet.of(0) : CpuSet.parse("0-" + (n - 1));
        });
        List<String> lines = root.readLines("/proc/meminfo").orElse(List.of());
        long total = meminfoValue(lines, "MemTotal", "/proc/meminfo").orElse(0);
        long free = Math.min(meminfoValue(lines, "MemFree", "/proc/meminfo").orElse(0), total);
        if (total == 0) {
            notes.add("/proc/meminfo gives no MemTotal: memory size unknown (0)");
        }
        if (!root.isDirectory(NODE_DIR)) {
            notes.add(NODE_DIR + " missing (kernel without NUMA, or not Linux): one synthetic node 0");
        }
        NumaNode node = new NumaNode(0, cpus, total, free, Map.of(0, 10));
        return new Topology(List.of(node), cpus, offlineCpus(root, cpus, notes), false, notes);
    }
}
