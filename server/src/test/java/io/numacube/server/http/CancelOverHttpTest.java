package io.numacube.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/queries} lists a query under way by the id its client chose, {@code DELETE /v1/queries/ID} cancels
 * it: its client gets 57014 (HTTP 504), and the engine stops working on it (it leaves the list), so its worker and its
 * admission slot are free again.
 */
class CancelOverHttpTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Cube cube;
    private static NumacubeServer server;

    @BeforeAll
    static void start() throws Exception {
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
        cube.generateTrades(2_000_000, 9, null);
        server = NumacubeServer.start(
                cube, ServerOptions.defaults("test").withPorts(0, 0).withAdmission(1, 4, java.time.Duration.ZERO));
    }

    @AfterAll
    static void stop() {
        server.close();
        cube.close();
    }

    private static HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.httpUrl() + path));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return HTTP.send(
                b.method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aQueryUnderWayIsListedAndCancelledByItsId() throws Exception {
        String slow = "{\"sql\": \"SELECT trade_id FROM trades WHERE upper(counterparty || book || desk || currency"
                + " || counterparty || book) LIKE '%Q%Z%Q%Z%Q%' ORDER BY trade_id\", \"query_id\": \"slow-1\"}";
        CompletableFuture<HttpResponse<String>> answer = CompletableFuture.supplyAsync(() -> {
            try {
                return send("POST", "/v1/query", slow);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        JsonNode listed = null;
        for (int i = 0; i < 200 && listed == null; i++) {
            for (JsonNode q :
                    JSON.readTree(send("GET", "/v1/queries", null).body()).get("queries")) {
                if (q.get("id").asText().equals("slow-1")
                        && q.get("state").asText().equals("running")) {
                    listed = q;
                }
            }
            Thread.sleep(10);
        }
        assertTrue(listed != null, "the query was never listed as running");
        assertTrue(listed.get("sql").asText().startsWith("SELECT trade_id"), listed.toString());
        assertEquals(400, send("POST", "/v1/query", slow).statusCode(), "an id under way cannot be reused");
        HttpResponse<String> cancel = send("DELETE", "/v1/queries/slow-1", null);
        assertEquals(200, cancel.statusCode(), cancel.body());
        HttpResponse<String> r = answer.get();
        assertEquals(504, r.statusCode(), r.body());
        assertEquals("57014", JSON.readTree(r.body()).get("error").get("code").asText());
        boolean gone = false;
        long giveUp = System.nanoTime() + 3_000_000_000L;
        while (!gone && System.nanoTime() < giveUp) {
            gone = !send("GET", "/v1/queries", null).body().contains("slow-1");
            Thread.sleep(10);
        }
        assertTrue(gone, "the engine went on with the cancelled query (it runs for about 10 s uncancelled)");
        HttpResponse<String> next = send("POST", "/v1/query", "{\"sql\": \"SELECT COUNT(*) FROM trades\"}");
        assertEquals(200, next.statusCode(), "the one admission slot is free again: " + next.body());
        assertEquals(404, send("DELETE", "/v1/queries/nosuch", null).statusCode());
    }
}
