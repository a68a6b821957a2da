package io.numacube.bench.probe;

import java.util.function.IntConsumer;

/**
 * Runs one task body on {@code n} threads at once and returns when all have finished; the bench uses it to place
 * probe threads (plain platform threads, or threads pinned per NUMA node when the runtime provides them).
 *
 * <p>Contract: {@link #run} calls {@code body.accept(i)} exactly once for every {@code i} in {@code [0, n)}, each on
 * its own thread, all started before any is awaited; the first exception thrown by a body is rethrown. Implementations
 * must be safe to call from one thread at a time.
 */
public interface ThreadTeam {

    /** Runs {@code body(0..n-1)} concurrently and waits for all of them. */
    void run(int n, IntConsumer body);

    /** Human description for reports ("unpinned platform threads", "pinned to node 0 CPUs 0-1", ...). */
    String description();

    /** A team of fresh, unpinned platform threads. */
    static ThreadTeam unpinned() {
        return new ThreadTeam() {
            @Override
            public void run(int n, IntConsumer body) {
                Thread[] threads = new Thread[n];
                Throwable[] failure = new Throwable[1];
                for (int i = 0; i < n; i++) {
                    int id = i;
                    threads[i] = Thread.ofPlatform().name("bench-" + i).unstarted(() -> body.accept(id));
                    threads[i].setUncaughtExceptionHandler((t, e) -> {
                        synchronized (failure) {
                            if (failure[0] == null) {
                                failure[0] = e;
                            }
                        }
                    });
                }
                for (Thread t : threads) {
                    t.start();
                }
                for (Thread t : threads) {
                    try {
                        t.join();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while waiting for bench threads", e);
                    }
                }
                if (failure[0] != null) {
                    throw new IllegalStateException("a bench thread failed: " + failure[0], failure[0]);
                }
            }

            @Override
            public String description() {
                return "unpinned platform threads";
            }
        };
    }
}
