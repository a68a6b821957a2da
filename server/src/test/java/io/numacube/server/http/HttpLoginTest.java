package io.numacube.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.engine.Cube;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import io.numacube.server.auth.LoginThrottle;
import io.numacube.server.auth.TestUsers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The login form's session over real HTTP: the cookie's flags and id, one answer for a wrong password and an unknown
 * user, CSRF tokens required of state-changing requests made with the cookie (and not of HTTP Basic ones), a reader's
 * session refused writes, logout, browsers sent to the form, and throttled guessing.
 */
class HttpLoginTest {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern COOKIE = Pattern.compile(
            "^numacube_session=([A-Za-z0-9_-]{43}); Path=/; Max-Age=43200; HttpOnly; SameSite=Strict(; Secure)?$");

    private static Cube cube;
    private static NumacubeServer server;

    @BeforeAll
    static void start() throws IOException {
        cube = TestCube.tenDesks();
        server = startServer();
    }

    private static NumacubeServer startServer() throws IOException {
        return NumacubeServer.start(
                cube, ServerOptions.defaults("test").withPorts(0, 0).withUsers(TestUsers.directory()));
    }

    @AfterAll
    static void stop() {
        server.close();
        cube.close();
    }

    /** A logged-in session: its cookie header value and CSRF token. */
    private record Login(String cookie, String token, String setCookie) {}

