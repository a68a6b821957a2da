package io.numacube.server.http;

import com.sun.net.httpserver.HttpExchange;
import io.numacube.engine.Cube;
import io.numacube.server.query.ClientError;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;

/**
 * {@code GET /v1/tables/NAME/events}: a table's versions as server-sent events ({@code text/event-stream}), so that a
 * page learns of a write without polling. The stream starts with the table's current version and sends one event per
 * change seen: {@code event: version} with {@code data: {"table": NAME, "version": N}}; several writes between two
 * looks are one event with the latest version. A comment line every 15 s keeps proxies from closing an idle stream.
 *
 * <p>The version is read from the cube every {@link #CHECK_MILLIS} ms on the exchange's own virtual thread (a field
 * read, no query). A stream ends when the client goes away or the server stops. Streams do not count towards
 * {@code --max-http-requests}; at most {@link #MAX_STREAMS} are open at once, one more is 503 (53300).
 *
 * <p>Thread-safe.
 */
final class VersionEvents {

    /** How often an open stream looks at the table's version. */
    static final long CHECK_MILLIS = 100;
    /** Streams open at once. */
    static final int MAX_STREAMS = 256;

    private static final long KEEPALIVE_MILLIS = 15_000;

    private final Cube cube;
    private final Semaphore streams = new Semaphore(MAX_STREAMS);

    VersionEvents(Cube cube) {
        this.cube = cube;
    }

    /**
     * Streams {@code requested}'s versions until the client leaves or {@code stopping} says so. Throws an
     * {@link HttpError} (nothing sent yet) for an unknown table or too many streams.
     */
    void stream(HttpExchange ex, String requested, BooleanSupplier stopping) throws IOException {
        String name = cube.tables().stream()
                .filter(requested::equalsIgnoreCase)
                .findFirst()
                .orElseThrow(() ->
                        new HttpError(404, "42P01", "no such table: table=" + requested + " tables=" + cube.tables()));
        if (!streams.tryAcquire()) {
            throw new HttpError(
                    503,
                    ClientError.TOO_BUSY,
                    "too many event streams at once: max=" + MAX_STREAMS
                            + " — close some pages, or poll GET /v1/tables/" + name);
        }
        try (ex) {
            ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            ex.getResponseHeaders().set("Cache-Control", "no-cache");
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            long sent = -1;
            long quietSince = System.nanoTime();
            while (!stopping.getAsBoolean()) {
                long version = cube.version(name);
                if (version != sent) {
                    write(
                            out,
                            "event: version\ndata: {\"table\":\"" + name.replace("\"", "\\\"") + "\",\"version\":"
                                    + version + "}\n\n");
                    sent = version;
                    quietSince = System.nanoTime();
                } else if (System.nanoTime() - quietSince > KEEPALIVE_MILLIS * 1_000_000) {
                    write(out, ": keep-alive\n\n");
                    quietSince = System.nanoTime();
                }
                Thread.sleep(CHECK_MILLIS);
            }
        } catch (IOException e) {
            // the page went away: the stream's end
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            streams.release();
        }
    }

    private static void write(OutputStream out, String event) throws IOException {
        out.write(event.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
