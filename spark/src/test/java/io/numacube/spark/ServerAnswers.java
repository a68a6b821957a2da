package io.numacube.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * Queries straight to one {@code numacube serve} over HTTP, for the bench: its answer as a {@link BenchAnswer} (JSON),
 * and a timed columnar answer ({@code NCB1}, what the connector reads) with its size in rows and bytes. Thread-safe.
 */
final class ServerAnswers {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /**
     * A columnar answer as it came: its rows, its bytes on the wire, and the time from sending the query to having
     * decoded its last column.
     */
    record Columnar(int rows, long bytes, long nanos) {}

    private ServerAnswers() {}

    /** The JSON answer of {@code server} to {@code sql}. */
    static BenchAnswer answer(ShardAddress server, String sql, boolean ordered)
            throws IOException, InterruptedException {
        JsonNode body = JSON.readTree(post(server, sql, "application/json"));
        List<List<Object>> rows = new ArrayList<>();
        for (JsonNode row : body.get("rows")) {
            List<Object> values = new ArrayList<>();
            for (JsonNode v : row) {
                values.add(v.isNull() ? null : v.isFloatingPointNumber() ? (Object) v.doubleValue() : v.asText());
            }
            rows.add(values);
        }
        return BenchAnswer.of(rows, ordered);
    }

    /** Asks {@code server} for the columnar answer to {@code sql}, reads and decodes it whole. */
    static Columnar columnar(ShardAddress server, String sql) throws IOException, InterruptedException {
        long start = System.nanoTime();
        byte[] body = post(server, sql, ShardClient.COLUMNAR);
        try (ColumnarAnswer answer = ColumnarAnswer.open(new ByteArrayInputStream(body))) {
            while (answer.next() != null) {
                // decoding every batch is part of the time, as for the connector
            }
            return new Columnar(answer.rowCount(), body.length, System.nanoTime() - start);
        }
    }

    private static byte[] post(ShardAddress server, String sql, String accept)
            throws IOException, InterruptedException {
        HttpResponse<byte[]> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(server.url() + "/v1/query"))
                        .header("Content-Type", "text/plain; charset=utf-8")
                        .header("Accept", accept)
                        .POST(HttpRequest.BodyPublishers.ofString(sql))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(
                    "numacube serve " + server + " refused the bench's query: status=" + r.statusCode() + " sql=" + sql
                            + " answer=" + new String(r.body(), java.nio.charset.StandardCharsets.UTF_8));
        }
        return r.body();
    }
}
