package io.numacube.server.tls;

import io.numacube.numa.base.NumacubeException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Checks the server's certificate and key files every {@code period} and reloads them when they changed ({@link
 * ServerTls#reloadIfChanged}), so that a renewed certificate is served without a restart. Each reload, or each refused
 * replacement (the old pair still in use), is one line to the log. Runs on one daemon platform thread, {@code
 * numacube-tls-reload}, until {@link #close}. Thread-safe.
 */
public final class CertificateWatch implements AutoCloseable {

    private final Thread thread;

    private CertificateWatch(Thread thread) {
        this.thread = thread;
    }

    /** Starts watching {@code tls}'s files; {@code log} gets one line per change seen. */
    public static CertificateWatch start(ServerTls tls, Duration period, Consumer<String> log) {
        if (period.isZero() || period.isNegative()) {
            throw new IllegalArgumentException("the period must be positive: period=" + period);
        }
        Thread t = Thread.ofPlatform().daemon().name("numacube-tls-reload").unstarted(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(period);
                } catch (InterruptedException e) {
                    return;
                }
                check(tls, log);
            }
        });
        t.start();
        return new CertificateWatch(t);
    }

    /** One check: reload if the files changed, saying what happened. */
    static void check(ServerTls tls, Consumer<String> log) {
        try {
            tls.reloadIfChanged().ifPresent(d -> log.accept("tls: certificate reloaded; " + d));
        } catch (NumacubeException e) {
            log.accept("tls: the changed certificate or key was NOT loaded, still serving " + tls.describe() + ": "
                    + e.getMessage());
        }
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
