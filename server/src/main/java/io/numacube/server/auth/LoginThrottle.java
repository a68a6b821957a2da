package io.numacube.server.auth;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Slows down password guessing through the login form: per client (its address), after {@link #FREE_FAILURES}
 * failed logins in a row, each further attempt must wait, 1 s after the next failure, then twice as long after each
 * one more, up to {@link #MAX_WAIT}; a successful login clears the client's count. The count of a client that made
 * no attempt for {@link #MAX_WAIT} twice is forgotten. At most {@value #MAX_CLIENTS} clients are remembered (beyond,
 * the forgettable ones are dropped, then all: a flood of addresses must not exhaust memory). Thread-safe.
 */
public final class LoginThrottle {

    /** Failed logins in a row that cost nothing. */
    public static final int FREE_FAILURES = 5;
    /** The longest wait between attempts. */
    public static final Duration MAX_WAIT = Duration.ofSeconds(60);

    private static final int MAX_CLIENTS = 10_000;

    private record Failures(int count, long lastNanos, long waitUntilNanos) {}

    private final Map<String, Failures> clients = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;

    public LoginThrottle() {
        this(System::nanoTime);
    }

    /** A throttle timed by {@code nanoTime} (a test's clock). */
    public LoginThrottle(LongSupplier nanoTime) {
        this.nanoTime = Objects.requireNonNull(nanoTime);
    }

    /** How long {@code client} must still wait before its next attempt; empty when it may try now. */
    public Optional<Duration> waitFor(String client) {
        Failures f = clients.get(client);
        long left = f == null ? 0 : f.waitUntilNanos() - nanoTime.getAsLong();
        return left > 0 ? Optional.of(Duration.ofNanos(left)) : Optional.empty();
    }

    /** A failed login of {@code client}. */
    public void failed(String client) {
        long now = nanoTime.getAsLong();
        if (clients.size() >= MAX_CLIENTS) {
            clients.values().removeIf(f -> forgettable(f, now));
            if (clients.size() >= MAX_CLIENTS) {
                clients.clear();
            }
        }
        clients.compute(client, (k, f) -> {
            int count = f == null || forgettable(f, now) ? 1 : f.count() + 1;
            long wait = count <= FREE_FAILURES
                    ? 0
                    : Math.min(
                            MAX_WAIT.toNanos(),
                            Duration.ofSeconds(1).toNanos() << Math.min(20, count - FREE_FAILURES - 1));
            return new Failures(count, now, now + wait);
        });
    }

    /** A successful login of {@code client}: its failures are forgotten. */
    public void succeeded(String client) {
        clients.remove(client);
    }

    private static boolean forgettable(Failures f, long now) {
        return now - f.lastNanos() > 2 * MAX_WAIT.toNanos();
    }
}
