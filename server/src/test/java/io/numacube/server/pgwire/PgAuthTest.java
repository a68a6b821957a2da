package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import io.numacube.server.auth.TestScramClient;
import io.numacube.server.auth.TestUsers;
import io.numacube.server.query.QueryAdmission;
import io.numacube.server.query.QueryService;
import io.numacube.server.write.WriteService;
import java.io.IOException;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.util.PSQLException;

/**
 * SCRAM-SHA-256 over the PostgreSQL protocol, with pgjdbc (which speaks it out of the box) and byte by byte: the
 * right password logs in, a wrong one or an unknown user fail alike, a reader's writes are 42501, and bad messages
 * during the exchange close that connection only.
 */
class PgAuthTest {

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

    static Connection connect(NumacubeServer s, String user, String password) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:"
                + s.pgAddress().getPort() + "/numacube?user=" + user + "&password=" + password);
    }

    private static long rows() {
        return cube.query("SELECT COUNT(*) FROM t").getLong(0, 0);
    }

    @Test
    void theRightPasswordLogsInAndQueries() throws SQLException {
        for (String[] u : new String[][] {
            {TestUsers.WRITER, TestUsers.WRITER_PASSWORD}, {TestUsers.READER, TestUsers.READER_PASSWORD}
        }) {
            try (Connection c = connect(server, u[0], u[1]);
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(id) FROM t")) {
                assertTrue(rs.next());
                assertEquals(rows(), rs.getLong(1));
                assertEquals(cube.query("SELECT SUM(id) FROM t").getLong(0, 0), rs.getLong(2));
            }
        }
    }

    @Test
    void aWrongPasswordAndAnUnknownUserFailAlikeWith28P01() {
        for (String[] u : new String[][] {
            {TestUsers.WRITER, "guess"}, {TestUsers.WRITER, TestUsers.READER_PASSWORD}, {"mallory", "guess"}
        }) {
            PSQLException e = assertThrows(
                    PSQLException.class, () -> connect(server, u[0], u[1]).close());
            assertEquals("28P01", e.getSQLState());
            assertEquals(
                    "password authentication failed for user \"" + u[0] + "\"",
                    e.getServerErrorMessage().getMessage());
            assertEquals("FATAL", e.getServerErrorMessage().getSeverity());
        }
    }

    @Test
    void aWriterWritesAndAReadersWritesAre42501() throws Exception {
        try (Connection w = connect(server, TestUsers.WRITER, TestUsers.WRITER_PASSWORD);
                Statement s = w.createStatement()) {
            long before = rows();
            assertEquals(2, s.executeUpdate("INSERT INTO t VALUES (100, 'W'), (101, 'W')"));
            assertEquals(before + 2, rows());
            assertEquals(2, s.executeUpdate("DELETE FROM t WHERE desk = 'W'"));
            assertEquals(before, rows());
        }
        long before = rows();
        try (Connection r = connect(server, TestUsers.READER, TestUsers.READER_PASSWORD)) {
            List<ThrowingWrite> writes = List.of(
                    c -> c.createStatement().executeUpdate("INSERT INTO t VALUES (200, 'R')"),
                    c -> c.createStatement().executeUpdate("DELETE FROM t"),
                    c -> c.createStatement().executeUpdate("UPDATE t SET desk = 'R'"),
                    c -> {
                        try (PreparedStatement p = c.prepareStatement("INSERT INTO t (id, desk) VALUES (?, ?)")) {
                            p.setLong(1, 201);
                            p.setString(2, "R");
                            p.executeUpdate();
                        }
                    },
                    c -> c.unwrap(PGConnection.class)
                            .getCopyAPI()
                            .copyIn("COPY t (id, desk) FROM STDIN (FORMAT csv)", new StringReader("202,R\n")));
            for (ThrowingWrite write : writes) {
                PSQLException e = assertThrows(PSQLException.class, () -> write.run(r));
                assertEquals("42501", e.getSQLState(), e.getMessage());
                assertTrue(
                        e.getServerErrorMessage().getMessage().startsWith("permission denied for table t: user=bob"),
                        e.getMessage());
            }
            try (Statement s = r.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
                assertTrue(rs.next());
                assertEquals(before, rs.getLong(1), "the connection goes on after a refused write");
            }
        }
        assertEquals(before, rows(), "nothing a reader sent was written");
    }

    @Test
    void aReadersWriteInATransactionBlockFailsTheBlock() throws SQLException {
        long before = rows();
        try (Connection r = connect(server, TestUsers.READER, TestUsers.READER_PASSWORD)) {
            r.setAutoCommit(false);
            try (Statement s = r.createStatement()) {
                PSQLException e =
                        assertThrows(PSQLException.class, () -> s.executeUpdate("INSERT INTO t VALUES (300, 'R')"));
                assertEquals("42501", e.getSQLState());
                PSQLException aborted = assertThrows(PSQLException.class, () -> s.executeQuery("SELECT 1"));
                assertEquals("25P02", aborted.getSQLState());
            }
            r.rollback();
        }
        assertEquals(before, rows());
    }

    @Test
    void theServerOffersScramSha256OnlyAndProvesItKnowsTheVerifier() throws Exception {
        try (RawPgClient c = new RawPgClient(server.pgAddress())) {
            c.startup(196_608, "user", TestUsers.WRITER, "database", "numacube");
            RawPgClient.Message sasl = c.read();
            assertEquals('R', sasl.type());
            ByteBuffer b = ByteBuffer.wrap(sasl.body());
            assertEquals(10, b.getInt(), "AuthenticationSASL");
            assertEquals("SCRAM-SHA-256\0\0", StandardCharsets.UTF_8.decode(b).toString(), "no -PLUS: no TLS");
            TestScramClient scram = new TestScramClient(TestUsers.WRITER_PASSWORD, "raw-nonce");
            byte[] first = scram.first().getBytes(StandardCharsets.UTF_8);
            c.send('p', "SCRAM-SHA-256", first.length, first);
            String serverFirst = saslData(c.read(), 11);
            c.send('p', scram.last(serverFirst).getBytes(StandardCharsets.UTF_8));
            assertTrue(scram.serverIsGenuine(saslData(c.read(), 12)));
            List<RawPgClient.Message> rest = c.untilReady();
            assertEquals('R', rest.getFirst().type());
            assertEquals(0, ByteBuffer.wrap(rest.getFirst().body()).getInt(), "AuthenticationOk");
            assertEquals('Z', rest.getLast().type());
            c.query("SELECT COUNT(*) FROM t");
            assertEquals("TDCZ", RawPgClient.types(c.untilReady()));
        }
    }

    @Test
    void badMessagesDuringTheExchangeCloseThatConnectionOnly() throws Exception {
        byte[] first = "n,,n=,r=abc".getBytes(StandardCharsets.UTF_8);
        assertClosedWith("08P01", "expected SASLInitialResponse", c -> c.query("SELECT 1"));
        assertClosedWith(
                "08P01", "invalid SASL authentication mechanism", c -> c.send('p', "SCRAM-SHA-256-PLUS", 3, "n,,"));
        assertClosedWith("08P01", "message ends too early", c -> c.send('p', "SCRAM-SHA-256", 99, first));
        assertClosedWith("08P01", "malformed SCRAM message", c -> c.send('p', "SCRAM-SHA-256", 5, "hello".getBytes()));
        assertClosedWith("08P01", "has no data", c -> c.send('p', "SCRAM-SHA-256", -1));
        assertClosedWith("08P01", "message too large", c -> c.raw(new byte[] {'p', 0, 1, 0x11, 0x70}));
        assertClosedWith("08P01", "nonce does not match", c -> {
            c.send('p', "SCRAM-SHA-256", first.length, first);
            saslData(c.read(), 11);
            String last = "c=biws,r=abcXYZ,p=" + java.util.Base64.getEncoder().encodeToString(new byte[32]);
            c.send('p', last.getBytes(StandardCharsets.UTF_8));
        });
        try (Connection ok = connect(server, TestUsers.READER, TestUsers.READER_PASSWORD);
                Statement s = ok.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
            assertTrue(rs.next(), "the server goes on");
        }
    }

    @Test
    void aConnectionStillAuthenticatingHoldsNoSessionAndTooManySocketsAreRefusedAtOnce() throws Exception {
        try (NumacubeServer one = NumacubeServer.start(
                        cube,
                        ServerOptions.defaults("test")
                                .withPorts(0, 0)
                                .withUsers(TestUsers.directory())
                                .withLimits(1 << 20, 1 << 20, 1));
                RawPgClient pending = new RawPgClient(one.pgAddress())) {
            pending.startup(196_608, "user", TestUsers.READER);
            assertEquals('R', pending.read().type(), "AuthenticationSASL, then the client waits");
            try (Connection c = connect(one, TestUsers.WRITER, TestUsers.WRITER_PASSWORD);
                    RawPgClient third = new RawPgClient(one.pgAddress())) {
                assertTrue(c.isValid(5), "the one session slot was free");
                RawPgClient.Message e = third.read();
                assertEquals("53300", e.fields().get('C'), "2 sockets open: the most for max-connections=1");
                assertEquals("sorry, too many clients already", e.fields().get('M'));
                assertEquals(null, third.read());
            }
        }
    }

    @Test
    void aStartupThatTricklesInIsClosedAtTheStartupDeadline() throws Exception {
        PgServer pg = PgServer.start(
                new QueryService(cube, new QueryAdmission(1, 0), Duration.ZERO),
                new WriteService(cube, WriteService.BatchLog.NONE),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new PgServer.Settings(4, 1 << 20, 500, "16.0", "test", null, TestUsers.directory(), null));
        try (RawPgClient c = new RawPgClient(pg.address())) {
            c.startup(196_608, "user", TestUsers.WRITER);
            assertEquals('R', c.read().type());
            long start = System.nanoTime();
            c.raw(new byte[] {'p', 0, 0, 0, 100});
            Thread trickle = Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 0; i < 40; i++) {
                        Thread.sleep(100); // a byte every 100 ms for 4 s: no read of the server waits its 500 ms
                        c.raw(new byte[] {'x'});
                    }
                } catch (IOException | InterruptedException closed) {
                    // the server closed it, or the test is over
                }
            });
            try {
                assertEquals(null, c.read(), "closed without a word");
            } catch (java.net.SocketException reset) {
                // closed while bytes were unread: reset, which is closed too
            } finally {
                trickle.interrupt();
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis < 2_500, "closed at the 500 ms deadline while bytes still came, not after: ms=" + millis);
        } finally {
            pg.stopAccepting();
            pg.closeConnections();
        }
    }

    /** A write through a connection, for a list of them. */
    @FunctionalInterface
    private interface ThrowingWrite {
        void run(Connection c) throws Exception;
    }

    /** Steps of a raw client after its AuthenticationSASL. */
    @FunctionalInterface
    private interface RawSteps {
        void run(RawPgClient c) throws Exception;
    }

    private static void assertClosedWith(String sqlState, String text, RawSteps steps) throws Exception {
        try (RawPgClient c = new RawPgClient(server.pgAddress())) {
            c.startup(196_608, "user", TestUsers.WRITER);
            assertEquals(10, ByteBuffer.wrap(c.read().body()).getInt());
            steps.run(c);
            RawPgClient.Message e = c.read();
            assertEquals('E', e.type(), text);
            assertEquals("FATAL", e.fields().get('S'));
            assertEquals(sqlState, e.fields().get('C'), e.fields().toString());
            assertTrue(e.fields().get('M').contains(text), e.fields().toString());
            assertEquals(null, c.read(), "closed");
        }
    }

    private static String saslData(RawPgClient.Message m, int code) {
        assertEquals('R', m.type(), m.text());
        ByteBuffer b = ByteBuffer.wrap(m.body());
        assertEquals(code, b.getInt());
        return StandardCharsets.UTF_8.decode(b).toString();
    }
}
