package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.query.ServerMetrics;
import io.numacube.server.write.WriteService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Settings are transactional, as PostgreSQL's: a SET in a block that rolls back (or back to a savepoint) is undone, a
 * SET LOCAL lasts until its block ends, a SET after a SET LOCAL of the same name stays; SET LOCAL outside a block lasts
 * until its implicit transaction ends; an implicit transaction that fails undoes its SETs. The clock functions read the TimeZone so left (found by review: a SET LOCAL TimeZone stayed for the
 * session, and now() with it).
 */
class TransactionalSettingsTest {

    private Cube cube;
    private NumacubeServer server;
    private Connection c;
    private Statement s;

    @BeforeEach
    void start() throws Exception {
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(1).withThreadsPerNode(1));
        TableStaging t = new TableStaging(TableSchema.parse("t", "id:long"));
        t.setLong(0, 1);
        t.endRow();
        cube.loadTable(t);
        server = NumacubeServer.start(
                ServerOptions.defaults("test").withPorts(0, 0),
                new WriteService(cube, WriteService.BatchLog.NONE),
                new ServerMetrics());
        c = connect("");
        s = c.createStatement();
    }

    @AfterEach
    void stop() throws SQLException {
        c.close();
        server.close();
        cube.close();
    }

    private String show(String name) throws SQLException {
        try (ResultSet rs = s.executeQuery("SHOW " + name)) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    @Test
    void aSetLocalEndsWithItsBlockAndTheClockFollows() throws SQLException {
        s.execute("BEGIN");
        s.execute("SET LOCAL TimeZone = 'Asia/Tokyo'");
        assertEquals("Asia/Tokyo", show("TimeZone"));
        s.execute("COMMIT");
        assertEquals("UTC", show("TimeZone"));
        try (ResultSet rs = s.executeQuery("SELECT CAST(now() AS TIMESTAMP) FROM t")) {
            assertTrue(rs.next());
            LocalDateTime now = rs.getTimestamp(1).toLocalDateTime();
            LocalDateTime utc = LocalDateTime.now(ZoneId.of("UTC"));
            assertTrue(Duration.between(now, utc).abs().toMinutes() < 5, now + " is not UTC's wall clock " + utc);
        }
    }

    @Test
    void aSetInABlockThatRollsBackIsUndoneAndOneThatCommitsStays() throws SQLException {
        String app = show("application_name");
        s.execute("BEGIN");
        s.execute("SET TimeZone = 'Europe/Berlin'");
        s.execute("SET application_name = 'rolled back'");
        s.execute("ROLLBACK");
        assertEquals("UTC", show("TimeZone"));
        assertEquals(app, show("application_name"));
        s.execute("BEGIN");
        s.execute("SET TimeZone = 'Europe/Berlin'");
        s.execute("COMMIT");
        assertEquals("Europe/Berlin", show("TimeZone"));
    }

    @Test
    void rollbackToASavepointUndoesTheSetsAfterItAndReleaseKeepsThem() throws SQLException {
        String app = show("application_name");
        s.execute("BEGIN");
        s.execute("SET TimeZone = 'Europe/Berlin'");
        s.execute("SAVEPOINT a");
        s.execute("SET TimeZone = 'Asia/Tokyo'");
        s.execute("SET LOCAL application_name = 'x'");
        s.execute("ROLLBACK TO SAVEPOINT a");
        assertEquals("Europe/Berlin", show("TimeZone"));
        assertEquals(app, show("application_name"));
        s.execute("SAVEPOINT b");
        s.execute("SET TimeZone = 'America/New_York'");
        s.execute("RELEASE SAVEPOINT b");
        s.execute("COMMIT");
        assertEquals("America/New_York", show("TimeZone"));
    }

    @Test
    void aSetAfterASetLocalStaysAndASetLocalAfterASetGoesBackToIt() throws SQLException {
        s.execute("BEGIN");
        s.execute("SET LOCAL TimeZone = 'Asia/Tokyo'");
        s.execute("SET TimeZone = 'Europe/Berlin'");
        s.execute("COMMIT");
        assertEquals("Europe/Berlin", show("TimeZone"));
        s.execute("BEGIN");
        s.execute("SET TimeZone = 'Asia/Tokyo'");
        s.execute("SET LOCAL TimeZone = 'America/New_York'");
        s.execute("SET LOCAL TimeZone TO DEFAULT");
        s.execute("COMMIT");
        assertEquals("Asia/Tokyo", show("TimeZone"));
    }

    @Test
    void aSetLocalOutsideABlockWarnsAndLastsUntilItsTransactionEnds() throws SQLException {
        s.execute("SET LOCAL TimeZone = 'Asia/Tokyo'");
        assertNotNull(s.getWarnings(), "PostgreSQL warns: SET LOCAL can only be used in transaction blocks");
        assertEquals("UTC", show("TimeZone"));
        // pgjdbc sends the two as Parse/Bind/Execute before one Sync: PostgreSQL warns, and the SHOW sees it
        s.clearWarnings();
        assertEquals(List.of("Asia/Tokyo"), shown(s, "SET LOCAL TimeZone = 'Asia/Tokyo'; SHOW TimeZone"));
        assertNotNull(s.getWarnings());
        assertEquals("UTC", show("TimeZone"));
        try (Connection simple = connect("&preferQueryMode=simple");
                Statement q = simple.createStatement()) {
            // one Query of several statements is PostgreSQL's implicit transaction block: no warning
            assertEquals(List.of("Asia/Tokyo"), shown(q, "SET LOCAL TimeZone = 'Asia/Tokyo'; SHOW TimeZone"));
            assertNull(q.getWarnings());
            assertEquals(List.of("UTC"), shown(q, "SHOW TimeZone"));
        }
    }

    /**
     * PostgreSQL 15 rolls an implicit transaction back at its error, and its SETs with it: a simple Query's {@code SET
     * TimeZone = 'X'; SELECT 1/0}, or a SET before a failing statement of a batch before Sync; one that succeeds, or
     * that a COMMIT inside the Query ended before the error, stays (found by review: the SET stayed).
     */
    @Test
    void aSetInAnImplicitTransactionThatFailsIsUndone() throws SQLException {
        String bad = "SELECT no_such_column FROM t";
        try (Connection simple = connect("&preferQueryMode=simple");
                Statement q = simple.createStatement()) {
            assertThrows(SQLException.class, () -> q.execute("SET TimeZone = 'Europe/Berlin'; " + bad));
            assertEquals(List.of("UTC"), shown(q, "SHOW TimeZone"));
            assertThrows(SQLException.class, () -> q.execute("SET TimeZone = 'Asia/Tokyo'; BEGIN; " + bad));
            q.execute("ROLLBACK");
            assertEquals(List.of("UTC"), shown(q, "SHOW TimeZone"));
            assertThrows(SQLException.class, () -> q.execute("SET TimeZone = 'Asia/Tokyo'; COMMIT; " + bad));
            assertEquals(List.of("Asia/Tokyo"), shown(q, "SHOW TimeZone"));
            q.execute("SET TimeZone = 'Europe/Berlin'; SELECT 1");
            assertEquals(List.of("Europe/Berlin"), shown(q, "SHOW TimeZone"));
        }
        assertThrows(SQLException.class, () -> s.execute("SET TimeZone = 'Europe/Berlin'; " + bad));
        assertEquals("UTC", show("TimeZone"));
        assertThrows(SQLException.class, () -> s.execute("RESET TimeZone; SET application_name = 'x'; " + bad));
        assertEquals("UTC", show("TimeZone"));
        s.execute("SET TimeZone = 'Europe/Berlin'; SELECT 1");
        assertEquals("Europe/Berlin", show("TimeZone"));
    }

    /** RESET goes back to the startup packet's value, as PostgreSQL's (pgjdbc sends its JVM's TimeZone there). */
    @Test
    void resetGoesBackToTheStartupValue() throws SQLException {
        try (Connection tokyo = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:"
                        + server.pgAddress().getPort() + "/numacube?user=test&options=-c%20TimeZone=Asia/Tokyo");
                Statement q = tokyo.createStatement()) {
            q.execute("SET TimeZone = 'UTC'");
            q.execute("RESET TimeZone");
            assertEquals(List.of("Asia/Tokyo"), shown(q, "SHOW TimeZone"));
            q.execute("SET TimeZone = 'UTC'");
            q.execute("RESET ALL");
            assertEquals(List.of("Asia/Tokyo"), shown(q, "SHOW TimeZone"));
        }
    }

    private Connection connect(String options) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:"
                + server.pgAddress().getPort() + "/numacube?user=test&options=-c%20TimeZone=UTC" + options);
    }

    /** The first value of each result that has rows, of statements run as one {@link Statement#execute}. */
    private static List<String> shown(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        boolean rows = st.execute(sql);
        while (rows || st.getUpdateCount() >= 0) {
            if (rows) {
                try (ResultSet rs = st.getResultSet()) {
                    assertTrue(rs.next(), sql);
                    out.add(rs.getString(1));
                }
            }
            rows = st.getMoreResults();
        }
        return out;
    }
}
