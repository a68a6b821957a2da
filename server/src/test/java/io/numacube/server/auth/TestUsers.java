package io.numacube.server.auth;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Users for the server's tests: {@code alice}, a writer with password {@code alice-secret}, and {@code bob}, a reader
 * with password {@code bob-secret}; verifiers of PostgreSQL's default 4096 iterations, with fixed salts.
 */
public final class TestUsers {

    public static final String WRITER = "alice";
    public static final String WRITER_PASSWORD = "alice-secret";
    public static final String READER = "bob";
    public static final String READER_PASSWORD = "bob-secret";

    private TestUsers() {}

    public static UserDirectory directory() {
        return UserDirectory.of(List.of(
                new User(WRITER, Role.WRITER, verifier(WRITER_PASSWORD)),
                new User(READER, Role.READER, verifier(READER_PASSWORD))));
    }

    static ScramVerifier verifier(String password) {
        byte[] salt = ("salt of " + password).getBytes(StandardCharsets.UTF_8);
        return ScramVerifier.of(password, java.util.Arrays.copyOf(salt, 16), ScramVerifier.DEFAULT_ITERATIONS);
    }
}
