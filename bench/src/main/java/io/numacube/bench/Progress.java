package io.numacube.bench;

import java.io.PrintStream;
import java.util.Locale;

/** Progress lines with the seconds since the run started, so a long run shows it is alive. Thread-safe. */
public final class Progress {

    private final PrintStream out;
    private final long startNanos = System.nanoTime();

    public Progress(PrintStream out) {
        this.out = out;
    }

    public synchronized void line(String format, Object... args) {
        out.printf(
                Locale.ROOT,
                "[%6.1fs] %s%n",
                (System.nanoTime() - startNanos) / 1e9,
                String.format(Locale.ROOT, format, args));
        out.flush();
    }
}
