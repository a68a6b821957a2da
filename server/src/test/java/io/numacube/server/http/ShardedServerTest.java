package io.numacube.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.Shard;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A server over shard 1 of 2 (key desk), over a real socket: what it says of its tables, and the rows it refuses. */
class ShardedServerTest {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HEADER = "trade_id,desk,book,currency,trade_date,counterparty,pnl,notional\n";

    private static Cube cube;
    private static NumacubeServer server;

    @BeforeAll
    static void start() throws Exception {
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(1).withThreadsPerNode(1));
        cube.generateTrades(3000, 9, null);
        cube.keepShard(new Shard(1, 2, "desk"));
        server = NumacubeServer.start(cube, ServerOptions.defaults("test").withPorts(0, 0));
    }

    @AfterAll
    static void stop() {
        server.close();
        cube.close();
    }

    /** The first generated desk that hashes to {@code shard} of 2. */
    private static String deskOf(int shard) {
        return IntStream.rangeClosed(1, 20)
                .mapToObj(d -> String.format("DESK-%02d", d))
                .filter(d -> Shard.of(d, 2) == shard)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void tablesSayTheShardAndWhichAreHeldWhole() throws Exception {
        JsonNode trades = JSON.readTree(get("/v1/tables/trades").body());
        assertEquals("1/2", trades.get("shard").asText());
        assertEquals("desk", trades.get("shard_key").asText());
        JsonNode fx = JSON.readTree(get("/v1/tables/fx").body());
        assertEquals("1/2", fx.get("shard").asText());
        assertTrue(fx.get("shard_key").isNull(), fx.toString());
    }

    @Test
    void aRowOfAnotherShardIsRefusedAndTheBatchLeftOutWhole() throws Exception {
        long before = cube.rowCount("trades");
        String own = "1,%s,BOOK-0001,USD,2025-01-02,CP-00001,1.5,2\n".formatted(deskOf(1));
        String foreign = "2,%s,BOOK-0001,USD,2025-01-02,CP-00001,1.5,2\n".formatted(deskOf(0));
        HttpResponse<String> refused = postRows(HEADER + own + foreign);
        assertEquals(400, refused.statusCode(), refused.body());
        assertEquals(
                "a row of another shard: table=trades row=2 desk=" + deskOf(0) + " its-shard=0/2 this-shard=1/2 — send"
                        + " it to its shard (the Spark connector routes rows so)",
                JSON.readTree(refused.body()).get("error").get("message").asText());
        assertEquals(before, cube.rowCount("trades"), "nothing of the refused batch is kept");
        HttpResponse<String> taken = postRows(HEADER + own);
        assertEquals(200, taken.statusCode(), taken.body());
        assertEquals(before + 1, cube.rowCount("trades"));
    }

    @Test
    void theColumnarAnswerNamesTheShard() throws Exception {
        HttpResponse<byte[]> r = CLIENT.send(
                HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v1/query"))
                        .header("Content-Type", "text/plain")
                        .header("Accept", ResultColumnar.MEDIA_TYPE)
                        .POST(HttpRequest.BodyPublishers.ofString("SELECT COUNT(*) FROM trades"))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        int length = java.nio.ByteBuffer.wrap(r.body(), 4, 4)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .getInt();
        JsonNode header = JSON.readTree(new String(r.body(), 8, length, StandardCharsets.UTF_8));
        assertEquals("1/2", header.get("shard").asText());
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return CLIENT.send(
                HttpRequest.newBuilder(URI.create(server.httpUrl() + path))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> postRows(String csv) throws Exception {
        return CLIENT.send(
                HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v1/tables/trades/rows"))
                        .header("Content-Type", "text/csv")
                        .POST(HttpRequest.BodyPublishers.ofString(csv))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
