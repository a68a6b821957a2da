package io.numacube.server.http;

import com.sun.net.httpserver.HttpExchange;
import io.numacube.server.auth.Identity;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a page of another site may not make a browser do to this server, whatever credentials the browser holds:
 *
 * <ul>
 *   <li>a request that may change state (any method but GET, HEAD and OPTIONS) that the browser says comes from
 *       another site ({@link RequestAuthentication#isCrossSite}) is refused with 403 (42501) before it is read. A
 *       browser sends a {@code text/plain} POST to any address without asking first (a "simple" request, and a plain
 *       HTML form can send one), so without this any site a user opened could run {@code DELETE FROM t} on a server
 *       without users on the user's machine, or on one whose HTTP Basic password the browser remembers;
 *   <li>without users (the server then listens on loopback only), a request whose {@code Host} is not a loopback name
 *       ({@code localhost}, {@code *.localhost}) or an IP address is refused with 403 (42501): a site whose name its
 *       DNS points at 127.0.0.1 after the page loaded (DNS rebinding) is the same origin as this server to the
 *       browser, and could read and write everything. With users, such a page holds no credentials of this server.
 * </ul>
 *
 * Clients that are not browsers send no {@code Sec-Fetch-Site} or {@code Origin}, and name the address they connect
 * to; they are not affected. Stateless.
 */
final class BrowserGuard {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private BrowserGuard() {}

    /** @throws HttpError 403 for a cross-site write, or, when {@code withUsers} is false, a name not of loopback */
    static void check(HttpExchange ex, boolean withUsers) {
        if (!SAFE_METHODS.contains(ex.getRequestMethod()) && RequestAuthentication.isCrossSite(ex)) {
            throw new HttpError(
                    403,
                    Identity.INSUFFICIENT_PRIVILEGE,
                    "a " + ex.getRequestMethod() + " from another site's page is refused: origin="
                            + ex.getRequestHeaders().getFirst("Origin") + " host="
                            + ex.getRequestHeaders().getFirst("Host")
                            + " — a browser sends it without asking; send it from this server's own page or a client"
                            + " that is not a browser");
        }
        String host = ex.getRequestHeaders().getFirst("Host");
        if (!withUsers && host != null && !isLoopbackNameOrAddress(host)) {
            throw new HttpError(
                    403,
                    Identity.INSUFFICIENT_PRIVILEGE,
                    "a request for host=" + host + " is refused: a server without users (serve --auth-file) answers"
                            + " requests for localhost or an IP address only, so that another site's page cannot reach"
                            + " it through a name of its own that points here (DNS rebinding) — use"
                            + " http://127.0.0.1:PORT/ or http://localhost:PORT/");
        }
    }

    /** Whether a Host header names localhost, a name under .localhost, or an IP address (with or without a port). */
    static boolean isLoopbackNameOrAddress(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end > 0 && (end == h.length() - 1 || h.charAt(end + 1) == ':');
        }
        int colon = h.lastIndexOf(':');
        String name = colon >= 0 ? h.substring(0, colon) : h;
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        return name.equals("localhost")
                || name.endsWith(".localhost")
                || IPV4.matcher(name).matches();
    }
}
