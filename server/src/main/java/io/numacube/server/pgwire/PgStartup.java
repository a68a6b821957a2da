package io.numacube.server.pgwire;

import io.numacube.server.auth.Identity;
import io.numacube.server.auth.UserDirectory;
import io.numacube.server.query.ClientError;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A connection's startup phase, as PostgreSQL runs it: an SSLRequest is answered {@code S} when the server has a
 * certificate (the connection then {@linkplain #wantsTls wants TLS}: its caller runs the handshake and a new startup
 * over the encrypted streams), else {@code N}, as a GSSENCRequest always is, and the client goes on in the clear; a
 * server with a certificate refuses a StartupMessage in the clear (FATAL 28000) and a second SSLRequest (FATAL 08P01);
 * a CancelRequest, which clients send in the clear, is taken either way; a CancelRequest cancels the query of the connection it names
 * and closes; a StartupMessage of protocol 3.x (a newer minor version or {@code _pq_.} options are answered with
 * NegotiateProtocolVersion) is authenticated when the server has users ({@link SaslAuthentication}: SCRAM-SHA-256,
 * FATAL 28P01 for a wrong password or unknown user) and otherwise taken at its word (the server then listens on
 * loopback only); then a session opens, with AuthenticationOk, the reported parameters, BackendKeyData and
 * ReadyForQuery. A session slot is taken only once the client is authenticated. Any other protocol is refused with
 * FATAL 0A000. Not thread-safe: runs on the connection's thread.
 */
final class PgStartup {

    static final int SSL_REQUEST = 80_877_103;
    static final int GSSENC_REQUEST = 80_877_104;
    static final int CANCEL_REQUEST = 80_877_102;
    static final int PROTOCOL_3 = 3;

    private final PgInput in;
    private final PgOutput out;
    private final PgServer server;
    private final PgConnection connection;
    private final boolean encrypted;
    private boolean wantsTls;

    /**
     * @param encrypted whether {@code in} and {@code out} run over TLS already
     */
    PgStartup(PgInput in, PgOutput out, PgServer server, PgConnection connection, boolean encrypted) {
        this.in = in;
        this.out = out;
        this.server = server;
        this.connection = connection;
        this.encrypted = encrypted;
    }

    /** Whether {@link #run} ended on an SSLRequest answered {@code S}: the TLS handshake comes next. */
    boolean wantsTls() {
        return wantsTls;
    }

    /**
     * The new session, or null when the connection ends here (end of stream, a cancel request) or goes on over TLS
     * ({@link #wantsTls}).
     */
    Session run() throws IOException {
        while (true) {
            PgInput.Body packet = in.readStartupPacket();
            if (packet == null) {
                return null;
            }
            int code = packet.int32();
            switch (code) {
                case SSL_REQUEST -> {
                    if (encrypted) {
                        throw new PgProtocolException("08P01", "SSLRequest on a connection encrypted already", true);
                    }
                    if (server.settings().tls() != null) {
                        out.rawByte('S');
                        wantsTls = true;
                        return null;
                    }
                    out.rawByte('N');
                }
                case GSSENC_REQUEST -> out.rawByte('N');
                case CANCEL_REQUEST -> {
                    int processId = packet.int32();
                    int secret = packet.int32();
                    server.cancel(processId, secret);
                    return null;
                }
                default -> {
                    return startup(code, packet);
                }
            }
        }
    }

    /**
     * PostgreSQL's {@code cert} authentication: a client that sent a certificate the server verified logs in, without
     * a password, as the user its CN names, which must be the startup user and a user of the auth file; otherwise
     * FATAL 28000, as PostgreSQL says it.
     */
    private static Identity certificateLogin(UserDirectory users, String user, String certified) {
        if (!certified.equals(user) || users.find(user).isEmpty()) {
            throw new PgProtocolException(
                    "28000",
                    "certificate authentication failed for user \"" + user + "\" — the client certificate is for CN="
                            + certified + (certified.equals(user) ? ", who is not a user of the server" : ""),
                    true);
        }
        return users.find(user).orElseThrow().identity();
    }

    private Session startup(int version, PgInput.Body packet) throws IOException {
        int major = version >>> 16;
        int minor = version & 0xFFFF;
        if (major != PROTOCOL_3) {
            throw new PgProtocolException(
                    ClientError.NOT_SUPPORTED,
                    "unsupported frontend protocol " + major + "." + minor + ": server supports 3.0 to 3.0",
                    true);
        }
        Map<String, String> params = new LinkedHashMap<>();
        List<String> unrecognized = new ArrayList<>();
        while (true) {
            String name = packet.remaining() > 0 ? packet.cstring() : null;
            if (name == null || name.isEmpty() && packet.remaining() > 0) {
                throw new PgProtocolException(
                        ClientError.PROTOCOL_VIOLATION,
                        "invalid startup packet layout: expected terminator as last byte",
                        true);
            }
            if (name.isEmpty()) {
                break;
            }
            String value = packet.cstring();
            if (name.startsWith("_pq_.")) {
                unrecognized.add(name);
            } else {
                params.put(name, value);
            }
        }
        String user = params.get("user");
        if (user == null || user.isEmpty()) {
            throw new PgProtocolException("28000", "no PostgreSQL user name specified in startup packet", true);
        }
        if (minor > 0 || !unrecognized.isEmpty()) {
            out.negotiateProtocolVersion(0, unrecognized);
        }
        if (server.settings().tls() != null && !encrypted) {
            throw new PgProtocolException(
                    "28000",
                    "no encryption: this server accepts TLS connections only, user \"" + user + "\" — connect with"
                            + " sslmode=require (or verify-full with the server's certificate)",
                    true);
        }
        UserDirectory users = server.settings().users();
        String certified = users == null ? null : connection.clientCertificateUser();
        Identity identity = users == null
                ? Identity.unauthenticated(user)
                : certified != null
                        ? certificateLogin(users, user, certified)
                        : new SaslAuthentication(in, out, users, server.random(), connection.tlsServerEndPoint())
                                .authenticate(user);
        Session session = server.open(connection, identity, params.getOrDefault("database", user), params);
        out.authenticationOk();
        for (Map.Entry<String, String> p : session.settings.reported().entrySet()) {
            out.parameterStatus(p.getKey(), p.getValue());
        }
        out.backendKeyData(session.processId, server.secretOf(session.processId));
        out.readyForQuery(session.status());
        return session;
    }
}
