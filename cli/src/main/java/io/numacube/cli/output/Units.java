package io.numacube.cli.output;

import java.util.Locale;

/** Human formatting of sizes, counts and durations for the CLI. Stateless. */
public final class Units {

    private Units() {}

    /** {@code 1.5 GiB}, {@code 512.0 MiB}, {@code 4.0 KiB}, {@code 12 B}. */
    public static String bytes(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = bytes;
        int u = 0;
        while (Math.abs(v) >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** {@code 1.2 M}, {@code 3.4 G}, {@code 999}. */
    public static String count(double n) {
        if (Math.abs(n) >= 1e9) {
            return String.format(Locale.ROOT, "%.2f G", n / 1e9);
        }
        if (Math.abs(n) >= 1e6) {
            return String.format(Locale.ROOT, "%.1f M", n / 1e6);
        }
        if (Math.abs(n) >= 1e4) {
            return String.format(Locale.ROOT, "%.1f K", n / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", n);
    }

    /** {@code 12.3 ms}, {@code 1.25 s}, {@code 850 µs}. */
    public static String nanos(long nanos) {
        if (nanos >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
        }
        if (nanos >= 1_000_000L) {
            return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.0f µs", nanos / 1e3);
    }
}