    private static HttpResponse<String> loginResponse(NumacubeServer s, String user, String password, String... headers)
            throws Exception {
        String body = JSON.createObjectNode()
                .put("user", user)
                .put("password", password)
                .toString();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.httpUrl() + "/v1/login"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Login login(String user, String password) throws Exception {
        HttpResponse<String> r = loginResponse(server, user, password);
        assertEquals(200, r.statusCode(), r.body());
        String setCookie = r.headers().firstValue("Set-Cookie").orElseThrow();
        Matcher m = COOKIE.matcher(setCookie);
        assertTrue(m.matches(), setCookie);
        return new Login(
                "numacube_session=" + m.group(1),
                JSON.readTree(r.body()).get("csrf_token").asText(),
                setCookie);
    }

    private static HttpResponse<String> send(String method, String path, String body, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.httpUrl() + path))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> sql(String statement, String... headers) throws Exception {
        List<String> h = new ArrayList<>(List.of("Content-Type", "text/plain"));
        h.addAll(List.of(headers));
        return send("POST", "/v1/query", statement, h.toArray(String[]::new));
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode error(HttpResponse<String> r, int status, String code) throws IOException {
        assertEquals(status, r.statusCode(), r.body());
        JsonNode body = JSON.readTree(r.body()).get("error");
        assertEquals(code, body.get("code").asText(), r.body());
        return body;
    }

    @Test
    void aLoginSetsAnHttpOnlySameSiteStrictCookieOfAFreshRandomId() throws Exception {
        Login a = login(TestUsers.WRITER, TestUsers.WRITER_PASSWORD);
        Login b = login(TestUsers.WRITER, TestUsers.WRITER_PASSWORD);
        assertFalse(a.setCookie().endsWith("; Secure"), "no TLS, no Secure: " + a.setCookie());
        assertNotEquals(a.cookie(), b.cookie());
        assertNotEquals(a.token(), b.token());
        assertEquals(43, a.token().length(), "32 random bytes, base64url");
        assertFalse(a.cookie().contains(a.token()));
        HttpResponse<String> tls =
                loginResponse(server, TestUsers.WRITER, TestUsers.WRITER_PASSWORD, "X-Forwarded-Proto", "https");
        assertTrue(
                tls.headers().firstValue("Set-Cookie").orElseThrow().endsWith("; Secure"),
                tls.headers().toString());
        JsonNode me = JSON.readTree(
                send("GET", "/v1/session", null, "Cookie", a.cookie()).body());
        assertEquals(TestUsers.WRITER, me.get("user").asText());
        assertEquals("writer", me.get("role").asText());
        assertEquals("session", me.get("via").asText());
        assertEquals(a.token(), me.get("csrf_token").asText());
    }

    @Test
    void aWrongPasswordAndAnUnknownUserGetOneAnswerThatDoesNotSayWhich() throws Exception {
        HttpResponse<String> wrong = loginResponse(server, TestUsers.WRITER, "not-the-password");
        HttpResponse<String> unknown = loginResponse(server, "mallory", TestUsers.WRITER_PASSWORD);
        assertEquals(
                "wrong user name or password",
                error(wrong, 401, "28P01").get("message").asText());
        assertEquals(wrong.body(), unknown.body());
        assertEquals(401, unknown.statusCode());
        assertTrue(wrong.headers().firstValue("Set-Cookie").isEmpty());
        assertTrue(wrong.headers().firstValue("WWW-Authenticate").isEmpty(), "no Basic prompt for the form");
        login(TestUsers.WRITER, TestUsers.WRITER_PASSWORD); // a success clears this address's failures
    }

    @Test
    void aStateChangingRequestMadeWithTheCookieNeedsTheCsrfToken() throws Exception {
        Login w = login(TestUsers.WRITER, TestUsers.WRITER_PASSWORD);
        assertEquals(200, send("GET", "/v1/tables", null, "Cookie", w.cookie()).statusCode());
        long rows = cube.rowCount("t");
        JsonNode none = error(sql("INSERT INTO t VALUES (100, 'X')", "Cookie", w.cookie()), 403, "42501");
        assertTrue(none.get("message").asText().startsWith("CSRF token missing or wrong"), none.toString());
        error(
                sql("INSERT INTO t VALUES (100, 'X')", "Cookie", w.cookie(), "X-CSRF-Token", w.token() + "x"),
                403,
                "42501");
        Login other = login(TestUsers.WRITER, TestUsers.WRITER_PASSWORD);
        error(
                sql("INSERT INTO t VALUES (100, 'X')", "Cookie", w.cookie(), "X-CSRF-Token", other.token()),
                403,
                "42501");
        assertEquals(rows, cube.rowCount("t"), "nothing written without the session's own token");
        error(send("DELETE", "/v1/queries/q1", null, "Cookie", w.cookie()), 403, "42501");
        assertEquals(
                200,
                sql("INSERT INTO t VALUES (100, 'X')", "Cookie", w.cookie(), "X-CSRF-Token", w.token())
                        .statusCode());
        assertEquals(rows + 1, cube.rowCount("t"));
        sql("DELETE FROM t WHERE id = 100", "Cookie", w.cookie(), "X-CSRF-Token", w.token());
    }

    @Test
    void httpBasicNeedsNoTokenAndWorksAsBefore() throws Exception {
        long rows = cube.rowCount("t");
        String alice = basic(TestUsers.WRITER, TestUsers.WRITER_PASSWORD);
        assertEquals(
                200,
                sql("INSERT INTO t VALUES (101, 'Y')", "Authorization", alice).statusCode());
        assertEquals(rows + 1, cube.rowCount("t"));
        assertEquals(
                200, sql("DELETE FROM t WHERE id = 101", "Authorization", alice).statusCode());
        JsonNode me = JSON.readTree(
                send("GET", "/v1/session", null, "Authorization", alice).body());
        assertEquals("basic", me.get("via").asText());
        assertFalse(me.has("csrf_token"));
        HttpResponse<String> none = send("GET", "/v1/tables", null);
        error(none, 401, "28000");
        assertTrue(none.headers().firstValue("WWW-Authenticate").orElseThrow().startsWith("Basic "));
    }

    @Test
    void aReadersSessionMayReadButNotWrite() throws Exception {
        Login r = login(TestUsers.READER, TestUsers.READER_PASSWORD);
        long rows = cube.rowCount("t");
        HttpResponse<String> read = sql("SELECT COUNT(*) FROM t", "Cookie", r.cookie(), "X-CSRF-Token", r.token());
        assertEquals(200, read.statusCode(), read.body());
        JsonNode refused = error(
                sql("INSERT INTO t VALUES (102, 'Z')", "Cookie", r.cookie(), "X-CSRF-Token", r.token()), 403, "42501");
        assertTrue(refused.get("message").asText().startsWith("permission denied for table t"), refused.toString());
        assertEquals(rows, cube.rowCount("t"));
    }

    @Test
    void aLogoutEndsTheSessionAndClearsTheCookie() throws Exception {
        Login w = login(TestUsers.WRITER, TestUsers.WRITER_PASSWORD);
        error(send("POST", "/v1/logout", null, "Cookie", w.cookie()), 403, "42501");
        HttpResponse<String> out = send("POST", "/v1/logout", null, "Cookie", w.cookie(), "X-CSRF-Token", w.token());
        assertEquals(200, out.statusCode(), out.body());
        assertEquals(
                "numacube_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict",
                out.headers().firstValue("Set-Cookie").orElseThrow());
        HttpResponse<String> after = send("GET", "/v1/tables", null, "Cookie", w.cookie());
        error(after, 401, "28000");
        assertTrue(
                after.headers().firstValue("WWW-Authenticate").orElseThrow().startsWith("Session "), "no Basic prompt");
    }

    @Test
    void aBrowserWithoutCredentialsIsSentToTheLoginFormWhichNeedsNone() throws Exception {
        HttpResponse<String> page = send("GET", "/placement.html?x=1", null, "Accept", "text/html,*/*");
        assertEquals(303, page.statusCode(), page.body());
        assertEquals(
                "/login.html?next=%2Fplacement.html%3Fx%3D1",
                page.headers().firstValue("Location").orElseThrow());
        HttpResponse<String> curl = send("GET", "/", null, "Accept", "*/*");
        error(curl, 401, "28000");
        assertTrue(curl.headers().firstValue("WWW-Authenticate").orElseThrow().startsWith("Basic "), "as before");
        HttpResponse<String> script = send("GET", "/v1/tables", null, "Sec-Fetch-Mode", "cors");
        error(script, 401, "28000");
        assertTrue(
                script.headers().firstValue("WWW-Authenticate").orElseThrow().startsWith("Session "),
                "a page's script is not answered with a Basic challenge, which would make the browser prompt");
        for (String file : List.of("/login.html", "/login.js", "/login.css")) {
            HttpResponse<String> f = send("GET", file, null, "Accept", "text/html");
            assertEquals(200, f.statusCode(), file);
            assertEquals(
                    WebPage.CONTENT_SECURITY_POLICY,
                    f.headers().firstValue("Content-Security-Policy").orElseThrow());
        }
        error(
                send("POST", "/v1/login", "user=alice&password=x", "Content-Type", "application/x-www-form-urlencoded"),
                415,
                "0A000");
    }

    @Test
    void repeatedFailuresFromOneAddressAreThrottledEvenForTheRightPassword() throws Exception {
        NumacubeServer own = startServer();
        try {
            for (int i = 0; i <= LoginThrottle.FREE_FAILURES; i++) {
                assertEquals(
                        401, loginResponse(own, TestUsers.WRITER, "guess-" + i).statusCode());
            }
            HttpResponse<String> r = loginResponse(own, TestUsers.WRITER, TestUsers.WRITER_PASSWORD);
            assertEquals(429, r.statusCode(), r.body());
            assertTrue(error(r, 429, "28P01").get("message").asText().startsWith("too many failed logins"), r.body());
            assertEquals("1", r.headers().firstValue("Retry-After").orElseThrow());
            Thread.sleep(1100);
            assertEquals(
                    200,
                    loginResponse(own, TestUsers.WRITER, TestUsers.WRITER_PASSWORD)
                            .statusCode());
        } finally {
            own.close();
        }
    }
}
