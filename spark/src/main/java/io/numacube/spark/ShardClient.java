package io.numacube.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Talks to one shard over numacube's HTTP API: lists or describes tables, runs a query for a columnar answer, appends a
 * batch of JSON lines, each request within the timeout (connecting within 10 s). Every failure is a {@link
 * ShardException} naming the shard. Thread-safe (the JDK's client is); one per shard per task.
 */
final class ShardClient {

    static final String COLUMNAR = "application/vnd.numacube.columnar";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One client per JVM (driver or executor): it pools connections, and each shares its selector thread. */
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final ShardAddress address;
    private final Duration timeout;

    ShardClient(ShardAddress address, Duration timeout) {
        this.address = address;
        this.timeout = timeout;
    }

    /** {@code GET /v1/tables/NAME}. */
    ShardTable table(String name) {
        HttpResponse<byte[]> r = send(
                HttpRequest.newBuilder(uri("/v1/tables/" + URLEncoder.encode(name, StandardCharsets.UTF_8)))
                        .GET(),
                "describe table " + name);
        return ShardTable.of(address, json(r.body()));
    }

    /** {@code GET /v1/tables}: every table the shard holds, as it lists them. */
    java.util.List<ShardTable> tables() {
        HttpResponse<byte[]> r = send(HttpRequest.newBuilder(uri("/v1/tables")).GET(), "list its tables");
        java.util.List<ShardTable> out = new java.util.ArrayList<>();
        for (JsonNode t : json(r.body()).get("tables")) {
            out.add(ShardTable.of(address, t));
        }
        return java.util.List.copyOf(out);
    }

    /**
     * {@code POST /v1/query} for the columnar answer to {@code sql} in batches of at most {@code batchRows} rows,
     * returned once its header arrived; its batches are read as they come ({@link ColumnarAnswer#next}).
     */
    ColumnarAnswer query(String sql, int batchRows) {
        String what = "query " + sql;
        HttpResponse<InputStream> r = exchange(
                HttpRequest.newBuilder(uri("/v1/query"))
                        .header("Content-Type", "text/plain; charset=utf-8")
                        .header("Accept", COLUMNAR + "; batch-rows=" + batchRows)
                        .POST(HttpRequest.BodyPublishers.ofString(sql)),
                HttpResponse.BodyHandlers.ofInputStream(),
                what);
        if (r.statusCode() != 200) {
            try (InputStream body = r.body()) {
                throw refused(what, r.statusCode(), body.readAllBytes());
            } catch (IOException e) {
                throw refused(what, r.statusCode(), new byte[0]);
            }
        }
        try {
            return ColumnarAnswer.open(r.body());
        } catch (RuntimeException e) {
            throw unreadable(e);
        }
    }

    /** The failure of an answer that does not read as the columnar format (or whose stream broke). */
    ShardException unreadable(RuntimeException e) {
        return new ShardException("numacube shard " + address + " sent an unreadable answer: " + e, e);
    }

    /** {@code POST /v1/tables/NAME/rows} with JSON lines: one atomic batch; returns the table's version after it. */
    long append(String table, byte[] jsonLines) {
        HttpResponse<byte[]> r = send(
                HttpRequest.newBuilder(uri("/v1/tables/" + URLEncoder.encode(table, StandardCharsets.UTF_8) + "/rows"))
                        .header("Content-Type", "application/x-ndjson")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(jsonLines)),
                "append to " + table);
        return json(r.body()).get("version").asLong();
    }

    private HttpResponse<byte[]> send(HttpRequest.Builder request, String what) {
        HttpResponse<byte[]> r = exchange(request, HttpResponse.BodyHandlers.ofByteArray(), what);
        if (r.statusCode() != 200) {
            throw refused(what, r.statusCode(), r.body());
        }
        return r;
    }

    private <T> HttpResponse<T> exchange(HttpRequest.Builder request, HttpResponse.BodyHandler<T> body, String what) {
        try {
            return HTTP.send(request.timeout(timeout).build(), body);
        } catch (IOException e) {
            throw new ShardException(
                    "numacube shard " + address + " is unreachable: " + e + " — is its numacube serve running? (while"
                            + " trying to " + what + ")",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ShardException("numacube shard " + address + ": interrupted while trying to " + what, e);
        }
    }

    private ShardException refused(String what, int status, byte[] body) {
        return new ShardException(
                "numacube shard " + address + " refused to " + what + ": HTTP " + status + " " + errorText(body));
    }

    private static String errorText(byte[] body) {
        try {
            JsonNode e = JSON.readTree(body).get("error");
            return e.get("code").asText() + " " + e.get("message").asText();
        } catch (IOException | RuntimeException e) {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private JsonNode json(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new ShardException("numacube shard " + address + " sent JSON that does not read: " + e, e);
        }
    }

    private URI uri(String path) {
        return URI.create(address.url() + path);
    }
}
