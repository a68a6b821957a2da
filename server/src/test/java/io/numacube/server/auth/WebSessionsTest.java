package io.numacube.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Sessions' ids and tokens, their idle and absolute expiry, logout, the cap, and the login throttle's waits. */
class WebSessionsTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final Identity alice = new Identity("alice", Role.WRITER);

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void idsAndTokensAreDistinct256BitRandomValues() {
        WebSessions sessions = new WebSessions();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            WebSessions.Session s = sessions.create(alice);
            assertEquals(43, s.id().length());
            assertTrue(seen.add(s.id()) && seen.add(s.csrfToken()));
            assertTrue(s.csrfTokenIs(s.csrfToken()));
            assertFalse(s.csrfTokenIs(s.id()));
            assertFalse(s.csrfTokenIs(null));
        }
    }

    @Test
    void aSessionEndsWhenIdleForTheTimeoutOrAtItsLifetimeOrAtLogout() {
        WebSessions sessions = new WebSessions(Duration.ofMinutes(10), Duration.ofMinutes(25), 100, now::get);
        WebSessions.Session s = sessions.create(alice);
        advance(Duration.ofMinutes(9));
        assertTrue(sessions.find(s.id()).isPresent(), "used within the idle timeout");
        advance(Duration.ofMinutes(9));
        assertTrue(sessions.find(s.id()).isPresent(), "the last use keeps it alive");
        advance(Duration.ofMinutes(8));
        assertTrue(sessions.find(s.id()).isEmpty(), "past its lifetime, however used");
        WebSessions.Session idle = sessions.create(alice);
        advance(Duration.ofMinutes(10));
        assertTrue(sessions.find(idle.id()).isEmpty(), "idle for the timeout");
        WebSessions.Session out = sessions.create(alice);
        sessions.end(out.id());
        assertTrue(sessions.find(out.id()).isEmpty());
        assertTrue(sessions.find("no-such-id").isEmpty());
        assertTrue(sessions.find(null).isEmpty());
    }

    @Test
    void beyondTheCapTheLeastRecentlyUsedSessionIsDropped() {
        WebSessions sessions = new WebSessions(Duration.ofMinutes(10), Duration.ofMinutes(10), 2, now::get);
        WebSessions.Session a = sessions.create(alice);
        advance(Duration.ofSeconds(1));
        WebSessions.Session b = sessions.create(alice);
        advance(Duration.ofSeconds(1));
        sessions.find(a.id());
        WebSessions.Session c = sessions.create(alice);
        assertEquals(2, sessions.size());
        assertTrue(sessions.find(a.id()).isPresent());
        assertTrue(sessions.find(b.id()).isEmpty());
        assertTrue(sessions.find(c.id()).isPresent());
    }

    @Test
    void theThrottleWaitsAfterFreeFailuresDoublingUpToTheMaximumAndForgetsOnSuccess() {
        LoginThrottle throttle = new LoginThrottle(now::get);
        for (int i = 0; i < LoginThrottle.FREE_FAILURES; i++) {
            throttle.failed("10.0.0.1");
            assertTrue(throttle.waitFor("10.0.0.1").isEmpty(), "failure " + (i + 1) + " is free");
        }
        long[] waits = new long[8];
        for (int i = 0; i < waits.length; i++) {
            throttle.failed("10.0.0.1");
            waits[i] = throttle.waitFor("10.0.0.1").orElseThrow().toSeconds();
            advance(Duration.ofSeconds(waits[i]));
            assertTrue(throttle.waitFor("10.0.0.1").isEmpty());
        }
        assertEquals("[1, 2, 4, 8, 16, 32, 60, 60]", java.util.Arrays.toString(waits));
        assertTrue(throttle.waitFor("10.0.0.2").isEmpty(), "another address is not slowed");
        throttle.failed("10.0.0.1");
        throttle.succeeded("10.0.0.1");
        assertTrue(throttle.waitFor("10.0.0.1").isEmpty());
        throttle.failed("10.0.0.1");
        assertTrue(throttle.waitFor("10.0.0.1").isEmpty(), "counting starts again after a success");
    }
}
