package io.numacube.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code "params"} of {@code POST /v1/query} through the JDK's HttpClient: each JSON type bound as its SQL literal in
 * queries, INSERT and DELETE, a value that would be SQL staying a value, and PostgreSQL's errors for a wrong count or
 * a marker beyond the values. Each test has its own cube, since some write.
 */
class QueryParamsTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private Cube cube;
    private NumacubeServer server;

    @BeforeEach
    void start() throws Exception {
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(1).withThreadsPerNode(1));
        TableStaging t = new TableStaging(
                TableSchema.parse("t", "id:long,desk:string,px:decimal(12,2),day:date,ok:boolean,qty:double"));
        for (int i = 0; i < 10; i++) {
            t.setLong(0, i);
            t.setString(1, i == 9 ? "it's" : "D" + (i % 3));
            t.setLong(2, 100 * i + 5);
            t.setDate(3, 19_000 + i);
            t.setBoolean(4, i % 2 == 0);
            t.setDouble(5, i * 0.5);
            t.endRow();
        }
        cube.loadTable(t);
        server = NumacubeServer.start(cube, ServerOptions.defaults("test").withPorts(0, 0));
    }

    @AfterEach
    void stop() {
        server.close();
        cube.close();
    }

    @Test
    void stringsNumbersBooleansAndDatesBindAsLiteralsOfTheirType() throws Exception {
        JsonNode r = ok(query(
                "SELECT id FROM t WHERE desk = $1 AND qty > $2 AND ok = $3 AND px >= $4 AND day > $5 ORDER BY id",
                "D0",
                1,
                true,
                3.05,
                "2022-01-10"));
        assertEquals("[[6]]", r.get("rows").toString());
        assertEquals(
                "[[9]]",
                ok(query("SELECT id FROM t WHERE desk = $1", "it's"))
                        .get("rows")
                        .toString());
    }

    @Test
    void aValueThatLooksLikeSqlIsOnlyAValue() throws Exception {
        JsonNode r = ok(query("SELECT COUNT(*) FROM t WHERE desk = $1", "D0' OR '1'='1"));
        assertEquals("[[0]]", r.get("rows").toString());
        JsonNode neg = ok(query("SELECT COUNT(*) FROM t WHERE id-$1 > 10", -5));
        assertEquals("[[4]]", neg.get("rows").toString());
    }

    @Test
    void nullBindsAsTheNullLiteralWhoseComparisonKeepsNoRow() throws Exception {
        assertEquals(
                "[[0]]",
                ok(query("SELECT COUNT(*) FROM t WHERE desk = $1", (Object) null))
                        .get("rows")
                        .toString());
        JsonNode all = ok(query("SELECT COUNT(*) FROM t"));
        assertEquals(
                all.get("rows").toString(),
                ok(query("SELECT COUNT(*) FROM t WHERE desk IS DISTINCT FROM $1", (Object) null))
                        .get("rows")
                        .toString(),
                "IS DISTINCT FROM NULL keeps every row with a desk");
    }

    @Test
    void tooFewOrTooManyValuesIsPostgresqlsBindError() throws Exception {
        JsonNode e = error(query("SELECT id FROM t WHERE desk = $1 AND qty > $2", "D1"), 400);
        assertEquals("08P01", e.get("code").asText());
        assertEquals(
                "bind message supplies 1 parameters, but prepared statement requires 2",
                e.get("message").asText());
        assertEquals(
                "08P01", error(query("SELECT id FROM t", 1), 400).get("code").asText());
        assertEquals(
                "bind message supplies 0 parameters, but prepared statement requires 1",
                error(post("{\"sql\": \"SELECT id FROM t WHERE id = $1\"}"), 400)
                        .get("message")
                        .asText());
    }

    @Test
    void aMarkerBeyondTheValuesIsNoSuchParameterAtItsPosition() throws Exception {
        String sql = "SELECT id FROM t WHERE desk = $1 AND qty > $3";
        JsonNode e = error(query(sql, "D1", 2), 400);
        assertEquals("42P02", e.get("code").asText());
        assertEquals("there is no parameter $3", e.get("message").asText());
        assertEquals(sql.indexOf("$3") + 1, e.get("position").asInt());
        assertEquals("42P02", error(query("SELECT $0 FROM t"), 400).get("code").asText());
    }

    @Test
    void anEngineErrorAfterBindingPointsAtTheSqlAsSent() throws Exception {
        String sql = "SELECT id FROM t WHERE desk = $1 AND nosuch = 1";
        JsonNode e = error(query(sql, "a value much longer than its marker"), 400);
        assertEquals("42703", e.get("code").asText());
        assertEquals(sql.indexOf("nosuch") + 1, e.get("position").asInt());
    }

    @Test
    void anArrayOrObjectValueIsRefused() throws Exception {
        JsonNode e = error(post("{\"sql\": \"SELECT id FROM t WHERE id = $1\", \"params\": [[1]]}"), 400);
        assertEquals("22023", e.get("code").asText());
        assertTrue(e.get("message").asText().startsWith("parameter $1 is an array"), e.toString());
        assertEquals(
                "08P01",
                error(post("{\"sql\": \"SELECT 1\", \"params\": {\"a\": 1}}"), 400)
                        .get("code")
                        .asText());
    }

    /**
     * A JSON number with an exponent beyond its digits is a DOUBLE, as SQL reads {@code 1.5e300}: it was written out
     * as a 301-digit integer and refused as "an integer literal beyond 64 bits".
     */
    @Test
    void aNumberWithALargeExponentIsADouble() throws Exception {
        JsonNode r = ok(post("{\"sql\": \"SELECT $1 > 1e299, $2 / 4, COUNT(*) FROM t WHERE id < $3\","
                + " \"params\": [1.5e300, 1e20, 1e1]}"));
        assertEquals("[[true,2.5E19,10]]", r.get("rows").toString());
        JsonNode e = error(post("{\"sql\": \"SELECT $1\", \"params\": [1e400]}"), 400);
        assertEquals("22003", e.get("code").asText());
        assertTrue(e.get("message").asText().contains("parameter $1"), e.toString());
    }

    /** The client's mistake (PostgreSQL's 22021 too), so a 400: a 500 says the server has a bug. */
    @Test
    void aTextValueWithANulCharacterIsTheClientsError() throws Exception {
        JsonNode e = error(post("{\"sql\": \"SELECT $1\", \"params\": [\"a\\u0000b\"]}"), 400);
        assertEquals("22021", e.get("code").asText());
        assertTrue(e.get("message").asText().contains("parameter $1"), e.toString());
    }

    /** PostgreSQL's numeric {@code '1.50'} is 1.50: the scale a client wrote is part of the value it sent. */
    @Test
    void aDecimalParameterKeepsTheScaleItWasWrittenWith() throws Exception {
        HttpResponse<String> answer = post("{\"sql\": \"SELECT $1, $2, $3 * 2\", \"params\": [1.50, 2.0, 0.10]}");
        JsonNode r = ok(answer);
        assertTrue(answer.body().contains("\"rows\":[[1.50,2.0,0.20]]"), answer.body());
        assertEquals("DECIMAL", r.get("columns").get(1).get("type").asText().substring(0, 7), r.toString());
    }

    /** With the last key winning, a body checked by its first {@code "sql"} would run its second. */
    @Test
    void aBodyGivingAKeyTwiceIsRefused() throws Exception {
        JsonNode e = error(post("{\"sql\": \"SELECT 1\", \"sql\": \"DELETE FROM t\"}"), 400);
        assertEquals("08P01", e.get("code").asText());
        assertTrue(e.get("message").asText().contains("sql"), e.toString());
        assertEquals("[[10]]", ok(query("SELECT COUNT(*) FROM t")).get("rows").toString());
    }

    @Test
    void aNulOrAnUnpairedSurrogateInTheSqlOrAParameterIsRefused() throws Exception {
        JsonNode e = error(post("{\"sql\": \"INSERT INTO t (id, desk) VALUES (50, 'a\\u0000b')\"}"), 400);
        assertEquals("22021", e.get("code").asText());
        assertTrue(e.get("message").asText().contains("the SQL"), e.toString());
        e = error(post("{\"sql\": \"SELECT 'x\\ud800y'\"}"), 400);
        assertEquals("22021", e.get("code").asText());
        e = error(post("{\"sql\": \"SELECT $1\", \"params\": [\"x\\udc00\"]}"), 400);
        assertEquals("22021", e.get("code").asText());
        assertTrue(e.get("message").asText().contains("parameter $1"), e.toString());
        assertEquals(
                "[[\"\uD83D\uDE00\"]]",
                ok(post("{\"sql\": \"SELECT $1\", \"params\": [\"\\ud83d\\ude00\"]}"))
                        .get("rows")
                        .toString(),
                "a surrogate pair is one character");
        assertEquals("[[10]]", ok(query("SELECT COUNT(*) FROM t")).get("rows").toString());
    }

    @Test
    void insertAndDeleteTakeParametersToo() throws Exception {
        JsonNode ins = ok(query(
                "INSERT INTO t (id, desk, px, day, ok, qty) VALUES ($1, $2, $3, $4, $5, $6)",
                100,
                "D'9",
                -12.5,
                "2024-02-29",
                false,
                null));
        assertEquals(1, ins.get("rows").asInt());
        JsonNode row = ok(query("SELECT id, desk, px, day, ok, qty FROM t WHERE id = $1", 100))
                .get("rows")
                .get(0);
        assertEquals("D'9", row.get(1).asText());
        assertEquals(-12.5, row.get(2).doubleValue(), 0.0);
        assertEquals("2024-02-29", row.get(3).asText());
        assertFalse(row.get(4).asBoolean());
        assertTrue(row.get(5).isNull());
        JsonNode del = ok(query("DELETE FROM t WHERE desk = $1 OR id = $2", "D0", 100));
        assertEquals(4, del.get("rows").asInt());
        assertEquals("[[7]]", ok(query("SELECT COUNT(*) FROM t")).get("rows").toString());
    }

    private HttpResponse<String> query(String sql, Object... params) throws Exception {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("sql", sql);
        body.put("params", new ArrayList<>(Arrays.asList(params)));
        return post(JSON.writeValueAsString(body));
    }

    private HttpResponse<String> post(String body) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v1/query"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode ok(HttpResponse<String> r) throws Exception {
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private static JsonNode error(HttpResponse<String> r, int status) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        assertFalse(r.body().contains("\tat "), "no stack trace: " + r.body());
        return JSON.readTree(r.body()).get("error");
    }
}
