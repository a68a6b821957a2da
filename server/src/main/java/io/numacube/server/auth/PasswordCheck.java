package io.numacube.server.auth;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Checks a user name and password (HTTP Basic) against the user's SCRAM verifier: one PBKDF2 derivation of the
 * verifier's iterations (an unknown user's costs the same, against a mock verifier), then a constant-time comparison
 * of StoredKeys. A successful check is remembered for {@code ttl}, keyed by an HMAC of the name and password under a
 * secret of this object (so the memory holds no password nor a fast hash of one), so that a client that sends its
 * credentials with every request pays the derivation once per {@code ttl}; failures are not remembered. At most
 * {@value #MAX_REMEMBERED} are remembered; beyond, the expired ones and then all are forgotten. Thread-safe.
 */
public final class PasswordCheck {

    /** How long a successful check is remembered unless told otherwise. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(60);

    static final int MAX_REMEMBERED = 4096;

    private record Remembered(Identity identity, long expiresNanos) {}

    private final UserDirectory users;
    private final long ttlNanos;
    private final LongSupplier nanoClock;
    private final byte[] secret = new byte[32];
    private final Map<String, Remembered> remembered = new ConcurrentHashMap<>();
    private final AtomicLong derivations = new AtomicLong();

    public PasswordCheck(UserDirectory users) {
        this(users, DEFAULT_TTL, System::nanoTime);
    }

    PasswordCheck(UserDirectory users, Duration ttl, LongSupplier nanoClock) {
        this.users = users;
        this.ttlNanos = ttl.toNanos();
        this.nanoClock = nanoClock;
        new SecureRandom().nextBytes(secret);
    }

    /**
     * The user's identity when {@code password} is the user's; empty for a wrong password or an unknown user, and at
     * once for an empty password (which no verifier is made of).
     */
    public Optional<Identity> check(String user, String password) {
        if (password.isEmpty()) {
            return Optional.empty();
        }
        String key = Base64.getEncoder().encodeToString(ScramMath.hmac(secret, user.length() + ":" + user + password));
        long now = nanoClock.getAsLong();
        Remembered r = remembered.get(key);
        if (r != null && now - r.expiresNanos() < 0) {
            return Optional.of(r.identity());
        }
        derivations.incrementAndGet();
        boolean right = users.verifierOrMock(user).matches(password);
        Optional<User> known = users.find(user);
        if (!right || known.isEmpty()) {
            return Optional.empty();
        }
        remember(key, new Remembered(known.get().identity(), now + ttlNanos), now);
        return Optional.of(known.get().identity());
    }

    /** How many checks derived a key (were not answered from memory); for tests. */
    long derivations() {
        return derivations.get();
    }

    private void remember(String key, Remembered r, long now) {
        if (remembered.size() >= MAX_REMEMBERED) {
            remembered.values().removeIf(x -> now - x.expiresNanos() >= 0);
            if (remembered.size() >= MAX_REMEMBERED) {
                remembered.clear();
            }
        }
        remembered.put(key, r);
    }
}
