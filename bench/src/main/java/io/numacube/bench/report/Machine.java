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
        int logicalCpus,
        int numaNodes,
        long memoryBytes,
        String os,
        String jdk,
        List<String> jvmFlags,
        long maxHeapBytes) {

    public Machine {
        jvmFlags = List.copyOf(jvmFlags);
    }

    /** Describes this machine and JVM now. */
    public static Machine describe() {
        return new Machine(
                cpuModel(Path.of("/proc/cpuinfo")),
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
