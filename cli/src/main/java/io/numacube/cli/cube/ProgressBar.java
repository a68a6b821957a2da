package io.numacube.cli.cube;

import io.numacube.engine.ingest.csv.CsvProgress;
import io.numacube.engine.storage.ProgressListener;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Shows how a long load or generation is going, on stderr: nothing for the first second (short operations stay
 * quiet); then, on a terminal, one line redrawn in place at most ten times a second; otherwise (a pipe, a log file,
 * or {@code NUMACUBE_PROGRESS=plain}) a plain line every {@link #PLAIN_INTERVAL_NANOS}. A line shows rows, rows/s, and
 * when the total is known the percentage and the time left: {@code loading trades.csv  1,234,567 rows  812,345 rows/s
 * 42%  ETA 0:07}. {@link #close()} ends the line with the final count, if anything was shown.
 * {@code NUMACUBE_PROGRESS=off} shows nothing.
 *
 * <p>Thread-safe: the engine reports from several worker threads; updates are serialised and cheap when nothing is
 * drawn.
 */
public final class ProgressBar implements ProgressListener, CsvProgress, AutoCloseable {

    /** Silence before the first line. */
    public static final long QUIET_NANOS = 1_000_000_000L;
    /** Between two redraws of the terminal line. */
    public static final long TERMINAL_INTERVAL_NANOS = 100_000_000L;
    /** Between two plain lines. */
    public static final long PLAIN_INTERVAL_NANOS = 5_000_000_000L;

    /** How the bar is drawn. */
    public enum Style {
        TERMINAL,
        PLAIN,
        OFF
    }

    private final String label;
    private final PrintWriter err;
    private final Style style;
    private final LongSupplier clock;
    private final long startNanos;
    private long lastDrawNanos;
    private long rows;
    private double fraction = -1;
    private int lastWidth;
    private boolean shown;
    private boolean finished;

    public ProgressBar(String label, PrintWriter err, Style style, LongSupplier nanoClock) {
        this.label = label;
        this.err = err;
        this.style = style;
        this.clock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
    }

    /** A bar on {@code err} whose style follows the console and {@code NUMACUBE_PROGRESS}. */
    public static ProgressBar on(PrintWriter err, String label) {
        return new ProgressBar(label, err, detectStyle(), System::nanoTime);
    }

    static Style detectStyle() {
        String env = System.getenv("NUMACUBE_PROGRESS");
        if ("off".equalsIgnoreCase(env)) {
            return Style.OFF;
        }
        if ("plain".equalsIgnoreCase(env)) {
            return Style.PLAIN;
        }
        return stderrIsTerminal() ? Style.TERMINAL : Style.PLAIN;
    }

    /**
     * Whether standard error, where the bar draws, is a terminal: on Linux from where file descriptor 2 points (so
     * {@code load ... 2> log} gets plain lines, and {@code query ... > out.csv} still gets the bar); elsewhere from
     * {@link System#console()}, which looks at standard input and output.
     */
    private static boolean stderrIsTerminal() {
        try {
            return isTerminalDevice(java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd/2"))
                    .toString());
        } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
            java.io.Console console = System.console();
            return console != null && console.isTerminal();
        }
    }

    /** Whether a file descriptor's link target ({@code /proc/self/fd/N}) is a terminal device. */
    static boolean isTerminalDevice(String target) {
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
    }

    @Override
    public void progress(long rowsDone, long rowsTotal) {
        report(rowsDone, rowsTotal > 0 ? Math.min(1.0, (double) rowsDone / rowsTotal) : -1);
    }

    @Override
    public void update(long rowsRead, long bytesRead, long totalBytes) {
        report(rowsRead, totalBytes > 0 ? Math.min(1.0, (double) bytesRead / totalBytes) : -1);
    }

    /**
     * Records progress and draws when due.
     *
     * @param rowsDone    rows so far (a smaller value than already seen is ignored)
     * @param doneFraction 0..1, or negative when the total is unknown
     */
    public synchronized void report(long rowsDone, double doneFraction) {
        if (rowsDone < rows) {
            return;
        }
        rows = rowsDone;
        fraction = doneFraction;
        if (style == Style.OFF || finished) {
            return;
        }
        long now = clock.getAsLong();
        long elapsed = now - startNanos;
        if (elapsed < QUIET_NANOS) {
            return;
        }
        long interval = style == Style.TERMINAL ? TERMINAL_INTERVAL_NANOS : PLAIN_INTERVAL_NANOS;
        if (shown && now - lastDrawNanos < interval) {
            return;
        }
        draw(now, false);
    }

    private void draw(long now, boolean last) {
        String line = line(now - startNanos, last);
        if (style == Style.TERMINAL) {
            int pad = Math.max(0, lastWidth - line.length());
            err.print("\r" + line + " ".repeat(pad));
            if (last) {
                err.println();
            }
            lastWidth = line.length();
        } else {
            err.println(line);
        }
        err.flush();
        shown = true;
        lastDrawNanos = now;
    }

    /** The text of one progress line after {@code elapsedNanos}. */
    synchronized String line(long elapsedNanos, boolean last) {
        double seconds = elapsedNanos / 1e9;
        StringBuilder sb = new StringBuilder(label);
        sb.append(String.format(Locale.ROOT, "  %,d rows", rows));
        if (seconds > 0) {
            sb.append(String.format(Locale.ROOT, "  %,.0f rows/s", rows / seconds));
        }
        if (last) {
            sb.append(String.format(Locale.ROOT, "  done in %.1f s", seconds));
        } else if (fraction >= 0) {
            sb.append(String.format(Locale.ROOT, "  %.0f%%", fraction * 100));
            if (fraction > 0) {
                sb.append("  ETA ").append(clockTime(seconds * (1 - fraction) / fraction));
            }
        }
        return sb.toString();
    }

    /** {@code 0:07}, {@code 12:30}, {@code 1:02:03}. */
    static String clockTime(double seconds) {
        long s = Math.round(seconds);
        long h = s / 3600;
        long m = s / 60 % 60;
        long sec = s % 60;
        return h > 0
                ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, sec)
                : String.format(Locale.ROOT, "%d:%02d", m, sec);
    }

    /** True once a line has been drawn. */
    public synchronized boolean shown() {
        return shown;
    }

    /** Draws the final line if anything was shown before (or if the operation took longer than a second). */
    @Override
    public synchronized void close() {
        if (style == Style.OFF || finished) {
            return;
        }
        finished = true;
        long now = clock.getAsLong();
        if (shown || now - startNanos >= QUIET_NANOS) {
            draw(now, true);
        }
    }

    /** Ends a terminal line that was left open (before an error message), without a final count. */
    public synchronized void abandon() {
        if (finished) {
            return;
        }
        finished = true;
        if (style == Style.TERMINAL && shown) {
            err.println();
            err.flush();
        }
        shown = false;
    }
}
