package io.numacube.server.auth;

import io.numacube.numa.base.NumacubeException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A password's SCRAM-SHA-256 verifier, as PostgreSQL keeps it in {@code pg_authid.rolpassword}:
 *
 * <pre>
 * SCRAM-SHA-256$&lt;iterations&gt;:&lt;salt, base64&gt;$&lt;StoredKey, base64&gt;:&lt;ServerKey, base64&gt;
 *
 * SaltedPassword := PBKDF2-HMAC-SHA-256(SASLprep(password), salt, iterations)
 * StoredKey      := SHA-256(HMAC(SaltedPassword, "Client Key"))
 * ServerKey      := HMAC(SaltedPassword, "Server Key")
 * </pre>
 *
 * It lets the server check a SCRAM client's proof ({@link ScramExchange}) and a plain password (HTTP Basic), but not
 * recover the password, except by guessing it: {@code iterations} makes each guess cost. Immutable: the arrays are
 * copied in and never handed out.
 */
public final class ScramVerifier {

    /** PostgreSQL's default {@code scram_iterations}. */
    public static final int DEFAULT_ITERATIONS = 4096;
    /** The salt length PostgreSQL uses. */
    public static final int SALT_BYTES = 16;

    private static final String PREFIX = "SCRAM-SHA-256$";
    private static final Pattern TEXT =
            Pattern.compile("SCRAM-SHA-256\\$([0-9]{1,10}):([A-Za-z0-9+/=]+)\\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)");

    private final int iterations;
    private final byte[] salt;
    private final byte[] storedKey;
    private final byte[] serverKey;

    ScramVerifier(int iterations, byte[] salt, byte[] storedKey, byte[] serverKey) {
        if (iterations < 1) {
            throw invalid("iterations must be at least 1: iterations=" + iterations);
        }
        if (salt.length == 0) {
            throw invalid("the salt is empty");
        }
        if (storedKey.length != ScramMath.KEY_BYTES || serverKey.length != ScramMath.KEY_BYTES) {
            throw invalid("StoredKey and ServerKey are 32 bytes each: stored-key-bytes=" + storedKey.length
                    + " server-key-bytes=" + serverKey.length);
        }
        this.iterations = iterations;
        this.salt = salt.clone();
        this.storedKey = storedKey.clone();
        this.serverKey = serverKey.clone();
    }

    /**
     * Reads PostgreSQL's text of a verifier.
     *
     * @throws NumacubeException INVALID_INPUT saying what is wrong (the text is not echoed)
     */
    public static ScramVerifier parse(String text) {
        Matcher m = TEXT.matcher(text);
        if (!m.matches()) {
            throw invalid(
                    text.startsWith(PREFIX)
                            ? "not a SCRAM-SHA-256 verifier: expected SCRAM-SHA-256$ITERATIONS:SALT$STOREDKEY:SERVERKEY"
                            : "not a SCRAM-SHA-256 verifier: it does not start with SCRAM-SHA-256$ (md5 and plain passwords "
                                    + "are not accepted)");
        }
        long iterations = Long.parseLong(m.group(1));
        if (iterations > Integer.MAX_VALUE) {
            throw invalid("too many iterations: iterations=" + iterations);
        }
        return new ScramVerifier((int) iterations, base64(m.group(2)), base64(m.group(3)), base64(m.group(4)));
    }

    /**
     * The verifier of {@code password} with a new random salt.
     *
     * @throws NumacubeException INVALID_INPUT for an empty password or fewer than one iteration
     */
    public static ScramVerifier of(String password, int iterations, SecureRandom random) {
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        return of(password, salt, iterations);
    }

    static ScramVerifier of(String password, byte[] salt, int iterations) {
        if (password.isEmpty()) {
            throw invalid("a password must not be empty");
        }
        if (iterations < 1) {
            throw invalid("iterations must be at least 1: iterations=" + iterations);
        }
        byte[] salted = ScramMath.saltedPassword(password, salt, iterations);
        byte[] storedKey = ScramMath.sha256(ScramMath.hmac(salted, "Client Key"));
        return new ScramVerifier(iterations, salt, storedKey, ScramMath.hmac(salted, "Server Key"));
    }

    /**
     * Whether {@code password} is the one this verifies: derives its StoredKey (one PBKDF2 of {@link #iterations})
     * and compares in constant time. An empty password never matches.
     */
    public boolean matches(String password) {
        if (password.isEmpty()) {
            return false;
        }
        byte[] salted = ScramMath.saltedPassword(password, salt, iterations);
        return ScramMath.equal(ScramMath.sha256(ScramMath.hmac(salted, "Client Key")), storedKey);
    }

    public int iterations() {
        return iterations;
    }

    byte[] salt() {
        return salt.clone();
    }

    byte[] storedKey() {
        return storedKey.clone();
    }

    byte[] serverKey() {
        return serverKey.clone();
    }

    /** PostgreSQL's text: {@code SCRAM-SHA-256$4096:SALT$STOREDKEY:SERVERKEY}. */
    public String text() {
        Base64.Encoder b = Base64.getEncoder();
        return PREFIX + iterations + ":" + b.encodeToString(salt) + "$" + b.encodeToString(storedKey) + ":"
                + b.encodeToString(serverKey);
    }

    /** Says what it is without its keys, for logs. */
    @Override
    public String toString() {
        return "SCRAM-SHA-256 verifier (iterations=" + iterations + ")";
    }

    private static byte[] base64(String text) {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw invalid("not a SCRAM-SHA-256 verifier: bad base64 (" + e.getMessage() + ")");
        }
    }

    private static NumacubeException invalid(String message) {
        return new NumacubeException(NumacubeException.Kind.INVALID_INPUT, message);
    }
}
