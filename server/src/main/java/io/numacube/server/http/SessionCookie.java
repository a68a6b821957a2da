package io.numacube.server.http;

import com.sun.net.httpserver.HttpExchange;
import java.time.Duration;
import java.util.List;

/**
 * The browser session's cookie, {@code numacube_session}: its value is a {@link io.numacube.server.auth.WebSessions}
 * id. Set {@code HttpOnly} (scripts cannot read it), {@code SameSite=Strict} (no other site's page makes the browser
 * send it), {@code Path=/}, with a {@code Max-Age} of the session's lifetime, and {@code Secure} when the request came
 * over TLS. The server has no TLS of its own yet: a request counts as TLS when a TLS-terminating proxy in front says
 * so ({@code X-Forwarded-Proto: https}), which can only add {@code Secure}. Stateless.
 */
final class SessionCookie {

    static final String NAME = "numacube_session";

    private SessionCookie() {}

    /** The session id the request's {@code Cookie} headers carry, or null. */
    static String value(HttpExchange ex) {
        List<String> headers = ex.getRequestHeaders().get("Cookie");
        if (headers == null) {
            return null;
        }
        for (String header : headers) {
            for (String pair : header.split(";")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.substring(0, eq).strip().equals(NAME)) {
                    String v = pair.substring(eq + 1).strip();
                    return v.isEmpty() ? null : v;
                }
            }
        }
        return null;
    }

    /** Sets the cookie to {@code id} for {@code maxAge}. */
    static void set(HttpExchange ex, String id, Duration maxAge) {
        ex.getResponseHeaders().add("Set-Cookie", header(id, maxAge.toSeconds(), overTls(ex)));
    }

    /** Tells the browser to forget the cookie (a logout). */
    static void clear(HttpExchange ex) {
        ex.getResponseHeaders().add("Set-Cookie", header("", 0, overTls(ex)));
    }

    static String header(String id, long maxAgeSeconds, boolean secure) {
        return NAME + "=" + id + "; Path=/; Max-Age=" + maxAgeSeconds + "; HttpOnly; SameSite=Strict"
                + (secure ? "; Secure" : "");
    }

    static boolean overTls(HttpExchange ex) {
        String proto = ex.getRequestHeaders().getFirst("X-Forwarded-Proto");
        return ex instanceof com.sun.net.httpserver.HttpsExchange
                || (proto != null && proto.strip().equalsIgnoreCase("https"));
    }
}
