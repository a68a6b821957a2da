package io.numacube.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
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
 * A server given a certificate speaks TLS only, on both front ends: HTTPS to a client that trusts the certificate,
 * pgjdbc with {@code sslmode=verify-full} (which succeeds only over TLS to a certificate it verified), an SSLRequest
 * answered {@code S}; and refuses HTTP in the clear and a PostgreSQL startup without TLS (28000).
 */
class TlsFrontEndsTest {

    @TempDir
    static Path dir;

    private static TestCertificates certs;
    private static Cube cube;
    private static NumacubeServer server;

    @BeforeAll
    static void start() throws Exception {
        certs = TestCertificates.make(dir, "RSA");
        cube = TestCube.tenDesks();
        server = NumacubeServer.start(
                cube,
                ServerOptions.defaults("test").withPorts(0, 0).withTls(ServerTls.load(certs.cert(), certs.key())));
    }

    @AfterAll
    static void stop() {
        server.close();
        cube.close();
    }

    @Test
    void httpsAnswersAClientThatTrustsTheCertificate() throws Exception {
        assertTrue(server.httpUrl().startsWith("https://"), server.httpUrl());
        HttpClient client =
                HttpClient.newBuilder().sslContext(certs.clientContext()).build();
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(URI.create(
                                "https://localhost:" + server.httpAddress().getPort() + "/v1/query"))
                        .header("Content-Type", "text/plain")
                        .POST(HttpRequest.BodyPublishers.ofString("SELECT COUNT(*) FROM t"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        long rows = cube.query("SELECT COUNT(*) FROM t").getLong(0, 0);
        assertTrue(r.body().contains("\"rows\":[[" + rows + "]]"), r.body());
    }

    @Test
    void plainHttpIsNotServed() {
        HttpClient client = HttpClient.newHttpClient();
        assertThrows(
                java.io.IOException.class,
                () -> client.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                        + server.httpAddress().getPort() + "/v1/health"))
                                .timeout(java.time.Duration.ofSeconds(20))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()));
    }

    @Test
    void pgjdbcVerifiesTheServerAndQueriesOverTls() throws Exception {
        assertTrue(server.postgresUrl().endsWith("?sslmode=require"), server.postgresUrl());
        try (Connection c = DriverManager.getConnection(url("sslmode=verify-full&sslrootcert=" + certs.cert()));
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT desk, COUNT(*) FROM t GROUP BY desk ORDER BY desk")) {
            var expected = cube.query("SELECT desk, COUNT(*) FROM t GROUP BY desk ORDER BY desk");
            for (int row = 0; row < expected.rowCount(); row++) {
                assertTrue(rs.next());
                assertEquals(expected.getString(row, 0), rs.getString(1));
                assertEquals(expected.getLong(row, 1), rs.getLong(2));
            }
            assertTrue(!rs.next());
        }
    }

    @Test
    void aStartupWithoutTlsIsRefused() {
        SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(url("sslmode=disable")));
        assertEquals("28000", e.getSQLState(), e.getMessage());
        assertTrue(e.getMessage().contains("accepts TLS connections only"), e.getMessage());
    }

    @Test
    void anSslRequestIsAnsweredS() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.pgAddress().getPort())) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeInt(8);
            out.writeInt(80_877_103);
            out.flush();
            assertEquals('S', new DataInputStream(s.getInputStream()).readByte());
        }
    }

    private static String url(String options) {
        return "jdbc:postgresql://localhost:" + server.pgAddress().getPort() + "/numacube?user=test&" + options;
    }
}
