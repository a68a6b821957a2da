package io.numacube.server.http;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pivot page served at {@code /}: {@code index.html}, {@code app.css}, the page's ES modules ({@code app.js} and
 * the modules it imports: {@code sql.js}, {@code model.js}, {@code grid.js}, ...), the placement view ({@code
 * placement.html}, {@code placement.js}), the login form ({@code login.html}, {@code login.js}), the session script
 * both pages load ({@code session.js}) and the vendored libraries under {@code vendor/}, read from the classpath
 * folder {@code io/numacube/server/web/} (so the Maven build and the server need no Node). Only files with a known
 * type are served; any other path is not found here.
 *
 * <p>Every answer carries a Content-Security-Policy that forbids inline scripts and styles, {@code eval} and other
 * origins (scripts, styles, images and fetches come from this server only; the libraries set styles through the DOM,
 * which the policy allows), {@code X-Content-Type-Options: nosniff}, and cache headers: the
 * page itself is revalidated on every load ({@code no-cache}) so a new server's page is seen at once, the vendored
 * libraries, whose content changes only with their pinned version, are cached for a day.
 *
 * <p>Thread-safe: the files found are read once and kept (about 1.6 MB); names not found are looked up again each
 * time, never kept.
 */
final class WebPage {

    /** The policy sent with every file of the page. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; "
            + "form-action 'self'; frame-ancestors 'none'";

    private static final String ROOT = "/io/numacube/server/web/";
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "png", "image/png",
            "svg", "image/svg+xml");

    /** The files found so far; a miss is not kept, so that requests for ever new names cannot fill the heap. */
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();

    /**
     * Answers {@code GET path} when it names a file of the page, and returns true; returns false, sending nothing,
     * when it does not (the caller then answers 404).
     */
    boolean serve(HttpExchange ex, String path) throws IOException {
        String name = path.equals("/") ? "index.html" : path.substring(1);
        String type = type(name);
        if (type == null) {
            return false;
        }
        byte[] bytes = files.get(name);
        if (bytes == null) {
            Optional<byte[]> found = read(name);
            if (found.isEmpty()) {
                return false;
            }
            bytes = found.get();
            files.putIfAbsent(name, bytes);
        }
        try (ex) {
            var h = ex.getResponseHeaders();
            h.set("Content-Type", type);
            h.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
            h.set("X-Content-Type-Options", "nosniff");
            h.set("Referrer-Policy", "no-referrer");
            h.set("Cache-Control", name.startsWith("vendor/") ? "public, max-age=86400" : "no-cache");
            boolean head = ex.getRequestMethod().equals("HEAD");
            ex.sendResponseHeaders(200, head ? -1 : bytes.length);
            if (!head) {
                ex.getResponseBody().write(bytes);
            }
        } catch (IOException e) {
            // the browser went away
        }
        return true;
    }

    /** How many files are kept in memory: those of the page that were asked for, never a name that was not found. */
    int keptFiles() {
        return files.size();
    }

    /** The Content-Type of a file the page may serve, or null: no hidden files, no climbing out of the folder. */
    static String type(String name) {
        if (name.isEmpty()
                || name.contains("..")
                || name.contains("//")
                || name.startsWith(".")
                || name.contains("/.")
                || name.contains("\\")) {
            return null;
        }
        int dot = name.lastIndexOf('.');
        return dot < 0 ? null : TYPES.get(name.substring(dot + 1));
    }

    private static Optional<byte[]> read(String name) {
        try (InputStream in = WebPage.class.getResourceAsStream(ROOT + name)) {
            return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the page's resource: name=" + ROOT + name, e);
        }
    }
}
