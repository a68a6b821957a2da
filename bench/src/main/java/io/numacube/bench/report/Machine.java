package io.numacube.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The machine and JVM a run was taken on, so that a figure can be reproduced or discounted. Immutable.
 *
 * @param cpuModel     "model name" of /proc/cpuinfo ("unknown" when unreadable)
 * @param cpuFlags     the first CPU's vector and bit-manipulation flags of /proc/cpuinfo that decide how fast a scan
 *                     can be (sse4*, avx*, avx512*, amx*, fma, bmi*), in the kernel's order; empty when unreadable
 * @param caches       cpu0's caches from /sys/devices/system/cpu/cpu0/cache ("L1d 32K", "L3 32768K shared by 0-1"),
 *                     empty when unreadable
 * @param logicalCpus  CPUs this JVM may use ({@code availableProcessors})
 * @param numaNodes    NUMA nodes under /sys/devices/system/node (1 when the kernel shows none)
 * @param memoryBytes  MemTotal of /proc/meminfo (0 when unreadable)
 * @param os           os.name os.version os.arch
 * @param jdk          java.runtime.version and vendor
 * @param jvmFlags     the JVM's input arguments
 * @param maxHeapBytes the heap limit
 */
public record Machine(
        String cpuModel,
        List<String> cpuFlags,
        List<String> caches,
        int logicalCpus,
        int numaNodes,
        long memoryBytes,
        String os,
        String jdk,
        List<String> jvmFlags,
        long maxHeapBytes) {

    /** The flags kept in {@link #cpuFlags()}. */
    private static final java.util.regex.Pattern KEPT_FLAG =
            java.util.regex.Pattern.compile("sse4.*|avx.*|amx.*|fma|bmi.*");

    public Machine {
        cpuFlags = List.copyOf(cpuFlags);
        caches = List.copyOf(caches);
        jvmFlags = List.copyOf(jvmFlags);
    }

    /**
     * The CPU in one line, to print beside a figure: model, the widest vector extension and the caches, e.g. {@code
     * AMD EPYC; avx2, no AVX-512; L1d 32K, L1i 32K, L2 512K, L3 32768K shared by 0-1}.
     */
    public String cpuSummary() {
        String vector = cpuFlags.stream().anyMatch(f -> f.startsWith("avx512"))
                ? "AVX-512 ("
                        + String.join(
                                " ",
                                cpuFlags.stream()
                                        .filter(f -> f.startsWith("avx512"))
                                        .toList()) + ")"
                : cpuFlags.contains("avx2") ? "avx2, no AVX-512" : cpuFlags.isEmpty() ? "flags unknown" : "no avx2";
        return cpuModel + "; " + vector + "; " + (caches.isEmpty() ? "caches unknown" : String.join(", ", caches));
    }

    /** Describes this machine and JVM now. */
    public static Machine describe() {
        return new Machine(
                cpuModel(Path.of("/proc/cpuinfo")),
                cpuFlags(Path.of("/proc/cpuinfo")),
                caches(Path.of("/sys/devices/system/cpu/cpu0/cache")),
                Runtime.getRuntime().availableProcessors(),
                nodeCount(Path.of("/sys/devices/system/node")),
                memTotal(Path.of("/proc/meminfo")),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vendor") + ", "
                        + System.getProperty("java.vm.name") + ")",
                ManagementFactory.getRuntimeMXBean().getInputArguments(),
                Runtime.getRuntime().maxMemory());
    }

    static String cpuModel(Path cpuinfo) {
        try (Stream<String> lines = Files.lines(cpuinfo)) {
            return lines.filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("unknown");
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    static List<String> cpuFlags(Path cpuinfo) {
        try (Stream<String> lines = Files.lines(cpuinfo)) {
            return lines.filter(l -> l.startsWith("flags"))
                    .findFirst()
                    .map(l -> Stream.of(l.substring(l.indexOf(':') + 1).trim().split("\\s+"))
                            .filter(f -> KEPT_FLAG.matcher(f).matches())
                            .toList())
                    .orElse(List.of());
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** One entry per cache of cpu0: level, type (d, i or none for unified), size, and the CPUs sharing it if several. */
    static List<String> caches(Path cacheDir) {
        try (Stream<Path> dirs = Files.list(cacheDir)) {
            return dirs.filter(p -> p.getFileName().toString().matches("index[0-9]+"))
                    .sorted()
                    .map(Machine::cache)
                    .toList();
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    private static String cache(Path index) {
        try {
            String type = Files.readString(index.resolve("type")).trim();
            String shared = Files.readString(index.resolve("shared_cpu_list")).trim();
            return "L" + Files.readString(index.resolve("level")).trim()
                    + (type.equals("Data") ? "d" : type.equals("Instruction") ? "i" : "") + " "
                    + Files.readString(index.resolve("size")).trim()
                    + (shared.matches("[0-9]+") ? "" : " shared by " + shared);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static int nodeCount(Path nodeDir) {
        try (Stream<Path> dirs = Files.list(nodeDir)) {
            long n = dirs.filter(p -> p.getFileName().toString().matches("node[0-9]+"))
                    .count();
            return (int) Math.max(1, n);
        } catch (IOException | RuntimeException e) {
            return 1;
        }
    }

    static long memTotal(Path meminfo) {
        try (Stream<String> lines = Files.lines(meminfo)) {
            return lines.filter(l -> l.startsWith("MemTotal:"))
                    .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024)
                    .findFirst()
                    .orElse(0L);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
