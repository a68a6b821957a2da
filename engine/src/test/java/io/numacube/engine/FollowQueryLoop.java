package io.numacube.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The query loop of the VM's follow check ({@link FollowMachineVmMain}): one platform thread runs the given queries
 * round after round against a cube until {@link #close()}, comparing each answer with the one it gave before the loop
 * started. Counts the queries run, when each ended, the failures and the changed answers. Its counters are safe to
 * read from any thread while it runs; {@link #close()} waits for the round under way to end.
 */
final class FollowQueryLoop implements AutoCloseable {

    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong ran = new AtomicLong();
    private final AtomicLong changed = new AtomicLong();
    private final ConcurrentLinkedQueue<Long> endTimes = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final Thread thread;

    private FollowQueryLoop(Cube cube, List<String> queries) {
        List<String> expected = new ArrayList<>();
        for (String q : queries) {
            expected.add(cube.query(q).toString());
        }
        thread = Thread.ofPlatform().name("query-loop").start(() -> {
            while (!stop.get()) {
                for (int q = 0; q < queries.size() && !stop.get(); q++) {
                    try {
                        if (!cube.query(queries.get(q)).toString().equals(expected.get(q))) {
                            changed.incrementAndGet();
                        }
                        ran.incrementAndGet();
                        endTimes.add(System.currentTimeMillis());
                    } catch (RuntimeException e) {
                        failures.add(String.valueOf(e));
                    }
                }
            }
        });
    }

    /** Answers {@code queries} once (the expected answers), then starts the loop. */
    static FollowQueryLoop start(Cube cube, List<String> queries) {
        return new FollowQueryLoop(cube, queries);
    }

    /** Waits until {@code n} queries ran or one failed. */
    void awaitRuns(long n) throws InterruptedException {
        while (ran.get() < n && failures.isEmpty()) {
            Thread.sleep(50);
        }
    }

    long ran() {
        return ran.get();
    }

    long changed() {
        return changed.get();
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    /** Queries that ended at or after {@code fromMillis} and at or before {@code toMillis} (epoch ms). */
    long endedBetween(long fromMillis, long toMillis) {
        return endTimes.stream().filter(t -> t >= fromMillis && t <= toMillis).count();
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        thread.join();
    }
}
