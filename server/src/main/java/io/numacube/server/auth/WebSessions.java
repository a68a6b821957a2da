package io.numacube.server.auth;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The logged-in browser sessions of a server: each a random 256-bit id (the cookie's value) bound to an
 * {@link Identity} and a random 256-bit CSRF token, ending {@link #idleTimeout} after its last use or
 * {@link #lifetime} after the login, whichever comes first, or at logout. Ids and tokens come from
 * {@link SecureRandom} and are never logged; an unknown, ended or expired id finds nothing. At most
 * {@link #maxSessions} are kept: a login beyond drops the expired ones, then the least recently used.
 *
 * <p>Memory only: a restart logs everyone out. Thread-safe.
 */
public final class WebSessions {

    /**
     * One session. Its id and token are URL-safe base64 of 32 random bytes (43 characters).
     *
     * @param id        the cookie's value
     * @param identity  who it acts as
     * @param csrfToken what a state-changing request made with the cookie must carry in a header
     * @param createdNanos when it was made (the login), on the sessions' clock
     */
    public record Session(String id, Identity identity, String csrfToken, long createdNanos) {

        /** Whether {@code token} is this session's CSRF token, compared in time independent of where they differ. */
        public boolean csrfTokenIs(String token) {
            return token != null
                    && MessageDigest.isEqual(
                            csrfToken.getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                            token.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    /** Sessions end after this long unused. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofHours(1);
    /** Sessions end this long after the login, used or not. */
    public static final Duration DEFAULT_LIFETIME = Duration.ofHours(12);

    private static final int DEFAULT_MAX_SESSIONS = 10_000;

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Entry> sessions = new ConcurrentHashMap<>();
    private final Duration idleTimeout;
    private final Duration lifetime;
    private final int maxSessions;
    private final LongSupplier nanoTime;

    private static final class Entry {
        final Session session;
        volatile long lastUsedNanos;

        Entry(Session session) {
            this.session = session;
            this.lastUsedNanos = session.createdNanos();
        }
    }

    /** Sessions of {@link #DEFAULT_IDLE_TIMEOUT} idle and {@link #DEFAULT_LIFETIME} at most, on the system clock. */
    public WebSessions() {
        this(DEFAULT_IDLE_TIMEOUT, DEFAULT_LIFETIME, DEFAULT_MAX_SESSIONS, System::nanoTime);
    }

    /** Sessions with the given limits, timed by {@code nanoTime} (a test's clock). */
    public WebSessions(Duration idleTimeout, Duration lifetime, int maxSessions, LongSupplier nanoTime) {
        if (idleTimeout.isNegative()
                || idleTimeout.isZero()
                || lifetime.compareTo(idleTimeout) < 0
                || maxSessions < 1) {
            throw new IllegalArgumentException(
                    "sessions need 0 < idle timeout <= lifetime and a positive maximum: idle=" + idleTimeout
                            + " lifetime=" + lifetime + " max=" + maxSessions);
        }
        this.idleTimeout = idleTimeout;
        this.lifetime = lifetime;
        this.maxSessions = maxSessions;
        this.nanoTime = Objects.requireNonNull(nanoTime);
    }

    /** A new session for {@code who}, just logged in. */
    public Session create(Identity who) {
        long now = nanoTime.getAsLong();
        if (sessions.size() >= maxSessions) {
            sessions.values().removeIf(e -> expired(e, now));
            while (sessions.size() >= maxSessions) {
                sessions.values().stream()
                        .min(Comparator.comparingLong(e -> e.lastUsedNanos))
                        .ifPresent(e -> sessions.remove(e.session.id()));
            }
        }
        Session s = new Session(randomToken(), who, randomToken(), now);
        sessions.put(s.id(), new Entry(s));
        return s;
    }

    /** The live session of {@code id}, which this use keeps alive; empty when unknown, ended or expired. */
    public Optional<Session> find(String id) {
        if (id == null) {
            return Optional.empty();
        }
        Entry e = sessions.get(id);
        if (e == null) {
            return Optional.empty();
        }
        long now = nanoTime.getAsLong();
        if (expired(e, now)) {
            sessions.remove(id, e);
            return Optional.empty();
        }
        e.lastUsedNanos = now;
        return Optional.of(e.session);
    }

    /** Ends session {@code id} (a logout); nothing when there is none. */
    public void end(String id) {
        if (id != null) {
            sessions.remove(id);
        }
    }

    /** Sessions kept now, expired ones not yet dropped included. */
    public int size() {
        return sessions.size();
    }

    /** The longest a session lives: the cookie's Max-Age. */
    public Duration lifetime() {
        return lifetime;
    }

    private boolean expired(Entry e, long now) {
        return now - e.lastUsedNanos >= idleTimeout.toNanos() || now - e.session.createdNanos() >= lifetime.toNanos();
    }

    private String randomToken() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
