package io.numacube.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import io.numacube.server.auth.Identity;
import io.numacube.server.auth.LoginThrottle;
import io.numacube.server.auth.PasswordCheck;
import io.numacube.server.auth.WebSessions;
import io.numacube.server.query.ClientError;
import java.io.IOException;
import java.time.Duration;

/**
 * The login form's endpoints, on a server with users:
 *
 * <ul>
 *   <li>{@code POST /v1/login}, {@code application/json} {@code {"user", "password"}} (JSON only, so that no other
 *       site's HTML form can post it): 200 {@code {"user", "role", "csrf_token"}} and the session cookie
 *       ({@link SessionCookie}); a wrong password or an unknown user is one 401 (28P01) that does not say which;
 *       after {@link LoginThrottle#FREE_FAILURES} failures in a row from one address, 429 with {@code Retry-After}
 *       until the wait is over, the password not even checked;
 *   <li>{@code POST /v1/logout}: ends the cookie's session (with its CSRF token, as every state-changing request made
 *       with the cookie) and clears the cookie;
 *   <li>{@code GET /v1/session}: who the request acts as ({@code {"user", "role", "via"}}, {@code via} being
 *       {@code session}, {@code basic} or {@code none}) and, for a session, its {@code csrf_token}.
 * </ul>
 *
 * Thread-safe.
 */
final class LoginEndpoints {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BODY_BYTES = 8192;

    private final PasswordCheck passwords;
    private final WebSessions sessions;
    private final LoginThrottle throttle;

    LoginEndpoints(PasswordCheck passwords, WebSessions sessions, LoginThrottle throttle) {
        this.passwords = passwords;
        this.sessions = sessions;
        this.throttle = throttle;
    }

    Reply login(HttpExchange ex) throws IOException {
        String client = ex.getRemoteAddress().getAddress().getHostAddress();
        Duration wait = throttle.waitFor(client).orElse(null);
        if (wait != null) {
            long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
            ex.getResponseHeaders().set("Retry-After", Long.toString(seconds));
            throw new HttpError(
                    429,
                    "28P01",
                    "too many failed logins from this address: wait " + seconds + " s before the next attempt");
        }
        String[] credentials = credentials(ex);
        Identity who = passwords.check(credentials[0], credentials[1]).orElse(null);
        if (who == null) {
            throttle.failed(client);
            throw new HttpError(401, "28P01", "wrong user name or password");
        }
        throttle.succeeded(client);
        WebSessions.Session s = sessions.create(who);
        SessionCookie.set(ex, s.id(), sessions.lifetime());
        return Reply.ok(g -> describe(g, s.identity(), "session", s.csrfToken()));
    }

    /** Ends the request's session, if its cookie names one, and clears the cookie: {@code {"logged_out": true}}. */
    Reply logout(HttpExchange ex) {
        sessions.end(SessionCookie.value(ex));
        SessionCookie.clear(ex);
        return loggedOut(true);
    }

    /** A logout made without a session (HTTP Basic, or no users): nothing to end, {@code {"logged_out": false}}. */
    static Reply noSessionToEnd() {
        return loggedOut(false);
    }

    private static Reply loggedOut(boolean ended) {
        return Reply.ok(g -> {
            g.writeStartObject();
            g.writeBooleanField("logged_out", ended);
            g.writeEndObject();
        });
    }

    /** {@code GET /v1/session} for a request that acts as {@code who} through {@code session} (null: not a session). */
    static Reply session(Identity who, WebSessions.Session session, boolean users) {
        String via = !users ? "none" : session != null ? "session" : "basic";
        return Reply.ok(g -> describe(g, who, via, session == null ? null : session.csrfToken()));
    }

    private static void describe(com.fasterxml.jackson.core.JsonGenerator g, Identity who, String via, String token)
            throws IOException {
        g.writeStartObject();
        g.writeStringField("user", who.user());
        g.writeStringField("role", who.role().text());
        g.writeStringField("via", via);
        if (token != null) {
            g.writeStringField("csrf_token", token);
        }
        g.writeEndObject();
    }

    /** The user and password of a login's JSON body. */
    private static String[] credentials(HttpExchange ex) throws IOException {
        if (!RequestBody.mediaType(ex).equals("application/json")) {
            throw new HttpError(
                    415,
                    ClientError.NOT_SUPPORTED,
                    "unsupported Content-Type: type=" + RequestBody.mediaType(ex)
                            + " — send application/json {\"user\": ..., \"password\": ...}");
        }
        JsonNode root;
        try {
            root = io.numacube.server.query.JsonSyntax.readOne(
                    JSON, RequestBody.utf8(RequestBody.read(ex, MAX_BODY_BYTES)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new HttpError(
                    400,
                    ClientError.PROTOCOL_VIOLATION,
                    "the body is not JSON: " + io.numacube.server.query.JsonSyntax.problem(e));
        }
        JsonNode user = root == null ? null : root.get("user");
        JsonNode password = root == null ? null : root.get("password");
        if (user == null || !user.isTextual() || password == null || !password.isTextual()) {
            throw new HttpError(
                    400, ClientError.PROTOCOL_VIOLATION, "the body needs \"user\" and \"password\", both strings");
        }
        return new String[] {user.asText(), password.asText()};
    }
}
