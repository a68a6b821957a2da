package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Settings are transactional, as PostgreSQL's: a SET in a block that rolls back (or back to a savepoint) is undone, a
 * SET LOCAL lasts until its block ends, a SET after a SET LOCAL of the same name stays; SET LOCAL outside a block has
 * no effect. The clock functions read the TimeZone so left (found by review: a SET LOCAL TimeZone stayed for the
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
        c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:"
                + server.pgAddress().getPort() + "/numacube?user=test&options=-c%20TimeZone=UTC");
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
    void aSetLocalOutsideABlockWarnsAndChangesNothing() throws SQLException {
        s.execute("SET LOCAL TimeZone = 'Asia/Tokyo'");
        assertNotNull(s.getWarnings(), "PostgreSQL warns: SET LOCAL can only be used in transaction blocks");
        assertEquals("UTC", show("TimeZone"));
        SQLException e =
                assertThrows(SQLException.class, () -> s.execute("SET LOCAL TimeZone = 'Asia/Tokyo'; SELECT 1"));
        assertEquals("0A000", e.getSQLState(), e.getMessage());
        assertEquals("UTC", show("TimeZone"));
    }
}
