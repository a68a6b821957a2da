package io.numacube.server.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.util.PSQLException;

/**
 * Writes through both front ends of a real server: rows posted as CSV and JSON lines, INSERT (plain and with bound
 * parameters), COPY FROM STDIN in CSV and text format, transaction blocks that COMMIT all or ROLLBACK everything, and
 * bad rows refused with their line and field while nothing of their write becomes visible. Each test has its own cube.
 */
class WritesTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private Cube cube;
    private NumacubeServer server;

    @BeforeEach
    void start() throws Exception {
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
        TableStaging t = new TableStaging(TableSchema.parse(
                "t", "id:long,desk:string,px:decimal(12,2),day:date,ts:timestamp,ok:boolean,qty:double"));
        for (int i = 0; i < 10; i++) {
            t.setLong(0, i);
            t.setString(1, "D" + (i % 3));
            t.setLong(2, 100 * i + 5);
            t.setDate(3, 19_000 + i);
            t.setLong(4, 1_700_000_000_000_000L + i);
            t.setBoolean(5, i % 2 == 0);
            t.setDouble(6, i * 0.5);
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

    private HttpResponse<String> postRows(String table, String type, String body) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v1/tables/" + table + "/rows"))
                        .header("Content-Type", type)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + server.pgAddress().getPort() + "/numacube?user=test");
    }

    private String sums() {
        var r = cube.query("SELECT COUNT(*), SUM(id), SUM(px), COUNT(desk), MAX(day), COUNT(ts), SUM(qty) FROM t");
        return r.toString();
    }

    @Test
    void csvAndJsonLinesBatchesAreAppendedWithTheirNewVersion() throws Exception {
        HttpResponse<String> r = postRows(
                "t",
                "text/csv",
                "desk,id,px,day,ts,ok,qty\nD9,100,1.25,2024-02-29,2024-02-29 10:00:00,true,2.5\n"
                        + "D0,101,,2024-03-01,,,\n");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode done = JSON.readTree(r.body());
        assertEquals(2, done.get("rows").asInt());
        assertEquals(2, done.get("version").asLong());
        r = postRows(
                "T",
                "application/x-ndjson",
                "{\"id\": 102, \"desk\": \"D9\", \"px\": 3.5, \"day\": \"2024-03-02\", \"ok\": false}\n\n"
                        + "{\"ID\": \"103\", \"desk\": null, \"qty\": 1e3}\n");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(3, JSON.readTree(r.body()).get("version").asLong());
        var q = cube.query("SELECT COUNT(*), SUM(px), COUNT(desk), COUNT(ts), MAX(qty), MAX(day), SUM(id) FROM t");
        assertEquals("[14, 50.25, 13, 11, 1000.0, 2024-03-02, 451]", row(q));
        var one = cube.query("SELECT desk, COUNT(*) FROM t WHERE desk = 'D9' GROUP BY desk");
        assertEquals("[D9, 2]", row(one));
        JsonNode table = JSON.readTree(HTTP.send(
                        HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v1/tables/t"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body());
        assertEquals(3, table.get("version").asLong());
        assertEquals(14, table.get("rows").asLong());
        JsonNode stats = JSON.readTree(HTTP.send(
                                HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v1/query"))
                                        .header("Content-Type", "text/plain")
                                        .POST(HttpRequest.BodyPublishers.ofString("SELECT COUNT(*) FROM t"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body())
                .get("stats");
        assertEquals(3, stats.get("version").asLong(), stats.toString());
        assertEquals(3, stats.get("versions").get("t").asLong(), stats.toString());
    }

    @Test
    void aBadRowRejectsItsWholeBatchNamingLineAndField() throws Exception {
        String before = sums();
        HttpResponse<String> r = postRows("t", "text/csv", "id,desk\n200,A\n201,B\nnot-a-number,C\n");
        assertEquals(400, r.statusCode(), r.body());
        String message = JSON.readTree(r.body()).get("error").get("message").asText();
        assertTrue(message.contains(":4:") && message.contains("id"), message);
        r = postRows("t", "application/x-ndjson", "{\"id\": 1}\n{\"id\": 2, \"day\": \"2024-13-01\"}\n");
        assertEquals(400, r.statusCode(), r.body());
        message = JSON.readTree(r.body()).get("error").get("message").asText();
        assertTrue(message.contains("line 2 field day"), message);
        r = postRows("t", "application/x-ndjson", "{\"id\": 1, \"nosuch\": 2}\n");
        assertEquals(400, r.statusCode(), r.body());
        assertEquals(404, postRows("nosuch", "text/csv", "id\n1\n").statusCode());
        assertEquals(415, postRows("t", "text/plain", "id\n1\n").statusCode());
        assertEquals(before, sums());
        assertEquals(1, cube.version("t"));
    }

    @Test
    void insertAndPreparedInsertAppendRows() throws Exception {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            assertEquals(
                    2,
                    s.executeUpdate("INSERT INTO t (id, desk, px, day) VALUES (50, 'O''Neil', -1.5, DATE '2024-01-01'),"
                            + " (51, NULL, '2.25'::numeric, '2024-01-02')"));
            try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO public.t (id, desk, day, qty) VALUES (?, ?, ?, ?)")) {
                ps.setLong(1, 52);
                ps.setString(2, "D1");
                ps.setDate(3, Date.valueOf("2024-01-03"));
                ps.setNull(4, Types.DOUBLE);
                assertEquals(1, ps.executeUpdate());
            }
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(px), MIN(desk), MAX(day) FROM t WHERE id >= 50")) {
                rs.next();
                assertEquals(3, rs.getLong(1));
                assertEquals("0.75", rs.getBigDecimal(2).toPlainString());
                assertEquals("D1", rs.getString(3));
                assertEquals("2024-01-03", rs.getString(4));
            }
            assertEquals(
                    "O'Neil", cube.query("SELECT desk FROM t WHERE id = 50").getString(0, 0));
            PSQLException e = assertThrows(
                    PSQLException.class, () -> s.executeUpdate("INSERT INTO t (id, nosuch) VALUES (1, 2)"));
            assertEquals("42703", e.getSQLState());
            e = assertThrows(PSQLException.class, () -> s.executeUpdate("INSERT INTO nosuch VALUES (1)"));
            assertEquals("42P01", e.getSQLState());
            e = assertThrows(PSQLException.class, () -> s.executeUpdate("INSERT INTO t (id) VALUES (1 + 1)"));
            assertEquals("0A000", e.getSQLState());
            e = assertThrows(PSQLException.class, () -> s.executeUpdate("INSERT INTO t (id, day) VALUES (1, 'soon')"));
            assertTrue(e.getMessage().contains("field day"), e.getMessage());
        }
        assertEquals(13, cube.rowCount("t"));
    }

    /**
     * A value is read as its column's type from its text, so a cast to another type would be stored wrongly (these
     * were: 1.26, '1.50', 2.7, 10:00); they are refused and nothing is written. A bare number into a text column is
     * written as PostgreSQL's numeric writes it (1e3 is 1000, 007 is 7: {@link AssignmentCastTest}). The expected values are DuckDB 1.4's after the same INSERTs (timestamps as LocalDateTime writes them).
     */
    @Test
    void aValueIsTakenOnlyWhereItsTextReadAsTheColumnIsWhatDuckDbStores() throws Exception {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            for (String wrong : List.of(
                    "INSERT INTO t (id, px) VALUES (1, CAST(1.26 AS DECIMAL(4,1)))",
                    "INSERT INTO t (id, desk) VALUES (1, CAST(1.50 AS DECIMAL(4,1)))",
                    "INSERT INTO t (id, qty) VALUES (1, CAST(2.7 AS BIGINT))",
                    "INSERT INTO t (id, ts) VALUES (1, CAST('2024-01-01 10:00:00' AS DATE))",
                    "INSERT INTO t (id, px) VALUES (1, CAST(CAST(1.26 AS DECIMAL(4,1)) AS DECIMAL(12,2)))",
                    "INSERT INTO t (id, desk) VALUES (1, CAST(5 AS VARCHAR))",
                    "INSERT INTO t (id, qty) VALUES (1, 2.5::REAL)")) {
                PSQLException e = assertThrows(PSQLException.class, () -> s.executeUpdate(wrong), wrong);
                assertEquals("0A000", e.getSQLState(), wrong + ": " + e.getMessage());
            }
            assertEquals(10, cube.rowCount("t"), "nothing written");
            assertEquals(
                    6,
                    s.executeUpdate("INSERT INTO t (id, desk, px, ts, qty) VALUES"
                            + " (20, 42, CAST('1.255' AS DECIMAL(12,2)), CAST(DATE '2024-01-01' AS TIMESTAMP), 1e3),"
                            + " (21, 1.50, '1.5'::numeric, DATE '2024-01-02', CAST(7 AS DOUBLE)),"
                            + " (22, -12, CAST('3' AS DECIMAL(18,2)), TIMESTAMP '2024-01-03 04:05:06', 2.7),"
                            + " (23, CAST('x' AS VARCHAR), NULL, NULL, CAST('1.5' AS DOUBLE)),"
                            + " (24, 'it''s', -0.005, NULL, 0.1),"
                            + " (25, 0, 9.99, NULL, NULL)"));
        }
        var r = cube.query("SELECT id, desk, px, ts, qty FROM t WHERE id >= 20 ORDER BY id");
        assertEquals(
                List.of(
                        "20|42|1.26|2024-01-01T00:00|1000.0",
                        "21|1.50|1.50|2024-01-02T00:00|7.0",
                        "22|-12|3.00|2024-01-03T04:05:06|2.7",
                        "23|x|null|null|1.5",
                        "24|it's|-0.01|null|0.1",
                        "25|0|9.99|null|null"),
                java.util.stream.IntStream.range(0, r.rowCount())
                        .mapToObj(i -> java.util.stream.IntStream.range(0, 5)
                                .mapToObj(j -> String.valueOf(r.getObject(i, j)))
                                .collect(java.util.stream.Collectors.joining("|")))
                        .toList());
    }

    @Test
    void aTransactionBlockAppliesItsWritesAtCommitAllOrNone() throws Exception {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t (id) VALUES (60)");
            s.executeUpdate("INSERT INTO t (id) VALUES (61), (62)");
            assertEquals(10, cube.rowCount("t"), "nothing is visible before COMMIT");
            c.rollback();
            assertEquals(10, cube.rowCount("t"));
            s.executeUpdate("INSERT INTO t (id) VALUES (63)");
            ((PGConnection) c)
                    .getCopyAPI()
                    .copyIn("COPY t (id, desk) FROM STDIN (FORMAT csv)", new StringReader("64,X\n"));
            c.commit();
            assertEquals(12, cube.rowCount("t"));
            assertEquals(2, cube.version("t"), "one write, one version");
            s.executeUpdate("INSERT INTO t (id) VALUES (65)");
            assertThrows(PSQLException.class, () -> s.executeUpdate("INSERT INTO t (id) VALUES ('x')"));
            c.commit();
            assertEquals(12, cube.rowCount("t"), "a failed block commits nothing");
        }
    }

    /**
     * Savepoints (pgjdbc's {@code setSavepoint}, psycopg's nested {@code transaction()}, which SQLAlchemy runs when
     * it connects): ROLLBACK TO drops the block's writes since the savepoint and makes a failed block usable again,
     * RELEASE keeps them, COMMIT applies what is left as one write; outside a block SAVEPOINT is 25P01, an unknown name
     * 3B001. The rows left are counted by the engine itself.
     */
    @Test
    void savepointsDropOrKeepTheWritesSinceThem() throws Exception {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            assertEquals(
                    "25P01",
                    assertThrows(SQLException.class, () -> s.execute("SAVEPOINT a"))
                            .getSQLState());
            c.setAutoCommit(false);
            s.execute("INSERT INTO t (id, desk) VALUES (80, 'S')");
            java.sql.Savepoint first = c.setSavepoint("first");
            s.execute("INSERT INTO t (id, desk) VALUES (81, 'S')");
            assertThrows(SQLException.class, () -> s.execute("SELECT nosuch FROM t"));
            c.rollback(first);
            s.execute("INSERT INTO t (id, desk) VALUES (82, 'S')");
            java.sql.Savepoint second = c.setSavepoint();
            s.execute("UPDATE t SET qty = 7 WHERE id = 82");
            c.releaseSavepoint(second);
            assertEquals(
                    "3B001",
                    assertThrows(SQLException.class, () -> s.execute("RELEASE nosuch"))
                            .getSQLState());
            c.rollback();
            assertEquals(10, cube.rowCount("t"), "ROLLBACK dropped the whole block");
            s.execute("INSERT INTO t (id, desk) VALUES (80, 'S')");
            first = c.setSavepoint("first");
            s.execute("INSERT INTO t (id, desk) VALUES (81, 'S')");
            c.rollback(first);
            s.execute("INSERT INTO t (id, desk) VALUES (82, 'S')");
            second = c.setSavepoint();
            s.execute("UPDATE t SET qty = 7 WHERE id = 82");
            c.releaseSavepoint(second);
            c.commit();
        }
        assertEquals(
                "[2, 162, 7.0]",
                row(cube.query("SELECT COUNT(*), SUM(id), MAX(qty) FROM t WHERE desk = 'S'")),
                "80 (before the first savepoint) and 82 (updated, released) are kept, 81 (rolled back to) is not");
        assertEquals(12, cube.rowCount("t"));
    }

    /**
     * A statement whose parameters' types could not be inferred (its scalar subquery gave two rows) is inferred again
     * at its next run: the failed inference was kept for its text, so once the rows changed and the subquery gave
     * one, the untyped '0' beside id was still compared as text (42804) where PostgreSQL answers.
     */
    @Test
    void aFailedParameterInferenceIsNotKept() throws Exception {
        String sql =
                "SELECT COUNT(*) FROM t WHERE id > ? AND id = (SELECT MAX(id) FROM t WHERE desk = 'S9' GROUP BY qty)";
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:"
                        + server.pgAddress().getPort() + "/numacube?user=test&stringtype=unspecified");
                Statement s = c.createStatement();
                PreparedStatement q = c.prepareStatement(sql)) {
            s.execute("INSERT INTO t (id, desk, qty) VALUES (90, 'S9', 1), (91, 'S9', 2)");
            q.setString(1, "0");
            assertEquals(
                    "21000", assertThrows(SQLException.class, q::executeQuery).getSQLState());
            s.execute("DELETE FROM t WHERE id = 91");
            q.setString(1, "0");
            try (ResultSet rs = q.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(1, rs.getLong(1), "id 90 is above 0 and the subquery's one id");
            }
        }
    }

    /**
     * A statement refused (25P02) in a failed block keeps the block's writes for a ROLLBACK TO: the refusal of a
     * statement of its own implicit block (pgjdbc's extended messages up to Sync, a simple query) dropped all the
     * block's kept writes, so the ROLLBACK TO a savepoint after some of them failed with an internal error (a
     * sublist from the savepoint's count of writes to none) and the block's writes before the savepoint were lost.
     */
    @Test
    void aStatementRefusedInAFailedBlockKeepsItsWritesForRollbackTo() throws Exception {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("INSERT INTO t (id, desk) VALUES (83, 'F')");
            java.sql.Savepoint sp = c.setSavepoint("sp");
            s.execute("INSERT INTO t (id, desk) VALUES (84, 'F')");
            assertThrows(SQLException.class, () -> s.execute("SELECT nosuch FROM t"));
            assertEquals(
                    "25P02",
                    assertThrows(SQLException.class, () -> s.execute("INSERT INTO t (id, desk) VALUES (86, 'F')"))
                            .getSQLState());
            c.rollback(sp);
            s.execute("INSERT INTO t (id, desk) VALUES (85, 'F')");
            c.commit();
        }
        assertEquals(
                "[2, 168]",
                row(cube.query("SELECT COUNT(*), SUM(id) FROM t WHERE desk = 'F'")),
                "83 (before the savepoint) and 85 (after the ROLLBACK TO) are kept, 84 and the refused 86 are not");
    }

    /**
     * PostgreSQL runs a simple query of several statements, and the extended-protocol messages up to a Sync (a
     * pgjdbc batch in autocommit), as one implicit transaction: an error in a later statement leaves the earlier
     * writes unapplied. numacube applied them one by one, so a batch whose third row was bad kept the first two. (A
     * batch of UPDATEs and DELETEs: {@link BlockWritesTest}.)
     */
    @Test
    void anImplicitTransactionAppliesItsWritesAllOrNone() throws Exception {
        String before = sums();
        try (Connection c = connect();
                PreparedStatement insert = c.prepareStatement("INSERT INTO t (id, desk) VALUES (?, ?)")) {
            for (String id : List.of("70", "71", "x")) {
                insert.setObject(1, id, Types.OTHER);
                insert.setString(2, "B");
                insert.addBatch();
            }
            assertThrows(SQLException.class, insert::executeBatch);
            assertEquals(before, sums(), "a batch with a bad row applied none of it");
            for (String id : List.of("70", "71")) {
                insert.setObject(1, id, Types.OTHER);
                insert.setString(2, "B");
                insert.addBatch();
            }
            insert.executeBatch();
            assertEquals(12, cube.rowCount("t"));
            assertEquals(2, cube.version("t"), "the batch is one write");
        }
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:"
                        + server.pgAddress().getPort() + "/numacube?user=test&preferQueryMode=simple");
                Statement s = c.createStatement()) {
            String after = sums();
            assertThrows(SQLException.class, () -> s.execute("DELETE FROM t WHERE id = 70; SELECT nosuch FROM t"));
            assertThrows(
                    SQLException.class,
                    () -> s.execute(
                            "INSERT INTO t (id) VALUES (72); UPDATE t SET qty = 9 WHERE id = 72; SELECT 1/'x'"));
            assertEquals(after, sums(), "a simple query with a failing statement applied none of its writes");
            assertThrows(
                    SQLException.class,
                    () -> s.execute(
                            "INSERT INTO t (id) VALUES (73); UPDATE t SET qty = 5 WHERE id = 73; COMMIT; SELECT nosuch FROM t"));
            assertEquals(
                    "[5.0]",
                    row(cube.query("SELECT SUM(qty) FROM t WHERE id = 73")),
                    "a COMMIT inside it applies what came before, the UPDATE having seen the INSERT");
        }
    }

    @Test
    void everyWriteAndQueryTakesASchemaQualifiedName() throws Exception {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            assertEquals(1, s.executeUpdate("INSERT INTO numacube.public.t (id, desk) VALUES (80, 'Q')"));
            long n = ((PGConnection) c)
                    .getCopyAPI()
                    .copyIn("COPY public.t (id, desk) FROM STDIN WITH (FORMAT csv)", new StringReader("81,Q\n"));
            assertEquals(1, n);
            try (var rs = s.executeQuery("SELECT COUNT(*) FROM public.t WHERE desk = 'Q'")) {
                rs.next();
                assertEquals(2, rs.getLong(1));
            }
            assertEquals(2, s.executeUpdate("DELETE FROM \"public\".t WHERE desk = 'Q'"));
            PSQLException e =
                    assertThrows(PSQLException.class, () -> s.executeUpdate("INSERT INTO sales.t (id) VALUES (1)"));
            assertEquals("42P01", e.getSQLState());
            e = assertThrows(PSQLException.class, () -> s.executeQuery("SELECT id FROM sales.t"));
            assertEquals("42P01", e.getSQLState());
            assertEquals(16, e.getServerErrorMessage().getPosition());
        }
        HttpResponse<String> r = postRows("public.t", "text/csv", "id,desk\n82,Q\n");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("t", JSON.readTree(r.body()).get("table").asText());
        assertEquals(11, cube.rowCount("t"));
    }

    @Test
    void updateChangesTheRowsOfItsWhereOverBothFrontEnds() throws Exception {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            assertEquals(4, s.executeUpdate("UPDATE t SET qty = qty + 10, desk = 'U' WHERE desk = 'D0'"));
            assertEquals(10, cube.rowCount("t"));
            var u = cube.query("SELECT COUNT(*), MIN(desk), SUM(qty) FROM t WHERE desk = 'U'");
            assertEquals(4, u.getLong(0, 0));
            assertEquals("U", u.getString(0, 1));
            assertEquals(0 + 1.5 + 3 + 4.5 + 40, u.getDouble(0, 2), 0.0);
            try (PreparedStatement ps = c.prepareStatement("UPDATE public.t SET px = ? WHERE id = ?")) {
                ps.setBigDecimal(1, new java.math.BigDecimal("-7.25"));
                ps.setLong(2, 3);
                assertEquals(1, ps.executeUpdate());
            }
            assertEquals(
                    "-7.25",
                    cube.query("SELECT px FROM t WHERE id = 3").getDecimal(0, 0).toPlainString());
            c.setAutoCommit(false);
            s.executeUpdate("UPDATE t SET desk = 'R'");
            c.rollback();
            assertEquals(
                    0, cube.query("SELECT COUNT(*) FROM t WHERE desk = 'R'").getLong(0, 0));
            s.executeUpdate("UPDATE t SET desk = 'C' WHERE id < 2");
            s.executeUpdate("INSERT INTO t (id, desk) VALUES (99, 'C')");
            c.commit();
            assertEquals(
                    3, cube.query("SELECT COUNT(*) FROM t WHERE desk = 'C'").getLong(0, 0));
            c.setAutoCommit(true);
            PSQLException e = assertThrows(PSQLException.class, () -> s.executeUpdate("UPDATE t SET nosuch = 1"));
            assertEquals("42703", e.getSQLState());
            assertEquals(14, e.getServerErrorMessage().getPosition());
        }
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v1/query"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"sql\": \"UPDATE t SET qty = $1 WHERE desk = $2\", \"params\": [0.5, \"C\"]}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        JsonNode done = JSON.readTree(r.body());
        assertEquals("UPDATE", done.get("command").asText());
        assertEquals(3, done.get("rows").asInt());
        assertEquals(1.5, cube.query("SELECT SUM(qty) FROM t WHERE desk = 'C'").getDouble(0, 0), 0.0);
    }

    @Test
    void aBlocksUpdateAndDeleteAnswerTheirRowCountAndTheirErrorWhenIssued() throws Exception {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            assertEquals(4, s.executeUpdate("UPDATE t SET qty = qty + 1 WHERE desk = 'D0'"));
            assertEquals(1, s.executeUpdate("INSERT INTO t (id, desk) VALUES (70, 'D0')"));
            assertEquals(5, s.executeUpdate("UPDATE t SET desk = 'E' WHERE desk = 'D0'"), "sees the block's INSERT");
            assertEquals(0, s.executeUpdate("DELETE FROM t WHERE desk = 'D0'"), "sees the block's UPDATE");
            assertEquals(2, s.executeUpdate("DELETE FROM t WHERE id IN (1, 70)"));
            assertEquals(10, cube.rowCount("t"), "nothing is visible before COMMIT");
            assertEquals(1, cube.version("t"));
            c.commit();
            assertEquals(9, cube.rowCount("t"));
            assertEquals(
                    4, cube.query("SELECT COUNT(*) FROM t WHERE desk = 'E'").getLong(0, 0));
            PSQLException e = assertThrows(PSQLException.class, () -> s.executeUpdate("UPDATE t SET nosuch = 1"));
            assertEquals("42703", e.getSQLState());
            assertEquals(14, e.getServerErrorMessage().getPosition(), "the position in the UPDATE, not in COMMIT");
            c.rollback();
            e = assertThrows(PSQLException.class, () -> s.executeUpdate("DELETE FROM t WHERE nosuch > 1"));
            assertEquals("42703", e.getSQLState());
            c.rollback();
        }
        assertEquals(9, cube.rowCount("t"));
    }

    @Test
    void aBlocksSelectSeesItsOwnWritesAndNoOtherSessionDoes() throws Exception {
        String count = "SELECT COUNT(*), SUM(id), COUNT(*) FILTER (WHERE desk = 'E') FROM t";
        try (Connection c = connect();
                Statement s = c.createStatement();
                Connection other = connect();
                Statement o = other.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t (id, desk) VALUES (80, 'D0'), (81, 'D1')");
            s.executeUpdate("UPDATE t SET desk = 'E' WHERE desk = 'D0'");
            s.executeUpdate("DELETE FROM t WHERE id = 1");
            String inBlock = "[11, " + (45 + 80 + 81 - 1) + ", 5]";
            assertEquals(inBlock, row(s, count), "the block sees its INSERT, UPDATE and DELETE");
            assertEquals("[10, 45, 0]", row(o, count), "another session sees none of them");
            assertEquals(1, cube.version("t"));
            c.rollback();
            assertEquals("[10, 45, 0]", row(s, count), "after ROLLBACK the session sees the table as it was");
            s.executeUpdate("INSERT INTO t (id, desk) VALUES (90, 'E')");
            assertEquals("[11, 135, 1]", row(s, count));
            c.commit();
            assertEquals("[11, 135, 1]", row(o, count), "after COMMIT every session sees it");
            assertEquals(2, cube.version("t"));
        }
        assertEquals(11, cube.rowCount("t"), "the block's queries left no version behind");
    }

    private static String row(Statement s, String sql) throws SQLException {
        try (java.sql.ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            List<Object> values = new java.util.ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                values.add(rs.getObject(i));
            }
            return values.toString();
        }
    }

    @Test
    void describingAPreparedWriteRunsNothing() throws Exception {
        String before = sums();
        try (Connection c = connect();
                PreparedStatement update = c.prepareStatement("UPDATE t SET desk = ? WHERE id > ?");
                PreparedStatement insert = c.prepareStatement("INSERT INTO t (id, desk) VALUES (?, ?)");
                PreparedStatement delete = c.prepareStatement("DELETE FROM t WHERE id > ?")) {
            assertEquals(2, update.getParameterMetaData().getParameterCount());
            assertEquals(2, insert.getParameterMetaData().getParameterCount());
            assertEquals(1, delete.getParameterMetaData().getParameterCount());
            assertEquals(null, update.getMetaData());
        }
        assertEquals(before, sums(), "a Describe of a statement applied no write");
    }

    @Test
    void copyFromStdinReadsCsvAndTheTextFormat() throws Exception {
        try (Connection c = connect()) {
            var copy = ((PGConnection) c).getCopyAPI();
            long n = copy.copyIn(
                    "COPY t (id, desk, px) FROM STDIN WITH (FORMAT csv, HEADER true)",
                    new StringReader("a,b,c\n70,\"x,y\",1.5\n71,,\n"));
            assertEquals(2, n);
            n = copy.copyIn(
                    "COPY t (id, desk, ok) FROM STDIN", new StringReader("72\ttab\\there\tt\n73\t\\N\tf\n\\.\n"));
            assertEquals(2, n);
            assertEquals(
                    "tab\there", cube.query("SELECT desk FROM t WHERE id = 72").getString(0, 0));
            assertEquals("x,y", cube.query("SELECT desk FROM t WHERE id = 70").getString(0, 0));
            assertEquals(
                    2,
                    cube.query("SELECT COUNT(*) FROM t WHERE id > 69 AND desk IS NULL")
                            .getLong(0, 0));
            PSQLException e = assertThrows(
                    PSQLException.class,
                    () -> copy.copyIn("COPY t (id) FROM STDIN (FORMAT csv)", new StringReader("80\nbad\n")));
            assertTrue(e.getMessage().contains(":2:"), e.getMessage());
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
                rs.next();
                assertEquals(14, rs.getLong(1), "the connection works on after a failed COPY");
            }
        }
    }

    /**
     * A bad row of COPY FROM STDIN is named by its line in the data the client sent, as PostgreSQL 15's {@code CONTEXT:
     * COPY t, line N, column id: "bad"} has it for the same input: line 2 without HEADER, line 3 with one (the header
     * is line 1), in CSV and the text format, applied at once or checked inside a transaction block; a text row with
     * too few or too many fields is PostgreSQL's 22P04 at its line. CSV without HEADER said line 3 (our own header row
     * was counted), the text format read a HEADER line as data, a short text row was taken with NULLs, and an empty
     * line was no row (PostgreSQL's {@code COPY s FROM STDIN} of {@code a}, an empty line, {@code b} is 3 rows, one '').
     */
    @Test
    void aBadCopyRowIsNamedByItsLineInTheClientsData() throws Exception {
        String[][] cases = {
            {"COPY t (id) FROM STDIN (FORMAT csv)", "80\nbad\n", "COPY t FROM STDIN:2:1:"},
            {"COPY t (id) FROM STDIN (FORMAT csv, HEADER)", "id\n80\nbad\n", "COPY t FROM STDIN:3:1:"},
            {"COPY t (id) FROM STDIN WITH CSV", "80\n81\n82\nbad\n", "COPY t FROM STDIN:4:1:"},
            {"COPY t (id) FROM STDIN", "80\nbad\n", "COPY t FROM STDIN: line 2 field id:"},
            {"COPY t (id) FROM STDIN (HEADER)", "id\n80\nbad\n", "COPY t FROM STDIN: line 3 field id:"},
            {"COPY t (id, desk) FROM STDIN", "80\tx\n81\n", "line 2: missing data for column \"desk\""},
            {"COPY t (id, desk) FROM STDIN", "80\tx\n\n", "COPY t FROM STDIN: line 2:"},
            {"COPY t (id, desk) FROM STDIN", "80\tx\t\n", "line 1: extra data after last expected column"},
        };
        try (Connection c = connect()) {
            var copy = ((PGConnection) c).getCopyAPI();
            for (boolean block : new boolean[] {false, true}) {
                c.setAutoCommit(!block);
                for (String[] k : cases) {
                    PSQLException e =
                            assertThrows(PSQLException.class, () -> copy.copyIn(k[0], new StringReader(k[1])), k[0]);
                    assertTrue(e.getMessage().contains(k[2]), k[0] + ": " + e.getMessage());
                    if (block) {
                        c.rollback();
                    }
                }
            }
            c.setAutoCommit(true);
            assertEquals(3, copy.copyIn("COPY t (desk) FROM STDIN", new StringReader("a\n\nb\n\\.\n")));
        }
        assertEquals(3, cube.query("SELECT COUNT(*) FROM t WHERE id IS NULL").getLong(0, 0));
        assertEquals(1, cube.query("SELECT COUNT(*) FROM t WHERE desk = ''").getLong(0, 0), "an empty line is ''");
    }

    /**
     * PostgreSQL refuses a NUL in text (22021), and psql would show {@code a\0b} as {@code a}; an unpaired surrogate
     * (JSON's {@code \ud800}) has no UTF-8 form and came back over the wire as {@code ?}. Both were stored.
     */
    @Test
    void textWithANulOrAnUnpairedSurrogateIsRefusedByEveryWayInAndNothingIsWritten() throws Exception {
        String before = sums();
        String[][] posts = {
            {"text/csv", "id,desk\n200,ok\n201,a\u0000b\n", "rows:3 holds a NUL"},
            {
                "application/x-ndjson",
                "{\"id\": 200, \"desk\": \"ok\"}\n{\"id\": 201, \"desk\": \"a\\u0000b\"}\n",
                "line 2 holds a NUL"
            },
            {"application/x-ndjson", "{\"id\": 201, \"desk\": \"x\\ud800y\"}\n", "unpaired surrogate \\ud800"},
        };
        for (String[] p : posts) {
            HttpResponse<String> r = postRows("t", p[0], p[1]);
            assertEquals(400, r.statusCode(), r.body());
            JsonNode error = JSON.readTree(r.body()).get("error");
            assertEquals("22021", error.get("code").asText(), r.body());
            assertTrue(error.get("message").asText().contains(p[2]), r.body());
        }
        try (Connection c = connect()) {
            var copy = ((PGConnection) c).getCopyAPI();
            for (String sql :
                    new String[] {"COPY t (id, desk) FROM STDIN (FORMAT csv)", "COPY t (id, desk) FROM STDIN"}) {
                String data = sql.contains("csv") ? "202,a\u0000b\n" : "202\ta\\0b\n";
                PSQLException e = assertThrows(PSQLException.class, () -> copy.copyIn(sql, new StringReader(data)));
                assertEquals("22021", e.getSQLState(), e.getMessage());
            }
        }
        assertEquals(before, sums());
        assertEquals(0, cube.query("SELECT COUNT(*) FROM t WHERE id > 199").getLong(0, 0));
    }

    /**
     * 9999999999.995 has ten digits before the point, as a DECIMAL(12,2) allows, but rounds to 10000000000.00: PostgreSQL
     * 15 refuses it by INSERT, UPDATE and COPY with 22003 {@code numeric field overflow} ("A field with precision 12,
     * scale 2 must round to an absolute value less than 10^10."), as it does 12345678901; it was 22P02 "too many digits
     * before the point". 9999999999.994 is taken.
     */
    @Test
    void aDecimalThatRoundsPastItsPrecisionIsANumericFieldOverflowByEveryWayIn() throws Exception {
        String before = sums();
        String detail = "a field with precision 12, scale 2 must round to an absolute value less than 10^10";
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            for (String sql : List.of(
                    "INSERT INTO t (id, px) VALUES (300, 9999999999.995)",
                    "INSERT INTO t (id, px) VALUES (300, '9999999999.995')",
                    "INSERT INTO t (id, px) VALUES (300, 12345678901)",
                    "UPDATE t SET px = 9999999999.995 WHERE id = 1")) {
                PSQLException e = assertThrows(PSQLException.class, () -> s.executeUpdate(sql), sql);
                assertEquals("22003", e.getSQLState(), sql + ": " + e.getMessage());
                assertTrue(e.getMessage().contains("numeric field overflow"), e.getMessage());
                assertTrue(e.getMessage().contains(detail), e.getMessage());
            }
            var copy = ((PGConnection) c).getCopyAPI();
            PSQLException e = assertThrows(
                    PSQLException.class,
                    () -> copy.copyIn(
                            "COPY t (id, px) FROM STDIN (FORMAT csv)", new StringReader("301,9999999999.995\n")));
            assertEquals("22003", e.getSQLState(), e.getMessage());
            assertTrue(e.getMessage().contains(detail), e.getMessage());
        }
        String[][] posts = {
            {"text/csv", "id,px\n302,9999999999.995\n"},
            {"application/x-ndjson", "{\"id\": 302, \"px\": 9999999999.995}\n"}
        };
        for (String[] p : posts) {
            HttpResponse<String> r = postRows("t", p[0], p[1]);
            assertEquals(400, r.statusCode(), r.body());
            JsonNode error = JSON.readTree(r.body()).get("error");
            assertEquals("22003", error.get("code").asText(), r.body());
            assertTrue(error.get("message").asText().contains(detail), r.body());
        }
        assertEquals(before, sums());
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            assertEquals(1, s.executeUpdate("INSERT INTO t (id, px) VALUES (303, 9999999999.994)"));
        }
        assertEquals(
                "9999999999.99",
                cube.query("SELECT px FROM t WHERE id = 303").getDecimal(0, 0).toPlainString());
    }

    @Test
    void deletesAndUpsertsByKeyThroughBothFrontEnds() throws Exception {
        cube.setKey("t", java.util.List.of("id"));
        HttpResponse<String> r = postRows("t", "text/csv", "id,desk\n3,U\n100,N\n3,V\n");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(2, JSON.readTree(r.body()).get("rows").asLong(), "the last row of id 3 only");
        assertEquals(11, cube.rowCount("t"));
        assertEquals("V", cube.query("SELECT desk FROM t WHERE id = 3").getString(0, 0));
        long d0 = cube.query("SELECT COUNT(*) FROM t WHERE desk = 'D0'").getLong(0, 0);
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            assertEquals(d0, s.executeUpdate("DELETE FROM t WHERE desk = 'D0'"));
            c.setAutoCommit(false);
            s.executeUpdate("DELETE FROM t");
            c.rollback();
            assertEquals(11 - d0, cube.rowCount("t"));
            s.executeUpdate("DELETE FROM t WHERE id = 100");
            s.executeUpdate("INSERT INTO t (id, desk) VALUES (100, 'again')");
            c.commit();
            assertEquals(
                    "again", cube.query("SELECT desk FROM t WHERE id = 100").getString(0, 0));
            c.setAutoCommit(true);
            PSQLException e =
                    assertThrows(PSQLException.class, () -> s.executeUpdate("DELETE FROM t WHERE nosuch > 1"));
            assertEquals("42703", e.getSQLState());
            assertEquals(21, e.getServerErrorMessage().getPosition());
        }
        HttpResponse<String> d = HTTP.send(
                HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v1/query"))
                        .header("Content-Type", "text/plain")
                        .POST(HttpRequest.BodyPublishers.ofString("DELETE FROM t WHERE id < 5"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, d.statusCode(), d.body());
        JsonNode done = JSON.readTree(d.body());
        assertEquals("DELETE", done.get("command").asText());
        assertEquals(0, cube.query("SELECT COUNT(*) FROM t WHERE id < 5").getLong(0, 0));
        assertEquals(cube.version("t"), done.get("version").asLong());
    }

    @Test
    void metricsCountQueriesWritesAndTables() throws Exception {
        postRows("t", "text/csv", "id\n500\n501\n");
        postRows("t", "text/csv", "id\nbad\n");
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM t WHERE id = 500");
            s.executeUpdate("UPDATE t SET desk = 'M' WHERE id < 3");
            s.executeQuery("SELECT COUNT(*) FROM t").close();
            assertThrows(PSQLException.class, () -> s.executeQuery("SELECT nosuch FROM t"));
        }
        HttpResponse<String> m = HTTP.send(
                HttpRequest.newBuilder(URI.create(server.httpUrl() + "/metrics"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, m.statusCode());
        assertTrue(m.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
        java.util.Map<String, Double> v = new java.util.HashMap<>();
        for (String line : m.body().split("\n")) {
            if (!line.startsWith("#") && !line.isBlank()) {
                int sp = line.lastIndexOf(' ');
                v.put(line.substring(0, sp), Double.parseDouble(line.substring(sp + 1)));
            }
        }
        assertEquals(3.0, v.get("numacube_writes_total"), m.body());
        assertEquals(2.0, v.get("numacube_rows_written_total"));
        assertEquals(1.0, v.get("numacube_rows_deleted_total"));
        assertEquals(3.0, v.get("numacube_rows_updated_total"));
        assertEquals(1.0, v.get("numacube_queries_total{outcome=\"ok\"}"));
        assertEquals(1.0, v.get("numacube_queries_total{outcome=\"error\"}"));
        assertEquals(2.0, v.get("numacube_query_duration_seconds_count"));
        assertEquals(2.0, v.get("numacube_query_duration_seconds_bucket{le=\"+Inf\"}"));
        assertEquals((double) cube.rowCount("t"), v.get("numacube_table_rows{table=\"t\"}"));
        assertEquals((double) cube.version("t"), v.get("numacube_table_version{table=\"t\"}"));
        assertEquals(0.0, v.get("numacube_queries_running"));
    }

    private static String row(io.numacube.engine.result.QueryResult r) {
        StringBuilder b = new StringBuilder("[");
        for (int c = 0; c < r.columnCount(); c++) {
            b.append(c == 0 ? "" : ", ").append(r.getObject(0, c));
        }
        return b.append("]").toString();
    }
}
