package io.numacube.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.engine.Cube;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import io.numacube.server.auth.TestUsers;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HTTP Basic against the users' SCRAM verifiers: 401 without or with wrong credentials (health aside), a reader's
 * writes 403 and unwritten, a writer's applied; and the cap on requests served at once.
 */
class HttpAuthTest {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Cube cube;
    private static NumacubeServer server;

    @BeforeAll
    static void start() throws IOException {
        cube = TestCube.tenDesks();
        server = NumacubeServer.start(
                cube, ServerOptions.defaults("test").withPorts(0, 0).withUsers(TestUsers.directory()));
    }

    @AfterAll
    static void stop() {
        server.close();
        cube.close();
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> send(String method, String path, String type, String body, String auth)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.httpUrl() + path))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (type != null) {
            b.header("Content-Type", type);
        }
        if (auth != null) {
            b.header("Authorization", auth);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> query(String sql, String auth) throws Exception {
        return send("POST", "/v1/query", "text/plain", sql, auth);
    }

    private static long rows() {
        return cube.query("SELECT COUNT(*) FROM t").getLong(0, 0);
    }

    private static JsonNode error(HttpResponse<String> r) throws IOException {
        return JSON.readTree(r.body()).get("error");
    }

    @Test
    void healthNeedsNoCredentialsAndEverythingElseDoes() throws Exception {
        assertEquals(200, send("GET", "/v1/health", null, null, null).statusCode());
        for (String[] req : new String[][] {
            {"POST", "/v1/query"}, {"GET", "/v1/tables"}, {"GET", "/v1/tables/t"}, {"GET", "/v1/placement"},
            {"GET", "/v1/queries"}, {"GET", "/metrics"}, {"POST", "/v1/tables/t/rows"}, {"GET", "/nosuch"}
        }) {
            HttpResponse<String> r = send(req[0], req[1], "text/plain", req[0].equals("GET") ? null : "x", null);
            assertEquals(401, r.statusCode(), req[1]);
            assertEquals(
                    "Basic realm=\"numacube\", charset=\"UTF-8\"",
                    r.headers().firstValue("WWW-Authenticate").orElse(""));
            assertEquals("28000", error(r).get("code").asText(), r.body());
        }
    }

    @Test
    void theRightPasswordGetsTheEnginesAnswer() throws Exception {
        String sql = "SELECT desk, COUNT(*) FROM t GROUP BY desk ORDER BY desk";
        var expected = cube.query(sql);
        for (String[] u : new String[][] {
            {TestUsers.WRITER, TestUsers.WRITER_PASSWORD}, {TestUsers.READER, TestUsers.READER_PASSWORD}
        }) {
            HttpResponse<String> r = query(sql, basic(u[0], u[1]));
            assertEquals(200, r.statusCode(), r.body());
            JsonNode rows = JSON.readTree(r.body()).get("rows");
            assertEquals(expected.rowCount(), rows.size());
            for (int i = 0; i < expected.rowCount(); i++) {
                assertEquals(expected.getString(i, 0), rows.get(i).get(0).asText());
                assertEquals(expected.getLong(i, 1), rows.get(i).get(1).asLong());
            }
        }
        HttpResponse<String> metrics =
                send("GET", "/metrics", null, null, basic(TestUsers.READER, TestUsers.READER_PASSWORD));
        assertEquals(200, metrics.statusCode());
    }

    @Test
    void aWrongPasswordAnUnknownUserAndAMalformedHeaderAre401() throws Exception {
        for (String[] u : new String[][] {
            {TestUsers.WRITER, "guess"},
            {TestUsers.WRITER, TestUsers.READER_PASSWORD},
            {"mallory", "guess"},
            {TestUsers.WRITER, ""}
        }) {
            HttpResponse<String> r = query("SELECT 1", basic(u[0], u[1]));
            assertEquals(401, r.statusCode());
            assertEquals("28P01", error(r).get("code").asText());
            assertEquals(
                    "password authentication failed for user \"" + u[0] + "\"",
                    error(r).get("message").asText());
            assertTrue(r.headers().firstValue("WWW-Authenticate").isPresent());
        }
        for (String header : new String[] {
            "Bearer abc",
            "Basic !!!",
            "Basic " + Base64.getEncoder().encodeToString("no-colon".getBytes()),
            "Basic " + Base64.getEncoder().encodeToString(new byte[] {(byte) 0xff, ':', 'x'})
        }) {
            HttpResponse<String> r = query("SELECT 1", header);
            assertEquals(401, r.statusCode(), header);
            assertEquals("28000", error(r).get("code").asText());
            assertTrue(error(r).get("message").asText().startsWith("malformed Authorization header"), r.body());
        }
    }

    @Test
    void aReadersWritesAre403AndNothingIsWritten() throws Exception {
        String reader = basic(TestUsers.READER, TestUsers.READER_PASSWORD);
        long before = rows();
        HttpResponse<String> posted = send("POST", "/v1/tables/t/rows", "text/csv", "id,desk\n50,R\n", reader);
        assertEquals(403, posted.statusCode(), posted.body());
        assertEquals("42501", error(posted).get("code").asText());
        assertTrue(error(posted)
                .get("message")
                .asText()
                .startsWith("permission denied for table t: user=bob role=reader"));
        for (String sql :
                new String[] {"INSERT INTO t VALUES (51, 'R')", "DELETE FROM t WHERE id = 1", "UPDATE t SET id = 2"}) {
            HttpResponse<String> r = query(sql, reader);
            assertEquals(403, r.statusCode(), sql + ": " + r.body());
            assertEquals("42501", error(r).get("code").asText());
        }
        assertEquals(before, rows());
    }

    @Test
    void aWritersWritesAreApplied() throws Exception {
        String writer = basic(TestUsers.WRITER, TestUsers.WRITER_PASSWORD);
        long before = rows();
        HttpResponse<String> posted = send("POST", "/v1/tables/t/rows", "text/csv", "id,desk\n60,W\n61,W\n", writer);
        assertEquals(200, posted.statusCode(), posted.body());
        assertEquals(before + 2, rows());
        HttpResponse<String> deleted = query("DELETE FROM t WHERE desk = 'W'", writer);
        assertEquals(200, deleted.statusCode(), deleted.body());
        assertEquals(before, rows());
    }

    @Test
    void beyondMaxHttpRequestsAtOnceTheNextIs503AndHealthStillAnswers() throws Exception {
        try (NumacubeServer one = NumacubeServer.start(
                cube, ServerOptions.defaults("test").withPorts(0, 0).withMaxHttpRequests(1))) {
            // a request whose body never comes holds the one place until the socket closes
            Socket slow = stall(one);
            HttpResponse<String> busy = null;
            // the server takes the slow request's place when it reads its head: on a loaded machine, seconds; where
            // one of the requests below held the place at that moment, the stalled one was refused (its 503 waits
            // in its socket), and it is sent again
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while ((busy == null || busy.statusCode() != 503) && System.nanoTime() < deadline) {
                if (slow.getInputStream().available() > 0) {
                    slow.close();
                    slow = stall(one);
                }
                busy = CLIENT.send(
                        HttpRequest.newBuilder(URI.create(one.httpUrl() + "/v1/tables"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                Thread.sleep(20);
            }
            try (Socket held = slow) {
                theHeldPlace(one, held, busy);
            }
        }
    }

    /** A POST /v1/query whose head is sent and whose 100-byte body never comes. */
    private static Socket stall(NumacubeServer one) throws IOException {
        Socket slow =
                new Socket(one.httpAddress().getAddress(), one.httpAddress().getPort());
        OutputStream out = slow.getOutputStream();
        out.write(
                ("POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n"
                                + "SELECT")
                        .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return slow;
    }

    /**
     * While {@code slow} holds the one place, {@code busy} was refused and health still answers; once its body comes
     * it is answered and the place is free again.
     */
    private static void theHeldPlace(NumacubeServer one, Socket slow, HttpResponse<String> busy) throws Exception {
        OutputStream out = slow.getOutputStream();
        assertEquals(503, busy.statusCode(), busy.body());
        assertEquals("53300", error(busy).get("code").asText());
        assertEquals(
                "too many HTTP requests at once: max-http-requests=1 — retry later",
                error(busy).get("message").asText());
        HttpResponse<String> health = CLIENT.send(
                HttpRequest.newBuilder(URI.create(one.httpUrl() + "/v1/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode());
        String rest = " COUNT(*) FROM t";
        out.write((rest + " ".repeat(100 - "SELECT".length() - rest.length())).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = slow.getInputStream();
        String answer = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
        assertEquals("HTTP/1.1 200", answer, "the held request is answered once its body comes");
        // the place is given back just after the answer's last byte is written, which the client may read first
        HttpResponse<String> after = null;
        long freeBy = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while ((after == null || after.statusCode() == 503) && System.nanoTime() < freeBy) {
            if (after != null) {
                Thread.sleep(10);
            }
            after = CLIENT.send(
                    HttpRequest.newBuilder(URI.create(one.httpUrl() + "/v1/tables"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }
        assertEquals(200, after.statusCode(), "the place is free again");
    }
}
