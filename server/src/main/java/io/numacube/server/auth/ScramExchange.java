package io.numacube.server.auth;

import io.numacube.numa.base.NumacubeException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The server's side of one SCRAM-SHA-256 or SCRAM-SHA-256-PLUS exchange (RFC 5802, RFC 7677, RFC 5929), as PostgreSQL
 * runs it:
 *
 * <pre>
 * client-first  n,,n=USER,r=CNONCE              (gs2 header n or y: no channel binding; no authorization identity;
 *                                                p=tls-server-end-point,, with -PLUS)
 * server-first  r=CNONCE SNONCE,s=SALT,i=ITERATIONS                        {@link #serverFirst}
 * client-final  c=biws,r=CNONCE SNONCE,p=PROOF     (c= base64 of the gs2 header, then with -PLUS the binding data)
 * server-final  v=SERVERSIGNATURE, only when the proof is right            {@link #serverFinal}
 * </pre>
 *
 * The user is the one the caller names (PostgreSQL's startup user); the name in the client's first message is ignored,
 * as PostgreSQL does. A proof is right when {@code SHA-256(PROOF xor HMAC(StoredKey, AuthMessage))} equals the
 * user's StoredKey, compared in constant time. An unknown user goes through the same steps against a mock verifier
 * ({@link UserDirectory}) and fails at the end, as a wrong password does. A malformed message is a
 * {@link NumacubeException} with SQLSTATE 08P01 (0A000 for an authorization identity or a mandatory extension).
 *
 * <p>Channel binding: over TLS the caller gives the connection's {@code tls-server-end-point} data and which mechanism
 * the client chose. With -PLUS, the gs2 header must name {@code tls-server-end-point} and the final message must carry
 * the same data as the server's own certificate gives, or the exchange fails (08P01): a proof relayed by a man in the
 * middle, who holds another certificate, does not bind. Without -PLUS, a client saying {@code y} (it could bind but
 * thinks the server cannot) to a server that can is refused as a downgrade, as PostgreSQL does.
 *
 * <p>Not thread-safe: one connection's thread runs it, first then final, once.
 */
public final class ScramExchange {

    /** The mechanism's name in AuthenticationSASL. */
    public static final String MECHANISM = "SCRAM-SHA-256";

    /** The mechanism with channel binding, offered over TLS. */
    public static final String MECHANISM_PLUS = "SCRAM-SHA-256-PLUS";

    /** The gs2 header of a client binding to {@code tls-server-end-point}. */
    private static final String PLUS_HEADER = "p=tls-server-end-point,";

    private static final int SERVER_NONCE_BYTES = 18;

    private final UserDirectory users;
    private final String user;
    private final Supplier<String> serverNonce;
    private final byte[] serverEndPoint;
    private final boolean plus;
    private ScramVerifier verifier;
    private String gs2Header;
    private String clientFirstBare;
    private String serverFirst;
    private String nonce;

    /** Without channel binding (no TLS). @param random makes the server's nonce: 18 bytes, in base64 */
    public ScramExchange(UserDirectory users, String user, SecureRandom random) {
        this(users, user, random, null, false);
    }

    /**
     * @param serverEndPoint the connection's {@code tls-server-end-point} binding data, or null when it has none
     * @param plus           whether the client chose {@link #MECHANISM_PLUS} (only where there is binding data)
     */
    public ScramExchange(UserDirectory users, String user, SecureRandom random, byte[] serverEndPoint, boolean plus) {
        this(
                users,
                user,
                () -> {
                    byte[] nonce = new byte[SERVER_NONCE_BYTES];
                    random.nextBytes(nonce);
                    return Base64.getEncoder().encodeToString(nonce);
                },
                serverEndPoint,
                plus);
    }

    /** With the server's nonce given, for RFC 7677's test vector. */
    ScramExchange(UserDirectory users, String user, Supplier<String> serverNonce) {
        this(users, user, serverNonce, null, false);
    }

    /** With the server's nonce given, and channel binding. */
    ScramExchange(UserDirectory users, String user, Supplier<String> serverNonce, byte[] serverEndPoint, boolean plus) {
        if (plus && serverEndPoint == null) {
            throw new IllegalArgumentException("SCRAM-SHA-256-PLUS needs the connection's channel binding data");
        }
        this.users = users;
        this.user = user;
        this.serverNonce = serverNonce;
        this.serverEndPoint = serverEndPoint == null ? null : serverEndPoint.clone();
        this.plus = plus;
    }

    /** The server-first-message answering the client-first-message. */
    public String serverFirst(String clientFirst) {
        if (serverFirst != null) {
            throw new IllegalStateException("serverFirst runs once per exchange");
        }
        int bare = gs2HeaderEnd(clientFirst);
        gs2Header = clientFirst.substring(0, bare);
        clientFirstBare = clientFirst.substring(bare);
        List<String> attrs = List.of(clientFirstBare.split(",", -1));
        if (attrs.getFirst().startsWith("m=")) {
            throw error("0A000", "client requires an unsupported SCRAM extension");
        }
        if (attrs.size() < 2 || !attrs.get(0).startsWith("n=") || !attrs.get(1).startsWith("r=")) {
            throw malformed("expected n=USER,r=NONCE after the gs2 header");
        }
        String clientNonce = attrs.get(1).substring(2);
        if (clientNonce.isEmpty() || !clientNonce.chars().allMatch(c -> c > 0x20 && c < 0x7F && c != ',')) {
            throw malformed("the client's nonce is empty or has other than printable ASCII characters");
        }
        attrs.subList(2, attrs.size()).forEach(ScramExchange::attribute);
        nonce = clientNonce + serverNonce.get();
        verifier = users.verifierOrMock(user);
        serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(verifier.salt()) + ",i="
                + verifier.iterations();
        return serverFirst;
    }

    /**
     * The server-final-message ({@code v=...}) when the client's proof is right, or empty when it is not or the user
     * is unknown: authentication failed.
     */
    public Optional<String> serverFinal(String clientFinal) {
        if (serverFirst == null || verifier == null) {
            throw new IllegalStateException("serverFinal runs once, after serverFirst");
        }
        int proofAt = clientFinal.lastIndexOf(",p=");
        if (!clientFinal.startsWith("c=") || proofAt < 0) {
            throw malformed("expected c=CHANNEL-BINDING,r=NONCE,...,p=PROOF");
        }
        String withoutProof = clientFinal.substring(0, proofAt);
        List<String> attrs = List.of(withoutProof.split(",", -1));
        if (attrs.size() < 2 || !attrs.get(1).startsWith("r=")) {
            throw malformed("expected the nonce after the channel binding");
        }
        byte[] binding = base64(attrs.get(0).substring(2), "channel binding");
        if (!ScramMath.equal(binding, expectedBinding())) {
            throw malformed(
                    plus
                            ? "the channel binding does not match the server's certificate (tls-server-end-point)"
                            : "the channel binding does not repeat the gs2 header of the client's first message");
        }
        if (!attrs.get(1).substring(2).equals(nonce)) {
            throw malformed("the nonce does not match");
        }
        attrs.subList(2, attrs.size()).forEach(ScramExchange::attribute);
        byte[] proof = base64(clientFinal.substring(proofAt + 3), "proof");
        if (proof.length != ScramMath.KEY_BYTES) {
            throw malformed("the proof is not 32 bytes: bytes=" + proof.length);
        }
        byte[] authMessage =
                (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        byte[] clientKey = ScramMath.xor(proof, ScramMath.hmac(verifier.storedKey(), authMessage));
        boolean right = ScramMath.equal(ScramMath.sha256(clientKey), verifier.storedKey());
        byte[] serverSignature = ScramMath.hmac(verifier.serverKey(), authMessage);
        verifier = null;
        if (!right || users.find(user).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("v=" + Base64.getEncoder().encodeToString(serverSignature));
    }

    /** What the client-final-message's {@code c=} must decode to: the gs2 header, then any binding data. */
    private byte[] expectedBinding() {
        byte[] header = gs2Header.getBytes(StandardCharsets.UTF_8);
        if (!plus) {
            return header;
        }
        byte[] all = java.util.Arrays.copyOf(header, header.length + serverEndPoint.length);
        System.arraycopy(serverEndPoint, 0, all, header.length, serverEndPoint.length);
        return all;
    }

    /** Where the client-first-message-bare starts, after {@code n,,}, {@code y,,} or {@code p=tls-server-end-point,,}. */
    private int gs2HeaderEnd(String clientFirst) {
        int flagEnd = plusHeaderEnd(clientFirst);
        if (flagEnd < 0) {
            if (!clientFirst.startsWith("n,") && !clientFirst.startsWith("y,")) {
                throw malformed("expected the gs2 header n,, or y,, (no channel binding)");
            }
            if (clientFirst.startsWith("y,") && serverEndPoint != null) {
                throw malformed("SCRAM channel binding negotiation error: the client supports SCRAM channel binding"
                        + " but thinks the server does not; this server does support channel binding");
            }
            flagEnd = 2;
        }
        int second = clientFirst.indexOf(',', flagEnd);
        if (second < 0) {
            throw malformed("the gs2 header does not end");
        }
        if (second > flagEnd) {
            throw error("0A000", "client uses authorization identity, but it is not supported");
        }
        return second + 1;
    }

    /** Where the gs2 header's channel binding flag ends when the client chose -PLUS (its header checked), else -1. */
    private int plusHeaderEnd(String clientFirst) {
        if (!plus) {
            if (clientFirst.startsWith("p")) {
                throw malformed("the client selected SCRAM-SHA-256 without channel binding, but the SCRAM message "
                        + "includes channel binding data");
            }
            return -1;
        }
        if (!clientFirst.startsWith("p=")) {
            throw malformed("the client selected SCRAM-SHA-256-PLUS, but the SCRAM message does not include channel"
                    + " binding data");
        }
        if (!clientFirst.startsWith(PLUS_HEADER)) {
            int end = clientFirst.indexOf(',');
            throw malformed("unsupported SCRAM channel-binding type \""
                    + clientFirst.substring(2, end < 0 ? clientFirst.length() : end)
                    + "\" (tls-server-end-point only)");
        }
        return PLUS_HEADER.length();
    }

    private static void attribute(String attr) {
        char name = attr.isEmpty() ? ' ' : Character.toLowerCase(attr.charAt(0));
        if (attr.length() < 2 || name < 'a' || name > 'z' || attr.charAt(1) != '=') {
            throw malformed("expected an attribute X=VALUE");
        }
    }

    private static byte[] base64(String text, String what) {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw malformed("the " + what + " is not base64");
        }
    }

    private static NumacubeException malformed(String detail) {
        return error("08P01", "malformed SCRAM message: " + detail);
    }

    private static NumacubeException error(String sqlState, String message) {
        return new NumacubeException(NumacubeException.Kind.INVALID_INPUT, sqlState, message, null, null);
    }
}
