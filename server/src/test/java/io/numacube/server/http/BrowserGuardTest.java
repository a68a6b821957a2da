package io.numacube.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import io.numacube.server.auth.TestUsers;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Campaign 13: another site's page in the user's browser against the server. A text/plain POST needs no CORS
 * preflight, so a page of any site (fetch with mode no-cors, or a plain form) ran {@code DELETE} on a server without
 * users, and on one whose Basic password the browser holds; and a page whose name resolves to 127.0.0.1 (DNS
 * rebinding) read every table. Requests are written on a socket, headers as a browser sends them.
 */
class BrowserGuardTest {

    private static Cube cube;
    private static NumacubeServer open;
    private static NumacubeServer withUsers;

    @BeforeAll
    static void start() throws IOException {
        cube = TestCube.tenDesks();
        open = NumacubeServer.start(cube, ServerOptions.defaults("test").withPorts(0, 0));
        withUsers = NumacubeServer.start(
                cube, ServerOptions.defaults("test").withPorts(0, 0).withUsers(TestUsers.directory()));
    }

    @AfterAll
    static void stop() {
        open.close();
        withUsers.close();
        cube.close();
    }

    private static long rows() {
        return cube.query("SELECT COUNT(*) FROM t").getLong(0, 0);
    }

    /** The status line and body of one request; {@code headers} are extra lines, each ending in CRLF. */
    private static String send(
            InetSocketAddress to, String method, String path, String host, String headers, String body)
            throws IOException {
        try (Socket s = new Socket(to.getAddress(), to.getPort())) {
            s.setSoTimeout(20_000);
            byte[] content = body.getBytes(StandardCharsets.UTF_8);
            s.getOutputStream()
                    .write((method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n" + headers + "Content-Length: "
                                    + content.length + "\r\nConnection: close\r\n\r\n" + body)
                            .getBytes(StandardCharsets.UTF_8));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String here(InetSocketAddress a) {
        return "127.0.0.1:" + a.getPort();
    }

    @Test
    void aWriteFromAnotherSitesPageIsRefusedAndNothingIsWritten() throws Exception {
        InetSocketAddress a = open.httpAddress();
        long before = rows();
        String text = "Content-Type: text/plain\r\n";
        for (String browser : new String[] {
            "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: no-cors\r\nOrigin: http://evil.example\r\n",
            "Origin: http://evil.example\r\n",
            "Sec-Fetch-Site: same-site\r\nOrigin: http://127.0.0.1:1\r\n",
            "Origin: null\r\n"
        }) {
            String answer = send(a, "POST", "/v1/query", here(a), text + browser, "DELETE FROM t");
            assertTrue(answer.startsWith("HTTP/1.1 403 "), browser + answer);
            assertTrue(answer.contains("\"42501\"") && answer.contains("another site"), answer);
            answer = send(a, "POST", "/v1/tables/t/rows", here(a), "Content-Type: text/csv\r\n" + browser, "desk\nX\n");
            assertTrue(answer.startsWith("HTTP/1.1 403 "), browser + answer);
            assertTrue(send(a, "DELETE", "/v1/queries/q1", here(a), browser, "").startsWith("HTTP/1.1 403 "));
        }
        assertEquals(before, rows());
        String same = "Sec-Fetch-Site: same-origin\r\nOrigin: http://" + here(a) + "\r\n";
        assertTrue(
                send(a, "POST", "/v1/query", here(a), text + same, "SELECT 1").startsWith("HTTP/1.1 200 "));
        assertTrue(send(a, "POST", "/v1/query", here(a), text, "SELECT 1").startsWith("HTTP/1.1 200 "), "curl");
        String read = "Sec-Fetch-Site: cross-site\r\nOrigin: http://evil.example\r\n";
        assertTrue(send(a, "GET", "/v1/health", here(a), read, "").startsWith("HTTP/1.1 200 "), "a GET is no write");
    }

    @Test
    void aWriteFromAnotherSiteIsRefusedEvenWithABasicPasswordTheBrowserRemembers() throws Exception {
        InetSocketAddress a = withUsers.httpAddress();
        long before = rows();
        String basic = "Authorization: Basic "
                + Base64.getEncoder()
                        .encodeToString(
                                (TestUsers.WRITER + ":" + TestUsers.WRITER_PASSWORD).getBytes(StandardCharsets.UTF_8))
                + "\r\nContent-Type: text/plain\r\n";
        String answer = send(
                a,
                "POST",
                "/v1/query",
                here(a),
                basic + "Sec-Fetch-Site: cross-site\r\nOrigin: http://evil.example\r\n",
                "DELETE FROM t");
        assertTrue(answer.startsWith("HTTP/1.1 403 "), answer);
        assertEquals(before, rows());
        assertTrue(send(a, "POST", "/v1/query", here(a), basic, "SELECT 1").startsWith("HTTP/1.1 200 "));
        answer = send(a, "GET", "/v1/tables", "evil.example:" + a.getPort(), basic, "");
        assertTrue(answer.startsWith("HTTP/1.1 200 "), "with users, any name the client used: " + answer);
    }

    @Test
    void withoutUsersOnlyLocalhostOrAnAddressIsAnswered() throws Exception {
        InetSocketAddress a = open.httpAddress();
        for (String host : new String[] {
            "evil.example:" + a.getPort(),
            "evil.example",
            "127.0.0.1.evil.example",
            "localhost.evil.example:1",
            "[::1].evil.example"
        }) {
            for (String path : new String[] {"/v1/tables", "/", "/v1/tables/t/events", "/metrics"}) {
                String answer = send(a, "GET", path, host, "", "");
                assertTrue(answer.startsWith("HTTP/1.1 403 "), host + path + answer);
                assertTrue(answer.contains("DNS rebinding"), answer);
                assertFalse(answer.contains("\"desk\""), answer);
            }
        }
        for (String host : new String[] {
            here(a),
            "localhost:" + a.getPort(),
            "LOCALHOST",
            "pivot.localhost:8080",
            "localhost.",
            "[::1]:" + a.getPort(),
            "10.1.2.3",
            "[fe80::1]"
        }) {
            assertTrue(send(a, "GET", "/v1/tables", host, "", "").startsWith("HTTP/1.1 200 "), host);
        }
        assertTrue(send(a, "GET", "/v1/health", "evil.example", "", "").startsWith("HTTP/1.1 200 "), "health");
    }
}
