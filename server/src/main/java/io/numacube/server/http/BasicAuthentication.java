package io.numacube.server.http;

import com.sun.net.httpserver.HttpExchange;
import io.numacube.server.auth.Identity;
import io.numacube.server.auth.PasswordCheck;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;

/**
 * HTTP Basic authentication (RFC 7617) of a request against the server's users ({@link PasswordCheck}): the
 * {@code Authorization: Basic base64(USER:PASSWORD)} header, UTF-8. A request without it, with a malformed one, or
 * with a wrong password or unknown user is a 401 with {@code WWW-Authenticate: Basic realm="numacube"} and SQLSTATE
 * 28000 (no or malformed credentials) or 28P01 (wrong password or unknown user, one message for both, as PostgreSQL
 * says). Thread-safe.
 */
final class BasicAuthentication {

    static final String CHALLENGE = "Basic realm=\"numacube\", charset=\"UTF-8\"";

    private final PasswordCheck passwords;

    BasicAuthentication(PasswordCheck passwords) {
        this.passwords = passwords;
    }

    /** @throws HttpError 401 when the request does not carry a known user's password */
    Identity authenticate(HttpExchange ex) {
        String header = ex.getRequestHeaders().getFirst("Authorization");
        if (header == null) {
            throw unauthorized(
                    ex,
                    "28000",
                    "authentication required: this server has users; send one's name and "
                            + "password with HTTP Basic (curl -u USER)");
        }
        String[] credentials = credentials(header);
        if (credentials == null) {
            throw unauthorized(ex, "28000", "malformed Authorization header: expected Basic base64(USER:PASSWORD)");
        }
        return passwords
                .check(credentials[0], credentials[1])
                .orElseThrow(() -> unauthorized(
                        ex, "28P01", "password authentication failed for user \"" + credentials[0] + "\""));
    }

    /** The user and password of a Basic header, or null when it is not one. */
    private static String[] credentials(String header) {
        String h = header.strip();
        if (h.length() < 6 || !h.substring(0, 6).toLowerCase(Locale.ROOT).equals("basic ")) {
            return null;
        }
        String text;
        try {
            byte[] decoded = Base64.getDecoder().decode(h.substring(6).strip());
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(decoded))
                    .toString();
        } catch (IllegalArgumentException | CharacterCodingException e) {
            return null;
        }
        int colon = text.indexOf(':');
        return colon < 0 ? null : new String[] {text.substring(0, colon), text.substring(colon + 1)};
    }

    private static HttpError unauthorized(HttpExchange ex, String sqlState, String message) {
        ex.getResponseHeaders().set("WWW-Authenticate", CHALLENGE);
        return new HttpError(401, sqlState, message);
    }
}
