package io.numacube.bench.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.bench.peer.ResultTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A client of {@code numacube serve}'s HTTP API as an application would write one: the JDK's {@link HttpClient} over
 * HTTP/1.1 with keep-alive connections (it keeps one per concurrent caller), SQL posted as {@code text/plain}, rows
 * as {@code text/csv}. Answers are returned as the bytes received; parsing them ({@link #table}, {@link #version}) is
 * left to the caller, outside any timed part.
 *
 * <p>Thread-safe: any number of threads may send at once. {@link #close()} closes the connections.
 */
final class HttpSqlClient implements HttpApi, AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client;
    private final URI query;
    private final String baseUrl;

    /** @param baseUrl {@code http://127.0.0.1:PORT} */
    HttpSqlClient(String baseUrl) {
        this.client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        this.baseUrl = baseUrl;
        this.query = URI.create(baseUrl + "/v1/query");
    }

    @Override
    public byte[] query(String sql) {
        return send(HttpRequest.newBuilder(query)
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(sql))
                .build());
    }

    @Override
    public long appendCsv(String table, byte[] csv) {
        byte[] body = send(HttpRequest.newBuilder(URI.create(baseUrl + "/v1/tables/" + table + "/rows"))
                .header("Content-Type", "text/csv")
                .POST(HttpRequest.BodyPublishers.ofByteArray(csv))
                .build());
        return answerVersion(body);
    }

    private byte[] send(HttpRequest request) {
        HttpResponse<byte[]> r;
        try {
            r = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException("HTTP request failed: uri=" + request.uri() + " error=" + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: uri=" + request.uri(), e);
        }
        if (r.statusCode() != 200) {
            throw new IllegalStateException("the server refused a request: uri=" + request.uri() + " status="
                    + r.statusCode() + " body=" + new String(r.body(), StandardCharsets.UTF_8).strip());
        }
        return r.body();
    }

    /** The {@code version} of a write's answer: the table version that holds its rows. */
    static long answerVersion(byte[] answer) {
        return parse(answer).path("version").asLong(-1);
    }

    /** The {@code stats.version} of a query's answer: the version of its FROM table that it read. */
    static long version(byte[] answer) {
        return parse(answer).path("stats").path("version").asLong(-1);
    }

    /** A query's answer in the bench's neutral form (numbers as Long or Double, dates as their ISO text). */
    static ResultTable table(byte[] answer) {
        JsonNode root = parse(answer);
        List<String> columns = new ArrayList<>();
        root.path("columns").forEach(c -> columns.add(c.path("name").asText()));
        List<List<Object>> rows = new ArrayList<>();
        for (JsonNode row : root.path("rows")) {
            List<Object> cells = new ArrayList<>(columns.size());
            row.forEach(cell -> cells.add(cell(cell)));
            rows.add(cells);
        }
        return new ResultTable(columns, rows);
    }

    private static Object cell(JsonNode v) {
        if (v.isNull()) {
            return null;
        }
        if (v.isIntegralNumber()) {
            return v.longValue();
        }
        if (v.isNumber()) {
            return v.doubleValue();
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        return v.asText();
    }

    private static JsonNode parse(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException("the server's answer is not JSON: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
