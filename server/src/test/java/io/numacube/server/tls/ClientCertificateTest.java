package io.numacube.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import io.numacube.server.auth.TestUsers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * Client certificates ({@code serve --tls-client-ca}): a client presenting a certificate the server verifies logs in
 * as the user its CN names, without a password, over PostgreSQL (pgjdbc, which must then ask as that user) and HTTP;
 * a certificate for another user, or for no user, is refused with 28000; a client without one logs in with its
 * password as before; a certificate the CAs did not sign fails the handshake.
 */
class ClientCertificateTest {

    @TempDir
    static Path dir;

    private static Cube cube;
    private static NumacubeServer server;
    private static TestCertificates certs;
    private static Path writerCert;
    private static Path strangerCert;
    private static Path unsignedCert;

    @BeforeAll
    static void start() throws Exception {
        certs = TestCertificates.make(dir, "RSA");
        writerCert = TestCertificates.client(dir, TestUsers.WRITER);
        strangerCert = TestCertificates.client(dir, "mallory");
        Path cas = dir.resolve("client-cas.pem");
        java.nio.file.Files.writeString(
                cas,
                java.nio.file.Files.readString(TestCertificates.clientPem(writerCert))
                        + java.nio.file.Files.readString(TestCertificates.clientPem(strangerCert)));
        unsignedCert = TestCertificates.client(java.nio.file.Files.createDirectories(dir.resolve("other")), "x");
        cube = TestCube.tenDesks();
        server = NumacubeServer.start(
                cube,
                ServerOptions.defaults("test")
                        .withPorts(0, 0)
                        .withUsers(TestUsers.directory())
                        .withTls(ServerTls.load(certs.cert(), certs.key(), cas)));
    }

    @AfterAll
    static void stop() {
        server.close();
        cube.close();
    }

    private static Connection connect(String user, String password, Path clientStore) throws SQLException {
        String url = "jdbc:postgresql://localhost:" + server.pgAddress().getPort() + "/numacube?sslmode=verify-full"
                + "&sslrootcert=" + certs.cert()
                + (clientStore == null ? "" : "&sslkey=" + clientStore + "&sslpassword=changeit");
        java.util.Properties p = new java.util.Properties();
        p.setProperty("user", user);
        if (password != null) {
            p.setProperty("password", password);
        }
        return DriverManager.getConnection(url, p);
    }

    @Test
    void aCertificateForTheUserLogsInWithoutAPassword() throws Exception {
        try (Connection c = connect(TestUsers.WRITER, null, writerCert);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM t")) {
            assertTrue(rs.next());
            assertEquals(cube.query("SELECT COUNT(*) FROM t").getLong(0, 0), rs.getLong(1));
        }
    }

    @Test
    void aCertificateForAnotherUserOrForNoUserIsRefused() {
        SQLException other = assertThrows(
                SQLException.class, () -> connect(TestUsers.READER, TestUsers.READER_PASSWORD, writerCert));
        assertEquals("28000", other.getSQLState(), other.getMessage());
        assertTrue(
                other.getMessage().contains("certificate authentication failed for user \"" + TestUsers.READER),
                other.getMessage());
        SQLException stranger = assertThrows(SQLException.class, () -> connect("mallory", "guess", strangerCert));
        assertEquals("28000", stranger.getSQLState(), stranger.getMessage());
        assertTrue(stranger.getMessage().contains("not a user of the server"), stranger.getMessage());
    }

    @Test
    void withoutACertificateTheClientLogsInWithItsPassword() throws Exception {
        try (Connection c = connect(TestUsers.READER, TestUsers.READER_PASSWORD, null)) {
            assertTrue(c.isValid(5));
        }
        SQLException wrong = assertThrows(SQLException.class, () -> connect(TestUsers.READER, "guess", null));
        assertEquals("28P01", wrong.getSQLState(), wrong.getMessage());
    }

    @Test
    void aCertificateTheCasDidNotSignFailsTheHandshake() {
        assertThrows(SQLException.class, () -> connect(TestUsers.WRITER, null, unsignedCert));
    }

    @Test
    void overHttpsTheCertificateNamesTheUserWithoutBasicCredentials() throws Exception {
        HttpResponse<String> ok = get(writerCert, "/v1/tables");
        assertEquals(200, ok.statusCode(), ok.body());
        HttpResponse<String> none = get(null, "/v1/tables");
        assertEquals(401, none.statusCode(), none.body());
        HttpResponse<String> stranger = get(strangerCert, "/v1/tables");
        assertEquals(401, stranger.statusCode(), stranger.body());
        assertTrue(stranger.body().contains("CN=mallory, who is not a user of the server"), stranger.body());
    }

    @Test
    void aBrowsersCrossSiteWriteIsNotTakenOnTheCertificate() throws Exception {
        HttpClient client = HttpClient.newBuilder()
                .sslContext(certs.clientContext(writerCert))
                .build();
        String url = "https://localhost:" + server.httpAddress().getPort() + "/v1/query";
        HttpResponse<String> crossSite = client.send(
                HttpRequest.newBuilder(URI.create(url))
                        .header("Content-Type", "text/plain")
                        .header("Origin", "https://evil.example")
                        .POST(HttpRequest.BodyPublishers.ofString("SELECT COUNT(*) FROM t"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(403, crossSite.statusCode(), crossSite.body());
        HttpResponse<String> sameSite = client.send(
                HttpRequest.newBuilder(URI.create(url))
                        .header("Content-Type", "text/plain")
                        .header(
                                "Origin",
                                "https://localhost:" + server.httpAddress().getPort())
                        .POST(HttpRequest.BodyPublishers.ofString("SELECT COUNT(*) FROM t"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, sameSite.statusCode(), sameSite.body());
    }

    private static HttpResponse<String> get(Path clientStore, String path) throws Exception {
        HttpClient client = HttpClient.newBuilder()
                .sslContext(clientStore == null ? certs.clientContext() : certs.clientContext(clientStore))
                .build();
        return client.send(
                HttpRequest.newBuilder(URI.create(
                                "https://localhost:" + server.httpAddress().getPort() + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
