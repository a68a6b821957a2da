package io.numacube.server.http;

import com.sun.net.httpserver.HttpExchange;
import io.numacube.server.auth.Identity;
import io.numacube.server.auth.UserDirectory;
import io.numacube.server.auth.WebSessions;
import java.util.Locale;
import java.util.Set;

/**
 * Who a request acts as on a server with users, by one of three means:
 *
 * <ul>
 *   <li>a client certificate the TLS handshake verified against {@code serve --tls-client-ca}: the user its CN names
 *       (401, 28000, when that is no user); it wins over the others, as the connection itself proves it. A browser
 *       presents it to any site's request, as it sends a cookie, so a request that may change state and that a
 *       browser says comes from another site ({@link #isCrossSite}) is refused with 403;
 *   <li>an {@code Authorization: Basic} header ({@link BasicAuthentication}), as curl and other clients send it; it
 *       wins when both are there, and works as it always did;
 *   <li>the session cookie ({@link SessionCookie}) of a login through the form ({@link LoginEndpoints}). A request
 *       made with it that may change state (any method but GET, HEAD and OPTIONS) must carry the session's CSRF token
 *       in {@value #CSRF_HEADER}, or is refused with 403 (SQLSTATE 42501) before anything is read: another site can
 *       make a browser send the cookie (SameSite aside) but cannot read the token. An unknown or expired session is
 *       401 (28000) with a challenge no browser prompts for, so that the page can send the user to the form.
 * </ul>
 *
 * A browser's page request without either ({@code GET} or {@code HEAD} of a page path, {@code Accept: text/html}) is
 * sent to the login form (303 to {@code /login.html?next=PATH}); a page's script request without either ({@code
 * Sec-Fetch-Mode} other than {@code navigate}, which only browsers send) is 401 with the session challenge, so that the
 * browser does not prompt for a Basic password and the page sends the user to the form; any other request without
 * either is Basic's 401, as before. The login form's own files and {@code POST /v1/login} need neither ({@link #isPublic}). Thread-safe.
 */
final class RequestAuthentication {

    static final String CSRF_HEADER = "X-CSRF-Token";

    /** What a request needs no credentials for: the login form and its files, the login itself. */
    private static final Set<String> PUBLIC_PATHS = Set.of("/login.html", "/login.js", "/login.css", "/v1/login");

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    private final BasicAuthentication basic;
    private final UserDirectory users;
    private final WebSessions sessions;

    RequestAuthentication(BasicAuthentication basic, WebSessions sessions, UserDirectory users) {
        this.basic = basic;
        this.sessions = sessions;
        this.users = users;
    }

    /**
     * Whether a browser says the request comes from another site: {@code Sec-Fetch-Site} other than {@code
     * same-origin} or {@code none}, or (without {@code Sec-Fetch-Site: same-origin}, which a browser alone sets and a
     * proxy that rewrites {@code Host} keeps) an {@code Origin} whose host is not the request's {@code Host}. Clients
     * that are not browsers send neither.
     */
    static boolean isCrossSite(HttpExchange ex) {
        String site = ex.getRequestHeaders().getFirst("Sec-Fetch-Site");
        if (site != null && !site.equals("same-origin") && !site.equals("none")) {
            return true;
        }
        if ("same-origin".equals(site)) {
            // the browser's own word, which no page can forge: a proxy may have rewritten Host
            return false;
        }
        String origin = ex.getRequestHeaders().getFirst("Origin");
        String host = ex.getRequestHeaders().getFirst("Host");
        if (origin == null) {
            return false;
        }
        try {
            java.net.URI o = java.net.URI.create(origin);
            return host == null
                    || o.getRawAuthority() == null
                    || !o.getRawAuthority().equalsIgnoreCase(host);
        } catch (IllegalArgumentException e) {
            return true;
        }
    }

    static boolean isPublic(String path) {
        return PUBLIC_PATHS.contains(path);
    }

    /** @throws HttpError 401, 403 (no or a wrong CSRF token), or 303 to the login form for a browser's page */
    Identity authenticate(HttpExchange ex, String path) {
        if (ex instanceof com.sun.net.httpserver.HttpsExchange https
                && io.numacube.server.tls.ClientCertificate.commonName(https.getSSLSession()) instanceof String cn) {
            Identity identity = users.find(cn)
                    .orElseThrow(() -> new HttpError(
                            401,
                            "28000",
                            "certificate authentication failed: the client certificate is for CN=" + cn
                                    + ", who is not a user of the server"))
                    .identity();
            if (!SAFE_METHODS.contains(ex.getRequestMethod()) && isCrossSite(ex)) {
                throw new HttpError(
                        403,
                        Identity.INSUFFICIENT_PRIVILEGE,
                        "a " + ex.getRequestMethod() + " from another site is not taken on a client certificate: a"
                                + " browser presents the certificate to any site's request, as it sends a cookie");
            }
            return identity;
        }
        if (ex.getRequestHeaders().getFirst("Authorization") != null) {
            return basic.authenticate(ex);
        }
        String id = SessionCookie.value(ex);
        WebSessions.Session s = id == null ? null : sessions.find(id).orElse(null);
        if (s == null) {
            if (isPageRequest(ex, path)) {
                throw toLoginForm(ex, path);
            }
            if (id == null && !isScriptRequest(ex)) {
                return basic.authenticate(ex);
            }
            ex.getResponseHeaders().set("WWW-Authenticate", "Session realm=\"numacube\", login=\"/login.html\"");
            throw new HttpError(
                    401,
                    "28000",
                    id == null
                            ? "authentication required: log in at /login.html (or use HTTP Basic)"
                            : "the session expired or ended: log in again at /login.html (or use HTTP Basic)");
        }
        if (!SAFE_METHODS.contains(ex.getRequestMethod())
                && !s.csrfTokenIs(ex.getRequestHeaders().getFirst(CSRF_HEADER))) {
            throw new HttpError(
                    403,
                    Identity.INSUFFICIENT_PRIVILEGE,
                    "CSRF token missing or wrong: a " + ex.getRequestMethod() + " made with the session cookie must"
                            + " carry the session's token in the " + CSRF_HEADER + " header (GET /v1/session has it)");
        }
        return s.identity();
    }

    /** The session a request's cookie names, when live; null otherwise. */
    WebSessions.Session session(HttpExchange ex) {
        return sessions.find(SessionCookie.value(ex)).orElse(null);
    }

    private static boolean isPageRequest(HttpExchange ex, String path) {
        String method = ex.getRequestMethod();
        String accept = ex.getRequestHeaders().getFirst("Accept");
        return (method.equals("GET") || method.equals("HEAD"))
                && !path.startsWith("/v1/")
                && !path.equals("/metrics")
                && accept != null
                && accept.toLowerCase(Locale.ROOT).contains("text/html");
    }

    /** A browser's fetch, XMLHttpRequest or EventSource: browsers tell their mode, other clients send nothing. */
    private static boolean isScriptRequest(HttpExchange ex) {
        String mode = ex.getRequestHeaders().getFirst("Sec-Fetch-Mode");
        return mode != null && !mode.equalsIgnoreCase("navigate");
    }

    private static HttpError toLoginForm(HttpExchange ex, String path) {
        String query = ex.getRequestURI().getRawQuery();
        String next = path + (query == null ? "" : "?" + query);
        ex.getResponseHeaders()
                .set(
                        "Location",
                        "/login.html?next="
                                + java.net.URLEncoder.encode(next, java.nio.charset.StandardCharsets.UTF_8));
        return new HttpError(303, "28000", "log in first: this server has users — the form is at /login.html");
    }
}
