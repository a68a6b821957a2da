package io.numacube.numa.binding;

import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.kernel.KernelCallException;
import io.numacube.numa.kernel.MemPolicyConstants;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.kernel.RawMemoryPolicy;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.IdSet;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.SystemRoot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads where this process may run and allocate ({@link ProcessBinding}) from the kernel and from procfs/sysfs.
 *
 * <p>Sources, in order of preference:
 * <ul>
 *   <li>allowed CPUs: {@link NumaKernel#threadAffinity()} (the calling thread), else {@code Cpus_allowed_list} of
 *       {@code /proc/thread-self/status} (live) or {@code /proc/self/status}, else its {@code Cpus_allowed} mask,
 *       else {@code /sys/devices/system/cpu/online};</li>
 *   <li>allowed memory nodes: {@link NumaKernel#memsAllowed()}, else {@code Mems_allowed_list}, else
 *       {@code Mems_allowed}, else {@code /sys/devices/system/node/online}, else node 0;</li>
 *   <li>memory policy: {@link NumaKernel#getMempolicy()}; {@link MemoryPolicy#unknown()} when there is no kernel
 *       access or the call is refused (EPERM under a container's seccomp profile);</li>
 *   <li>cgroup cpuset: {@code /proc/self/cgroup}; a v1 line {@code N:cpuset[,...]:/path} reads
 *       {@code /sys/fs/cgroup/cpuset/<path>/cpuset.effective_{cpus,mems}} (else {@code cpuset.{cpus,mems}}); the v2
 *       line {@code 0::/path} reads {@code /sys/fs/cgroup/<path>/cpuset.{cpus,mems}.effective}, walking up to the
 *       nearest ancestor that has them; absent when neither has the cpuset files (controller off);</li>
 *   <li>automatic balancing: {@code /proc/sys/kernel/numa_balancing}: 0 OFF, 1 ON, 2 (or 3, both bits) MEMORY_TIERING,
 *       missing or anything else UNKNOWN.</li>
 * </ul>
 * The kernel is asked only when the root is live: a snapshot describes another machine, so its files are used.
 * Every fact gets a note saying how it was read.
 *
 * <p>Stateless and thread-safe. Thread affinity and memory policy are per thread: the answer is the calling
 * thread's.
 */
public final class ProcessBindingReader {

    private ProcessBindingReader() {}

    /** Reads the binding under {@code root}, asking {@code kernel} when present and the root is live. */
    public static ProcessBinding read(SystemRoot root, Optional<NumaKernel> kernel) {
        List<String> notes = new ArrayList<>();
        Optional<NumaKernel> k = kernel.filter(x -> root.isLive());
        if (kernel.isPresent() && !root.isLive()) {
            notes.add("kernel not asked: " + root + " is a snapshot of another machine; facts from its files");
        }
        String status = statusFile(root);
        CpuSet cpus = allowedCpus(root, k, status, notes);
        NodeSet mems = allowedMems(root, k, status, notes);
        MemoryPolicy policy = policy(root, k, notes);
        Optional<CgroupCpuset> cpuset = cpuset(root, notes);
        if (cpuset.isPresent()) {
            cpus = within(cpus, cpuset.get().cpus(), "CPUs", notes);
            mems = within(mems, cpuset.get().mems(), "memory nodes", notes);
        }
        NumaBalancing balancing = balancing(root, notes);
        return new ProcessBinding(cpus, mems, policy, cpuset, balancing, notes);
    }

    /**
     * {@code allowed} narrowed to what the cgroup's cpuset allows: the kernel writes a cpuset's new CPUs or nodes
     * before it updates each thread's, so a read in between saw the old, wider set beside the new cpuset (a watcher
     * then planned workers on a CPU just taken away). A set the cpuset does not intersect is kept as read.
     */
    private static <S extends IdSet<S>> S within(S allowed, S cgroup, String what, List<String> notes) {
        S both = allowed.and(cgroup);
        if (both.isEmpty() || both.equals(allowed)) {
            return allowed;
        }
        notes.add("allowed " + what + " " + allowed.toList() + " narrowed to " + both.toList()
                + ", the cgroup cpuset's " + cgroup.toList()
                + " (the kernel had not yet updated this thread after a change of the cpuset)");
        return both;
    }

    private static String statusFile(SystemRoot root) {
        return root.isLive() && root.exists("/proc/thread-self/status")
                ? "/proc/thread-self/status"
                : "/proc/self/status";
    }

    private static CpuSet allowedCpus(SystemRoot root, Optional<NumaKernel> kernel, String status, List<String> notes) {
        if (kernel.isPresent()) {
            try {
                CpuSet cpus = kernel.get().threadAffinity();
                notes.add("allowed CPUs " + cpus + " from sched_getaffinity (this thread)");
                return cpus;
            } catch (KernelCallException e) {
                notes.add("sched_getaffinity refused (" + e.getMessage() + "): reading " + status);
            }
        }
        Optional<CpuSet> fromStatus = statusField(
                root, status, "Cpus_allowed_list", "Cpus_allowed", "cpu", CpuSet::parse, CpuSet::parseHexMask);
        if (fromStatus.isPresent()) {
            notes.add("allowed CPUs " + fromStatus.get() + " from " + status);
            return fromStatus.get();
        }
        Optional<CpuSet> online = root.readCpuList("/sys/devices/system/cpu/online");
        if (online.isPresent()) {
            notes.add("allowed CPUs " + online.get() + ": " + status + " has none, assuming every online CPU");
            return online.get();
        }
        int n = Runtime.getRuntime().availableProcessors();
        CpuSet all = n == 1 ? CpuSet.of(0) : CpuSet.parse("0-" + (n - 1));
        notes.add("allowed CPUs " + all + ": no status or cpu/online file, assuming availableProcessors=" + n);
        return all;
    }

    private static NodeSet allowedMems(
            SystemRoot root, Optional<NumaKernel> kernel, String status, List<String> notes) {
        if (kernel.isPresent()) {
            try {
                NodeSet mems = kernel.get().memsAllowed();
                notes.add("allowed memory nodes " + mems + " from get_mempolicy(MPOL_F_MEMS_ALLOWED)");
                return mems;
            } catch (KernelCallException e) {
                notes.add("get_mempolicy(MPOL_F_MEMS_ALLOWED) refused (" + e.getMessage() + "): reading " + status);
            }
        }
        Optional<NodeSet> fromStatus = statusField(
                root, status, "Mems_allowed_list", "Mems_allowed", "node", NodeSet::parse, NodeSet::parseHexMask);
        if (fromStatus.isPresent()) {
            notes.add("allowed memory nodes " + fromStatus.get() + " from " + status);
            return fromStatus.get();
        }
        Optional<NodeSet> online = readNodeListTolerant(root, "/sys/devices/system/node/online", notes);
        if (online.isPresent() && !online.get().isEmpty()) {
            notes.add("allowed memory nodes " + online.get() + ": " + status + " has none, assuming every online node");
            return online.get();
        }
        notes.add("allowed memory nodes 0: no status or node/online file, assuming node 0");
        return NodeSet.of(0);
    }

    /**
     * A list field of a status file ({@code listKey}), else its hex mask ({@code maskKey}) parsed by {@code mask};
     * empty when neither is there. Garbage fails with an error naming the file, field and text.
     */
    private static <T> Optional<T> statusField(
            SystemRoot root,
            String file,
            String listKey,
            String maskKey,
            String what,
            Function<String, T> list,
            Function<String, T> mask) {
        List<String> lines = root.readLines(file).orElse(List.of());
        Optional<String> listText = field(lines, listKey);
        if (listText.isPresent()) {
            return Optional.of(root.parseList(file + " " + listKey, listText.get(), what, list));
        }
        Optional<String> maskText = field(lines, maskKey);
        if (maskText.isPresent()) {
            return Optional.of(root.parseList(file + " " + maskKey, maskText.get(), what + " mask", mask));
        }
        return Optional.empty();
    }

    static Optional<String> field(List<String> lines, String key) {
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().equals(key)) {
                return Optional.of(line.substring(colon + 1).strip());
            }
        }
        return Optional.empty();
    }

    private static MemoryPolicy policy(SystemRoot root, Optional<NumaKernel> kernel, List<String> notes) {
        if (kernel.isEmpty()) {
            notes.add("memory policy unknown: "
                    + (root.isLive() ? "no native kernel access" : "a snapshot holds no thread policy")
                    + " (get_mempolicy not called)");
            return MemoryPolicy.unknown();
        }
        try {
            RawMemoryPolicy raw = kernel.get().getMempolicy();
            MemoryPolicy.Mode mode = MemoryPolicy.Mode.ofKernelNumber(raw.mode());
            boolean stat = (raw.modeFlags() & MemPolicyConstants.MPOL_F_STATIC_NODES) != 0;
            boolean rel = (raw.modeFlags() & MemPolicyConstants.MPOL_F_RELATIVE_NODES) != 0;
            MemoryPolicy p = new MemoryPolicy(mode, raw.nodes(), stat, rel);
            if (mode == MemoryPolicy.Mode.UNKNOWN) {
                notes.add("memory policy mode " + raw.mode() + " from get_mempolicy is not one numacube knows");
            } else {
                notes.add("memory policy " + p + " from get_mempolicy (this thread)");
            }
            return p;
        } catch (KernelCallException e) {
            notes.add("memory policy unknown: " + e.call() + " refused with errno=" + e.errnoName() + "(" + e.errno()
                    + ")" + (e.isRefusal() ? " — a seccomp filter or missing CAP_SYS_NICE?" : ""));
            return MemoryPolicy.unknown();
        }
    }

    private static Optional<CgroupCpuset> cpuset(SystemRoot root, List<String> notes) {
        Optional<ProcCgroups> cgroups = ProcCgroups.read(root);
        if (cgroups.isEmpty()) {
            notes.add("cgroup cpuset: /proc/self/cgroup missing: no cpuset");
            return Optional.empty();
        }
        for (String path : cgroups.get().v1Paths("cpuset")) {
            Optional<CgroupCpuset> v1 = readCpuset(
                    root,
                    1,
                    path,
                    "/sys/fs/cgroup/cpuset",
                    List.of("cpuset.effective_cpus", "cpuset.cpus"),
                    List.of("cpuset.effective_mems", "cpuset.mems"),
                    notes);
            if (v1.isPresent()) {
                return v1;
            }
        }
        String v2Path = cgroups.get().v2Path();
        if (v2Path != null) {
            Optional<CgroupCpuset> v2 = readCpuset(
                    root,
                    2,
                    v2Path,
                    "/sys/fs/cgroup",
                    List.of("cpuset.cpus.effective"),
                    List.of("cpuset.mems.effective"),
                    notes);
            if (v2.isPresent()) {
                return v2;
            }
        }
        notes.add("cgroup cpuset: no cpuset files for this process's cgroup (controller off): no cpuset");
        return Optional.empty();
    }

    /** Walks from the cgroup up to the root of the hierarchy until a directory has both files. */
    private static Optional<CgroupCpuset> readCpuset(
            SystemRoot root,
            int version,
            String path,
            String base,
            List<String> cpuFiles,
            List<String> memFiles,
            List<String> notes) {
        if (!ProcCgroups.walkable(path)) {
            notes.add("cgroup cpuset: v" + version + " path \"" + SystemRoot.abbreviate(path)
                    + "\" lies outside this namespace's hierarchy: skipped");
            return Optional.empty();
        }
        for (String p = path; p != null; p = ProcCgroups.parent(p)) {
            String dir = p.equals("/") ? base : base + p;
            Optional<String> cpuFile = cpuFiles.stream()
                    .map(f -> dir + "/" + f)
                    .filter(root::exists)
                    .findFirst();
            Optional<String> memFile = memFiles.stream()
                    .map(f -> dir + "/" + f)
                    .filter(root::exists)
                    .findFirst();
            if (cpuFile.isPresent() && memFile.isPresent()) {
                Optional<CpuSet> cpus = root.readCpuList(cpuFile.get());
                Optional<NodeSet> mems = root.readNodeList(memFile.get());
                if (cpus.isPresent() && mems.isPresent()) {
                    notes.add("cgroup v" + version + " cpuset " + path + ": cpus=" + cpus.get() + " mems=" + mems.get()
                            + " from " + cpuFile.get() + ", " + memFile.get());
                    return Optional.of(new CgroupCpuset(version, path, cpus.get(), mems.get()));
                }
            }
        }
        return Optional.empty();
    }

    private static NumaBalancing balancing(SystemRoot root, List<String> notes) {
        String file = "/proc/sys/kernel/numa_balancing";
        Optional<String> text = root.read(file);
        NumaBalancing b = switch (text.orElse("")) {
            case "0" -> NumaBalancing.OFF;
            case "1" -> NumaBalancing.ON;
            case "2", "3" -> NumaBalancing.MEMORY_TIERING;
            default -> NumaBalancing.UNKNOWN;
        };
        if (text.isEmpty()) {
            notes.add("automatic NUMA balancing unknown: " + file + " missing");
        } else if (b == NumaBalancing.UNKNOWN) {
            notes.add("automatic NUMA balancing unknown: " + file + " text=\"" + SystemRoot.abbreviate(text.get())
                    + "\" is not 0, 1 or 2");
        } else {
            notes.add("automatic NUMA balancing " + b + " from " + file);
        }
        return b;
    }

    private static Optional<NodeSet> readNodeListTolerant(SystemRoot root, String file, List<String> notes) {
        try {
            return root.readNodeList(file);
        } catch (NumacubeException e) {
            notes.add(e.getMessage());
            return Optional.empty();
        }
    }
}
