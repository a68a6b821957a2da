package io.numacube.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Measures how busy the machine's CPUs were with <em>other</em> processes while the bench ran a section: the busy
 * share of all CPUs from {@code /proc/stat} minus this JVM's own CPU time over the same wall time. On a shared
 * machine this says how far a figure can be trusted.
 *
 * <p>Not thread-safe: one meter per measured interval. Where {@code /proc/stat} or the process CPU time cannot be
 * read, {@link #othersFraction()} is NaN.
 */
public final class CpuMeter {

    private final Path procStat;
    private final int cpus;
    private final long[] startTicks;
    private final long startProcessNanos;
    private final long startWallNanos;

    private CpuMeter(Path procStat) {
        this.procStat = procStat;
        this.cpus = Runtime.getRuntime().availableProcessors();
        this.startTicks = ticks(procStat);
        this.startProcessNanos = processCpuNanos();
        this.startWallNanos = System.nanoTime();
    }

    /** Starts measuring now. */
    public static CpuMeter start() {
        return new CpuMeter(Path.of("/proc/stat"));
    }

    /**
     * Fraction (0..1) of the machine's CPU capacity that other processes used since {@link #start()}: e.g. 0.5 on a
     * 2-CPU machine means one CPU's worth of other work. NaN when it cannot be measured.
     */
    public double othersFraction() {
        long[] end = ticks(procStat);
        long processNanos = processCpuNanos();
        long wallNanos = System.nanoTime() - startWallNanos;
        if (startTicks == null || end == null || startProcessNanos < 0 || processNanos < 0 || wallNanos <= 0) {
            return Double.NaN;
        }
        long busy = end[0] - startTicks[0];
        long total = end[1] - startTicks[1];
        if (total <= 0) {
            return Double.NaN;
        }
        double allBusy = (double) busy / total;
        double own = (double) (processNanos - startProcessNanos) / ((double) wallNanos * cpus);
        return Math.max(0, Math.min(1, allBusy - own));
    }

    /** {busy, total} ticks of the aggregate "cpu" line, or null when unreadable. */
    static long[] ticks(Path procStat) {
        try {
            for (String line : Files.readAllLines(procStat)) {
                if (line.startsWith("cpu ")) {
                    String[] f = line.trim().split("\\s+");
                    long total = 0;
                    long idle = 0;
                    for (int i = 1; i < f.length && i <= 8; i++) {
                        long v = Long.parseLong(f[i]);
                        total += v;
                        if (i == 4 || i == 5) {
                            idle += v;
                        }
                    }
                    return new long[] {total - idle, total};
                }
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
