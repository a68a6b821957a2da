package io.numacube.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.engine.Cube;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnType;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /v1/query} with {@code Accept: application/vnd.numacube.columnar} over a real socket: the bytes read
 * back as the format's javadoc lays them out, every cell equal to the engine's own answer, whole ({@code NCB1}) and in
 * batches ({@code NCB2}).
 */
class ResultColumnarTest {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

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

    @Test
    void everyTypeAndNullReadsBackAsTheEngineAnswered() throws Exception {
        assertSameAnswer("SELECT * FROM kinds ORDER BY id");
    }

    @Test
    void anAggregateReadsBackWithTheVersionsItRead() throws Exception {
        JsonNode header = assertSameAnswer(
                "SELECT desk, SUM(pnl), COUNT(*), MIN(trade_date) FROM trades GROUP BY desk ORDER BY desk");
        assertEquals(
                cube.version("trades"), header.get("versions").get("trades").asLong());
        assertTrue(header.get("shard") == null, "an unsharded server names no shard: " + header);
    }

    @Test
    void batchedAnswersHoldEveryRowOnceInBatchesOfTheAskedSize() throws Exception {
        int rows = cube.query("SELECT * FROM kinds").rowCount();
        assertTrue(rows > 2, "kinds has rows for several batches: " + rows);
        for (int batchRows : new int[] {1, 2, rows, rows + 5}) {
            JsonNode header = assertSameAnswer("SELECT * FROM kinds ORDER BY id", batchRows);
            assertEquals(batchRows, header.get("batch_rows").asInt());
        }
        assertSameAnswer("SELECT desk, SUM(pnl), COUNT(*), MIN(trade_date) FROM trades GROUP BY desk ORDER BY desk", 2);
        assertSameAnswer("SELECT * FROM trades ORDER BY trade_id", 1000);
        assertSameAnswer("SELECT * FROM kinds WHERE id < -1000000", 4);
    }

    @Test
    void aBatchSizeThatIsNotAPositiveNumberIsRefused() throws Exception {
        for (String bad : new String[] {"0", "-2", "many"}) {
            HttpResponse<byte[]> r = post("SELECT 1", "application/vnd.numacube.columnar; batch-rows=" + bad);
            assertEquals(400, r.statusCode());
            JsonNode e = JSON.readTree(r.body()).get("error");
            assertEquals("22023", e.get("code").asText());
            assertEquals(
                    "batch-rows is a positive number of rows: batch-rows=" + bad + " — e.g. batch-rows=65536",
                    e.get("message").asText());
        }
    }

    @Test
    void anErrorIsStillJson() throws Exception {
        HttpResponse<byte[]> r = post("SELECT nosuch FROM trades");
        assertEquals(400, r.statusCode());
        assertEquals("42703", JSON.readTree(r.body()).get("error").get("code").asText());
    }

    /** Reads the answer to {@code sql} column by column and compares every cell; returns the header. */
    private static JsonNode assertSameAnswer(String sql) throws Exception {
        return assertSameAnswer(sql, 0);
    }

    /**
     * As {@link #assertSameAnswer(String)}, asking for batches of {@code batchRows} rows (0: one answer, NCB1), each
     * batch's rows compared with the engine's at their place in the answer.
     */
    private static JsonNode assertSameAnswer(String sql, int batchRows) throws Exception {
        String accept = "application/vnd.numacube.columnar" + (batchRows > 0 ? "; batch-rows=" + batchRows : "");
        HttpResponse<byte[]> r = post(sql, accept);
        assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
        assertEquals(
                "application/vnd.numacube.columnar",
                r.headers().firstValue("Content-Type").orElse(""));
        ByteBuffer in = ByteBuffer.wrap(r.body()).order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[4];
        in.get(magic);
        assertArrayEquals((batchRows > 0 ? "NCB2" : "NCB1").getBytes(StandardCharsets.US_ASCII), magic);
        byte[] headerBytes = new byte[in.getInt()];
        in.get(headerBytes);
        JsonNode header = JSON.readTree(headerBytes);
        QueryResult expected = cube.query(sql);
        int n = header.get("row_count").asInt();
        assertEquals(expected.rowCount(), n);
        for (int c = 0; c < expected.columnCount(); c++) {
            assertEquals(
                    expected.columnNames().get(c),
                    header.get("columns").get(c).get("name").asText());
        }
        if (batchRows == 0) {
            assertRows(in, expected, 0, n);
        }
        for (int from = 0; batchRows > 0 && from < n; from += batchRows) {
            int rows = in.getInt();
            assertEquals(Math.min(batchRows, n - from), rows, "rows of the batch from row " + from);
            assertRows(in, expected, from, rows);
        }
        assertEquals(0, in.remaining(), "nothing after the last column");
        return header;
    }

    /** Reads {@code n} rows of every column and compares them with the engine's rows {@code from..from+n-1}. */
    private static void assertRows(ByteBuffer in, QueryResult expected, int from, int n) {
        for (int c = 0; c < expected.columnCount(); c++) {
            byte[] nulls = new byte[(n + 7) / 8];
            in.get(nulls);
            Object[] values = column(in, expected.columnTypes().get(c), n);
            for (int i = 0; i < n; i++) {
                int row = from + i;
                boolean isNull = (nulls[i >> 3] & (1 << (i & 7))) != 0;
                assertEquals(expected.isNull(row, c), isNull, "null of row " + row + " column " + c);
                if (!isNull) {
                    assertEquals(expectedValue(expected, row, c), values[i], "row " + row + " column " + c);
                }
            }
        }
    }

    private static Object[] column(ByteBuffer in, ColumnType type, int n) {
        Object[] v = new Object[n];
        if (type == ColumnType.STRING) {
            int[] offsets = new int[n + 1];
            for (int i = 0; i <= n; i++) {
                offsets[i] = in.getInt();
            }
            int start = in.position();
            for (int i = 0; i < n; i++) {
                v[i] = new String(in.array(), start + offsets[i], offsets[i + 1] - offsets[i], StandardCharsets.UTF_8);
            }
            in.position(start + offsets[n]);
            return v;
        }
        for (int i = 0; i < n; i++) {
            v[i] = switch (type) {
                case DOUBLE -> in.getDouble();
                case DATE -> (long) in.getInt();
                case BOOLEAN -> (long) in.get();
                default -> in.getLong();
            };
        }
        return v;
    }

    private static Object expectedValue(QueryResult r, int row, int c) {
        return switch (r.columnTypes().get(c)) {
            case STRING -> r.getString(row, c);
            case DOUBLE -> r.getDouble(row, c);
            case DECIMAL -> r.getDecimal(row, c).unscaledValue().longValueExact();
            default -> r.getLong(row, c);
        };
    }

    private static HttpResponse<byte[]> post(String sql) throws Exception {
        return post(sql, "application/vnd.numacube.columnar");
    }

    private static HttpResponse<byte[]> post(String sql, String accept) throws Exception {
        return CLIENT.send(
                HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v1/query"))
                        .header("Content-Type", "text/plain")
                        .header("Accept", accept)
                        .POST(HttpRequest.BodyPublishers.ofString(sql))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }
}
