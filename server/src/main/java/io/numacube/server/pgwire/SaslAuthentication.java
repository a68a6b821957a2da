package io.numacube.server.pgwire;

import io.numacube.numa.base.NumacubeException;
import io.numacube.server.auth.Identity;
import io.numacube.server.auth.ScramExchange;
import io.numacube.server.auth.UserDirectory;
import io.numacube.server.query.ClientError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Optional;

/**
 * SCRAM-SHA-256 authentication of a connection's startup user, as PostgreSQL runs it (protocol section "SASL
 * Authentication"): AuthenticationSASL offering {@code SCRAM-SHA-256-PLUS} and {@code SCRAM-SHA-256} over TLS with a
 * certificate that has a {@code tls-server-end-point} binding, {@code SCRAM-SHA-256} only otherwise; SASLInitialResponse with the client-first-message; AuthenticationSASLContinue with the server-first-message;
 * SASLResponse with the client-final-message; AuthenticationSASLFinal with the server's signature. The exchange
 * itself is {@link ScramExchange}. A wrong password or an unknown user is FATAL 28P01 {@code password authentication
 * failed for user "NAME"}, the same for both; a malformed or unexpected message, or one over {@value #MAX_SASL_BYTES}
 * bytes, is FATAL 08P01. Either way only this connection closes. Not thread-safe: the connection's thread runs it.
 */
final class SaslAuthentication {

    /** The longest SASL message read, as PostgreSQL's {@code PG_MAX_AUTH_TOKEN_LENGTH}. */
    static final int MAX_SASL_BYTES = 65_535;

    private static final int SASL = 10;
    private static final int SASL_CONTINUE = 11;
    private static final int SASL_FINAL = 12;

    private final PgInput in;
    private final PgOutput out;
    private final UserDirectory users;
    private final SecureRandom random;
    private final byte[] serverEndPoint;

    /** @param serverEndPoint the connection's {@code tls-server-end-point} binding data, or null (no TLS, or none) */
    SaslAuthentication(PgInput in, PgOutput out, UserDirectory users, SecureRandom random, byte[] serverEndPoint) {
        this.in = in;
        this.out = out;
        this.users = users;
        this.random = random;
        this.serverEndPoint = serverEndPoint;
    }

    /**
     * Runs the exchange for {@code user}; on success AuthenticationSASLFinal has been sent (AuthenticationOk is the
     * caller's).
     *
     * @throws PgProtocolException FATAL 28P01 when authentication fails, FATAL 08P01 or 0A000 for a bad message
     */
    Identity authenticate(String user) throws IOException {
        out.authentication(SASL, saslMechanisms());
        out.flush();
        PgInput.Body initial = next("SASLInitialResponse");
        String mechanism = initial.cstring();
        boolean plus = serverEndPoint != null && mechanism.equals(ScramExchange.MECHANISM_PLUS);
        if (!plus && !mechanism.equals(ScramExchange.MECHANISM)) {
            throw new PgProtocolException(
                    ClientError.PROTOCOL_VIOLATION,
                    "client selected an invalid SASL authentication mechanism: mechanism=" + mechanism
                            + " — the server offers " + offered(),
                    true);
        }
        ScramExchange scram = new ScramExchange(users, user, random, serverEndPoint, plus);
        int length = initial.int32();
        if (length < 0) {
            throw PgProtocolException.malformed("malformed SCRAM message: the SASLInitialResponse has no data");
        }
        String clientFirst = text(initial.bytes(length));
        initial.end("SASLInitialResponse");
        String serverFirst = run(() -> scram.serverFirst(clientFirst));
        out.authentication(SASL_CONTINUE, serverFirst.getBytes(StandardCharsets.UTF_8));
        out.flush();
        String clientFinal = text(next("SASLResponse").rest());
        Optional<String> serverFinal = run(() -> scram.serverFinal(clientFinal));
        if (serverFinal.isEmpty()) {
            throw new PgProtocolException("28P01", "password authentication failed for user \"" + user + "\"", true);
        }
        out.authentication(SASL_FINAL, serverFinal.get().getBytes(StandardCharsets.UTF_8));
        return users.find(user).orElseThrow().identity();
    }

    /** AuthenticationSASL's list: each mechanism NUL-terminated, then an empty name; -PLUS first, as PostgreSQL. */
    private byte[] saslMechanisms() {
        return (offered().replace(", ", "\0") + "\0\0").getBytes(StandardCharsets.UTF_8);
    }

    private String offered() {
        return serverEndPoint == null
                ? ScramExchange.MECHANISM
                : ScramExchange.MECHANISM_PLUS + ", " + ScramExchange.MECHANISM;
    }

    /** The next message, which must be a SASL response ('p'). */
    private PgInput.Body next(String what) throws IOException {
        PgInput.Message m = in.readMessage(MAX_SASL_BYTES);
        if (m == null) {
            throw new java.io.EOFException("the client went away during authentication");
        }
        if (m.type() != 'p') {
            throw PgProtocolException.malformed("expected " + what
                    + " (message type 'p') during authentication, got message type " + (int) m.type());
        }
        return m.body();
    }

    private static String text(byte[] bytes) {
        return PgInput.utf8(bytes);
    }

    /** Runs a step of the exchange, its refusals becoming FATAL errors of their SQLSTATE. */
    private static <T> T run(java.util.function.Supplier<T> step) {
        try {
            return step.get();
        } catch (NumacubeException e) {
            throw new PgProtocolException(e.code(), e.getMessage(), true);
        }
    }
}
