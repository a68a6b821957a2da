package io.numacube.server.write;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Runs the writes' applies one at a time in the order of their turns (0, 1, 2, ...), which {@link WriteService}
 * hands out in the order it logs the writes, so the cube applies them in log order while each waits for its own
 * fsync outside any lock. A write whose log failed still passes its turn, doing nothing, so that later writes are not
 * held up (a failed log refuses them anyway).
 *
 * <p>Thread-safe. Every turn handed out must be passed exactly once, or every later one waits forever.
 */
final class WriteTurns {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition advanced = lock.newCondition();
    private long current;

    /** Waits until {@code turn} comes, runs {@code action}, and hands the turn on, also when it throws. */
    <T> T pass(long turn, Supplier<T> action) {
        lock.lock();
        try {
            while (current != turn) {
                advanced.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
        try {
            return action.get();
        } finally {
            lock.lock();
            try {
                current = turn + 1;
                advanced.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }
}
