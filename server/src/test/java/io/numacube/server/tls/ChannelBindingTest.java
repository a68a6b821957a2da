package io.numacube.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import io.numacube.server.auth.TestUsers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SCRAM-SHA-256-PLUS over TLS with pgjdbc's {@code channelBinding=require} (which refuses a server that does not offer
 * it, as the server without TLS shows): the client binds its proof to the certificate it saw, the server checks it
 * against its own; a wrong password is still refused.
 */
class ChannelBindingTest {

    @TempDir
    static Path dir;

    private static Cube cube;
    private static NumacubeServer tls;
    private static NumacubeServer plain;
    private static TestCertificates certs;

    @BeforeAll
    static void start() throws Exception {
        certs = TestCertificates.make(dir, "RSA");
        cube = TestCube.tenDesks();
        tls = NumacubeServer.start(
                cube,
                ServerOptions.defaults("test")
                        .withPorts(0, 0)
                        .withUsers(TestUsers.directory())
                        .withTls(ServerTls.load(certs.cert(), certs.key())));
        plain = NumacubeServer.start(
                cube, ServerOptions.defaults("test").withPorts(0, 0).withUsers(TestUsers.directory()));
    }

    @AfterAll
    static void stop() {
        tls.close();
        plain.close();
        cube.close();
    }

    private static String url(NumacubeServer server, String options) {
        return "jdbc:postgresql://localhost:" + server.pgAddress().getPort() + "/numacube?channelBinding=require&"
                + options;
    }

    @Test
    void aClientRequiringChannelBindingLogsInOverTlsAndQueries() throws Exception {
        try (Connection c = DriverManager.getConnection(
                        url(tls, "sslmode=verify-full&sslrootcert=" + certs.cert()),
                        TestUsers.WRITER,
                        TestUsers.WRITER_PASSWORD);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM t")) {
            assertTrue(rs.next());
            assertEquals(cube.query("SELECT COUNT(*) FROM t").getLong(0, 0), rs.getLong(1));
        }
        SQLException wrong = assertThrows(
                SQLException.class,
                () -> DriverManager.getConnection(
                        url(tls, "sslmode=verify-full&sslrootcert=" + certs.cert()), TestUsers.WRITER, "guess"));
        assertEquals("28P01", wrong.getSQLState(), wrong.getMessage());
    }

    @Test
    void withoutTlsThereIsNothingToBindToAndSuchAClientGivesUp() {
        SQLException e = assertThrows(
                SQLException.class,
                () -> DriverManager.getConnection(
                        url(plain, "sslmode=disable"), TestUsers.WRITER, TestUsers.WRITER_PASSWORD));
        assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("channel binding"), e.getMessage());
    }
}
