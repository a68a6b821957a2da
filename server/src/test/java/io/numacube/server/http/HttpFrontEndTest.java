package io.numacube.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.engine.Cube;
import io.numacube.engine.result.QueryResult;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import io.numacube.server.query.QueryAdmission;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The HTTP front end over a real socket, every answer compared with the engine's own for the same SQL. */
class HttpFrontEndTest {

    private static final ObjectMapper JSON =
            new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private static Cube cube;
    private static NumacubeServer server;

    @BeforeAll
    static void start() throws IOException {
        cube = TestCube.shared();
        server = NumacubeServer.start(cube, ServerOptions.defaults("test").withPorts(0, 0));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /**
     * Campaign 11: a malformed chunked body was a 500 with an internal error's stack trace in the log; and clients that
     * sent part of a body and then nothing held the request slots for ever, the JDK server having no deadline.
     */
    @Test
    void aBodyThatCannotBeReadIsA400AndARequestHasADeadline() throws Exception {
        for (String size : new String[] {"zz", "FFFFFFFFFFFF"}) {
            try (java.net.Socket s = new java.net.Socket(
                    server.httpAddress().getAddress(), server.httpAddress().getPort())) {
                s.setSoTimeout(20_000);
                s.getOutputStream()
                        .write(("POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
                                        + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + size
                                        + "\r\nSELECT 1\r\n0\r\n\r\n")
                                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                String answer = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
                assertTrue(answer.contains("\"08P01\""), answer);
            }
        }
        assertEquals(
                String.valueOf(HttpFrontEnd.MAX_REQUEST_SECONDS),
                System.getProperty(HttpFrontEnd.MAX_REQUEST_SECONDS_PROPERTY));
    }

    /** The answer to {@code request} sent as it is on a new connection, read to its end. */
    private static String raw(String request) throws IOException {
        try (java.net.Socket s = new java.net.Socket(
                server.httpAddress().getAddress(), server.httpAddress().getPort())) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            s.shutdownOutput();
            return new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /**
     * Malformed requests that reach our handler are answered with our JSON error, naming no Java class or setting:
     * JSON cut short said {@code [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line:
     * 1, column: 1]}, and a body with more after its JSON object ran the object. Those the JDK's server refuses while
     * reading the request's head, before any handler, are its own 400 pages (the README's serve section lists them).
     */
    @Test
    void malformedRequestsAreAnsweredWithJsonWhereTheHandlerSeesThem() throws Exception {
        String head =
                "POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n";
        String[] ours = {
            head + "Content-Length: 18\r\n\r\n{\"sql\": \"SELECT 1\"",
            head + "Content-Length: 21\r\n\r\n{\"sql\": \"SELECT 1\"} x",
            head + "Content-Length: 22\r\n\r\n{\"sql\": \"SELECT 1\"} {}",
            head + "Content-Length: 99\r\n\r\n{\"sql\": \"SELECT 1\"}",
            head + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
            head + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n",
            "POST /v1/tables/trades/rows HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                    + "Content-Type: application/x-ndjson\r\nContent-Length: 14\r\n\r\n{\"desk\": \"D1\"\n",
            "BREW /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        };
        for (String request : ours) {
            String answer = raw(request);
            assertTrue(answer.matches("(?s)HTTP/1.1 4\\d\\d .*"), request + " -> " + answer);
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            JsonNode error = JSON.readTree(body).get("error");
            assertTrue(error != null && error.get("code").asText().matches("08P01|0A000|22P02"), answer);
            String message = error.get("message").asText();
            assertFalse(
                    message.matches("(?s).*(Exception|Source:|REDACTED|StreamReadFeature|com\\.|java\\.).*"), message);
        }
        String[] jdks = {
            "GARBAGE\r\n\r\n",
            "GET /v1/tables/%zz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon\r\n\r\n",
            "POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n",
            "POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
        };
        for (String request : jdks) {
            String answer = raw(request);
            assertTrue(answer.startsWith("HTTP/1.1 400 "), request + " -> " + answer);
        }
    }

    @Test
    void aHeadOfHealthHasItsStatusWithoutABody() throws Exception {
        HttpResponse<String> r = CLIENT.send(
                HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v1/health"))
                        .method("HEAD", HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        assertEquals("", r.body());
    }

    @Test
    void healthSaysReady() throws Exception {
        HttpResponse<String> r = get(server, "/v1/health");
        assertEquals(200, r.statusCode());
        assertEquals("{\"status\":\"ready\"}", r.body().strip());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    }

    @Test
    void aJsonQueryAnswersWhatTheEngineAnswers() throws Exception {
        String sql = "SELECT desk, SUM(pnl), COUNT(*), MIN(trade_date) FROM trades GROUP BY desk ORDER BY desk";
        JsonNode body = ok(post(server, "application/json", JSON.writeValueAsString(java.util.Map.of("sql", sql))));
        QueryResult expected = cube.query(sql);
        assertEquals(
                List.of("desk", "sum(pnl)", "count_star()", "min(trade_date)"), texts(body.get("columns"), "name"));
        assertEquals(List.of("VARCHAR", "DOUBLE", "BIGINT", "DATE"), texts(body.get("columns"), "type"));
        assertEquals(expected.rowCount(), body.get("rows").size());
        assertEquals(expected.rowCount(), body.get("row_count").asInt());
        for (int r = 0; r < expected.rowCount(); r++) {
            JsonNode row = body.get("rows").get(r);
            assertEquals(expected.getString(r, 0), row.get(0).asText());
            assertEquals(expected.getDouble(r, 1), row.get(1).doubleValue(), 0.0, "exact double, row " + r);
            assertEquals(expected.getLong(r, 2), row.get(2).asLong());
            assertEquals(expected.getString(r, 3), row.get(3).asText());
        }
        assertEquals(TestCube.TRADES, body.get("stats").get("rows_scanned").asLong());
        assertTrue(body.get("stats").get("ms").isNumber());
        assertTrue(body.get("stats").get("morsels_home_pct").isNumber());
    }

    @Test
    void aPlainTextBodyIsTheSql() throws Exception {
        String sql = "SELECT currency, COUNT(*) FROM trades GROUP BY currency ORDER BY 2 DESC, 1 LIMIT 3;";
        QueryResult expected = cube.query(sql.replace(";", ""));
        for (String type : new String[] {"text/plain; charset=utf-8", ""}) {
            JsonNode body = ok(post(server, type, sql));
            for (int r = 0; r < expected.rowCount(); r++) {
                assertEquals(
                        expected.getString(r, 0), body.get("rows").get(r).get(0).asText());
                assertEquals(
                        expected.getLong(r, 1), body.get("rows").get(r).get(1).asLong());
            }
        }
    }

    @Test
    void aSmallAnswerHasALengthAndALargeOneIsStreamedInChunks() throws Exception {
        HttpResponse<String> small = post(server, "text/plain", "SELECT COUNT(*) FROM fx");
        assertEquals(
                String.valueOf(small.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length),
                small.headers().firstValue("Content-Length").orElse("none"));
        HttpResponse<String> large = post(server, "text/plain", "SELECT * FROM trades ORDER BY trade_id");
        assertTrue(large.headers().firstValue("Content-Length").isEmpty(), "chunked: " + large.headers());
        JsonNode body = ok(large);
        assertEquals(TestCube.TRADES, body.get("rows").size());
        QueryResult expected = cube.query("SELECT * FROM trades ORDER BY trade_id");
        int last = expected.rowCount() - 1;
        assertEquals(
                expected.getString(last, 5), body.get("rows").get(last).get(5).asText());
    }

    @Test
    void everyTypeIsWrittenExactlyAndNullAsNull() throws Exception {
        HttpResponse<String> r = post(server, "text/plain", "SELECT * FROM kinds ORDER BY id");
        JsonNode body = ok(r);
        assertEquals(
                List.of("BIGINT", "VARCHAR", "DECIMAL(15,2)", "TIMESTAMP", "DATE", "BOOLEAN", "DOUBLE"),
                texts(body.get("columns"), "type"));
        assertTrue(r.body().contains("[0,\"n0\",0.01,\"2023-11-14 22:13:20\",\"2024-10-04\",true,0.0]"), r.body());
        QueryResult expected = cube.query("SELECT * FROM kinds ORDER BY id");
        JsonNode second = body.get("rows").get(1);
        assertEquals(expected.getDecimal(1, 2), second.get(2).decimalValue());
        assertEquals(expected.getString(1, 3), second.get(3).asText());
        assertEquals(expected.getDouble(1, 6), second.get(6).doubleValue(), 0.0);
        JsonNode nulls = body.get("rows").get(2);
        for (int c = 2; c < 7; c++) {
            assertTrue(nulls.get(c).isNull(), "column " + c);
        }
    }

    /** A DECIMAL(15,2) column keeps its declared type as a group key and through a derived table, as DuckDB's does. */
    @Test
    void aDecimalColumnKeepsItsDeclaredPrecision() throws Exception {
        JsonNode body = ok(
                post(
                        server,
                        "text/plain",
                        "SELECT price, MAX(p) AS p FROM kinds JOIN (SELECT id AS i, price AS p FROM kinds) d ON kinds.id = d.i GROUP BY price"));
        assertEquals("DECIMAL(15,2)", texts(body.get("columns"), "type").get(0));
        body = ok(post(server, "text/plain", "SELECT p FROM (SELECT price AS p FROM kinds) d"));
        assertEquals(List.of("DECIMAL(15,2)"), texts(body.get("columns"), "type"));
    }

    @Test
    void anErrorHasItsSqlStateAndPositionInTheSqlAsSent() throws Exception {
        String sql = "-- the desks\nSELECT desk,\n       nosuch FROM trades";
        HttpResponse<String> r = post(server, "text/plain", sql);
        assertEquals(400, r.statusCode());
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertEquals("42703", e.get("code").asText());
        assertEquals(3, e.get("line").asInt());
        assertEquals(8, e.get("column").asInt());
        assertEquals(sql.indexOf("nosuch") + 1, e.get("position").asInt());
        assertTrue(e.get("message").asText().startsWith("no such column: column=nosuch"), e.toString());
        assertEquals(
                "42601",
                error(post(server, "text/plain", "SELEC desk FROM trades"), 400)
                        .get("code")
                        .asText());
        assertEquals(
                "42P01",
                error(post(server, "text/plain", "SELECT x FROM nosuch"), 400)
                        .get("code")
                        .asText());
        assertEquals(
                "0A000",
                error(post(server, "text/plain", "MERGE INTO trades USING fx ON TRUE WHEN MATCHED THEN DELETE"), 400)
                        .get("code")
                        .asText());
        assertEquals(
                "0A000",
                error(post(server, "text/plain", "SELECT 1; SELECT 2"), 400)
                        .get("code")
                        .asText());
        assertEquals(
                "42601",
                error(post(server, "text/plain", " -- nothing\n"), 400)
                        .get("code")
                        .asText());
    }

    @Test
    void badRequestsGet404405413415And400() throws Exception {
        assertEquals("42704", error(get(server, "/v1/nosuch"), 404).get("code").asText());
        assertEquals(
                "42P01",
                error(get(server, "/v1/tables/nosuch"), 404).get("code").asText());
        HttpResponse<String> wrongMethod = get(server, "/v1/query");
        error(wrongMethod, 405);
        assertEquals("POST", wrongMethod.headers().firstValue("Allow").orElse(""));
        error(post(server, "application/x-www-form-urlencoded", "sql=SELECT"), 415);
        assertEquals(
                "08P01",
                error(post(server, "application/json", "{\"sql\": "), 400)
                        .get("code")
                        .asText());
        assertEquals(
                "08P01",
                error(post(server, "application/json", "{\"sql\": \"SELECT 1\", \"x\": 1}"), 400)
                        .get("code")
                        .asText());
        assertEquals(
                "22023",
                error(post(server, "application/json", "{\"sql\": \"SELECT 1\", \"timeout_ms\": -1}"), 400)
                        .get("code")
                        .asText());
        try (NumacubeServer small = NumacubeServer.start(
                cube, ServerOptions.defaults("test").withPorts(0, 0).withLimits(1024, 100, 4))) {
            assertEquals(
                    "54000",
                    error(post(small, "text/plain", "-- " + "x".repeat(2000)), 413)
                            .get("code")
                            .asText());
            assertEquals(
                    "54000",
                    error(post(small, "text/plain", "SELECT " + "x".repeat(200)), 400)
                            .get("code")
                            .asText());
        }
    }

    @Test
    void aQueryBeyondTheQueueIsTooBusy() throws Exception {
        try (NumacubeServer busy = NumacubeServer.start(
                cube, ServerOptions.defaults("test").withPorts(0, 0).withAdmission(1, 0, Duration.ofMinutes(1)))) {
            QueryAdmission admission = busy.queries().admission();
            try (QueryAdmission.Permit held = admission.admit(Long.MAX_VALUE)) {
                JsonNode e = error(post(busy, "text/plain", "SELECT COUNT(*) FROM trades"), 503);
                assertEquals("53300", e.get("code").asText());
            }
            ok(post(busy, "text/plain", "SELECT COUNT(*) FROM trades"));
        }
    }

    @Test
    void aQueryPastItsTimeoutIsCancelled() throws Exception {
        try (NumacubeServer slow = NumacubeServer.start(
                cube, ServerOptions.defaults("test").withPorts(0, 0).withAdmission(1, 1, Duration.ofMinutes(1)))) {
            try (QueryAdmission.Permit held = slow.queries().admission().admit(Long.MAX_VALUE)) {
                String body = "{\"sql\": \"SELECT COUNT(*) FROM trades\", \"timeout_ms\": 200}";
                JsonNode e = error(post(slow, "application/json", body), 504);
                assertEquals("57014", e.get("code").asText());
                assertTrue(e.get("message").asText().startsWith("canceling statement due to statement timeout"));
            }
        }
    }

    @Test
    void tablesDescribeTheCubesSchemas() throws Exception {
        JsonNode all = ok(get(server, "/v1/tables"));
        assertEquals(cube.tables(), texts(all.get("tables"), "name"));
        JsonNode kinds = ok(get(server, "/v1/tables/KINDS"));
        assertEquals("kinds", kinds.get("name").asText());
        assertEquals(3, kinds.get("rows").asLong());
        assertEquals(
                List.of("BIGINT", "VARCHAR", "DECIMAL(15,2)", "TIMESTAMP", "DATE", "BOOLEAN", "DOUBLE"),
                texts(kinds.get("columns"), "type"));
        assertEquals(
                cube.rowCount("trades"),
                ok(get(server, "/v1/tables/trades")).get("rows").asLong());
    }

    @Test
    void informationSchemaAndQualifiedNamesAnswerOverHttp() throws Exception {
        JsonNode columns = ok(post(
                server,
                "application/json",
                JSON.writeValueAsString(java.util.Map.of(
                        "sql",
                        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1"
                                + " ORDER BY ordinal_position",
                        "params",
                        List.of("kinds")))));
        assertEquals(
                "[[\"id\",\"bigint\"],[\"name\",\"text\"],[\"price\",\"numeric\"],"
                        + "[\"ts\",\"timestamp without time zone\"],[\"d\",\"date\"],[\"flag\",\"boolean\"],"
                        + "[\"x\",\"double precision\"]]",
                columns.get("rows").toString());
        JsonNode tables =
                ok(post(server, "text/plain", "SELECT table_name FROM information_schema.tables ORDER BY table_name"));
        assertEquals(cube.tables().size(), tables.get("rows").size());
        assertEquals(
                "[[3]]",
                ok(post(server, "text/plain", "SELECT COUNT(*) FROM numacube.public.kinds"))
                        .get("rows")
                        .toString());
        assertEquals(
                "kinds", ok(get(server, "/v1/tables/public.kinds")).get("name").asText());
        JsonNode e = error(post(server, "text/plain", "SELECT id FROM sales.kinds"), 400);
        assertEquals("42P01", e.get("code").asText());
        assertEquals(16, e.get("position").asInt());
        assertEquals(
                "42P01",
                error(get(server, "/v1/tables/sales.kinds"), 404).get("code").asText());
    }

    @Test
    void placementListsNodesWorkersAndEveryPartition() throws Exception {
        JsonNode p = ok(get(server, "/v1/placement"));
        assertEquals(List.of(0, 1), JSON.convertValue(p.get("data_nodes"), List.class));
        assertEquals(2, p.get("workers").size());
        assertEquals(1, p.get("workers").get(1).get("threads").asInt());
        assertEquals(cube.placement().size(), p.get("partitions").size());
        JsonNode first = p.get("partitions").get(0);
        assertEquals(cube.placement().getFirst().table(), first.get("table").asText());
        assertTrue(first.has("pages_on_node_pct"));
        // a simulated cube follows no machine: the history of changes is there, empty
        assertFalse(p.get("follows_machine").asBoolean());
        assertEquals(0, p.get("changes").size());
        assertTrue(p.get("changes").isArray());
    }

    @Test
    void placementActivityCountsTheMorselsEachNodeRanAndThoseAtHome() throws Exception {
        long[] before = activityTotals(ok(get(server, "/v1/placement")));
        JsonNode stats = ok(post(server, "text/plain", "SELECT desk, SUM(pnl) FROM trades GROUP BY desk"))
                .get("stats");
        long[] after = activityTotals(ok(get(server, "/v1/placement")));
        long morsels = stats.get("morsels").asLong();
        assertTrue(morsels > 0, stats.toString());
        assertEquals(morsels, after[0] - before[0], "morsels run over all nodes grew by the query's");
        long home = after[1] - before[1];
        assertTrue(home >= 0 && home <= morsels, home + " of " + morsels);
        assertEquals(stats.get("morsels_home_pct").asDouble(), Math.round(1000.0 * home / morsels) / 10.0, 0.051);
        String metrics = get(server, "/metrics").body();
        assertTrue(metrics.contains("# TYPE numacube_node_morsels_total counter"), metrics);
        assertTrue(metrics.contains("numacube_node_morsels_home_total{node=\"0\"} "), metrics);
    }

    /** Morsels and morsels at home summed over {@code /v1/placement}'s activity. */
    private static long[] activityTotals(JsonNode placement) {
        long[] t = new long[2];
        placement.get("activity").forEach(a -> {
            t[0] += a.get("morsels").asLong();
            t[1] += a.get("morsels_home").asLong();
        });
        return t;
    }

    /** The {@code field} of each object of an array. */
    private static List<String> texts(JsonNode array, String field) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(x -> out.add(x.get(field).asText()));
        return out;
    }

    private static JsonNode ok(HttpResponse<String> r) throws IOException {
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private static JsonNode error(HttpResponse<String> r, int status) throws IOException {
        assertEquals(status, r.statusCode(), r.body());
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertTrue(e != null && e.has("code") && e.has("message"), r.body());
        assertTrue(!r.body().contains("\tat "), "no stack trace: " + r.body());
        return e;
    }

    static HttpResponse<String> get(NumacubeServer s, String path) throws Exception {
        return CLIENT.send(
                HttpRequest.newBuilder(URI.create(s.httpUrl() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> post(NumacubeServer s, String contentType, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.httpUrl() + "/v1/query"))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (!contentType.isEmpty()) {
            b.header("Content-Type", contentType);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
