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
 * A connection's startup phase, as PostgreSQL runs it: SSLRequest and GSSENCRequest are answered {@code N} (no
 * encryption yet) and the client goes on in the clear; a CancelRequest cancels the query of the connection it names
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

    PgStartup(PgInput in, PgOutput out, PgServer server, PgConnection connection) {
        this.in = in;
        this.out = out;
        this.server = server;
        this.connection = connection;
    }

    /** The new session, or null when the connection ends here (end of stream, a cancel request). */
    Session run() throws IOException {
        while (true) {
            PgInput.Body packet = in.readStartupPacket();
            if (packet == null) {
                return null;
            }
            int code = packet.int32();
            switch (code) {
                case SSL_REQUEST, GSSENC_REQUEST -> out.rawByte('N');
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
        while (packet.remaining() > 0) {
            String name = packet.cstring();
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
        UserDirectory users = server.settings().users();
        Identity identity = users == null
                ? Identity.unauthenticated(user)
                : new SaslAuthentication(in, out, users, server.random()).authenticate(user);
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
