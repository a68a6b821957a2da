package io.numacube.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The pivot page's files over a real socket: types, security and cache headers, and the /v1 routes untouched. */
class WebPageTest {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static NumacubeServer server;

    @BeforeAll
    static void start() throws IOException {
        server = NumacubeServer.start(
                TestCube.shared(), ServerOptions.defaults("test").withPorts(0, 0));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void theRootIsThePageWithAPolicyForbiddingInlineScripts() throws Exception {
        HttpResponse<String> r = get("/");
        assertEquals(200, r.statusCode());
        assertEquals("text/html; charset=utf-8", header(r, "Content-Type"));
        assertTrue(r.body().contains("<script type=\"module\" src=\"app.js\"></script>"), r.body());
        String csp = header(r, "Content-Security-Policy");
        assertTrue(csp.contains("script-src 'self';"), csp);
        assertTrue(csp.contains("default-src 'none'"), csp);
        assertTrue(csp.contains("style-src 'self';"), csp);
        assertTrue(csp.contains("connect-src 'self';"), csp);
        assertFalse(csp.contains("unsafe-"), csp);
        assertEquals("nosniff", header(r, "X-Content-Type-Options"));
        assertEquals("no-cache", header(r, "Cache-Control"));
        assertFalse(r.body().matches("(?s).*<script>.*"), "no inline script in the page");
    }

    @Test
    void scriptsStylesAndVendoredLibrariesHaveTheirTypes() throws Exception {
        assertEquals("text/javascript; charset=utf-8", header(get("/app.js"), "Content-Type"));
        assertEquals("text/css; charset=utf-8", header(get("/app.css"), "Content-Type"));
        HttpResponse<String> echarts = get("/vendor/echarts/echarts.min.js");
        assertEquals(200, echarts.statusCode());
        assertEquals("public, max-age=86400", header(echarts, "Cache-Control"));
        assertEquals(200, get("/vendor/tabulator-tables/tabulator.min.js").statusCode());
        assertEquals(200, get("/vendor/tabulator-tables/tabulator.min.css").statusCode());
    }

    @Test
    void everyModuleThePageImportsIsServedAsJavaScript() throws Exception {
        Pattern imports = Pattern.compile("^import .* from \"\\./([a-z]+\\.js)\";$", Pattern.MULTILINE);
        Deque<String> toRead = new ArrayDeque<>(List.of("app.js"));
        Set<String> served = new TreeSet<>();
        while (!toRead.isEmpty()) {
            String module = toRead.pop();
            if (!served.add(module)) {
                continue;
            }
            HttpResponse<String> r = get("/" + module);
            assertEquals(200, r.statusCode(), module);
            assertEquals("text/javascript; charset=utf-8", header(r, "Content-Type"), module);
            imports.matcher(r.body()).results().forEach(m -> toRead.push(m.group(1)));
        }
        assertTrue(
                served.containsAll(List.of("sql.js", "model.js", "grid.js", "chart.js", "drill.js")),
                served.toString());
    }

    @Test
    void thePlacementViewLoginFormAndSessionScriptHaveThePagesPolicyAndNoInlineScript() throws Exception {
        for (String file : java.util.List.of(
                "/placement.html", "/placement.js", "/placement.css", "/login.html", "/login.js", "/session.js")) {
            HttpResponse<String> r = get(file);
            assertEquals(200, r.statusCode(), file);
            assertEquals(WebPage.CONTENT_SECURITY_POLICY, header(r, "Content-Security-Policy"), file);
            if (file.endsWith(".html")) {
                assertFalse(
                        r.body().matches("(?s).*(<script>|\\son[a-z]+=).*"), file + ": no inline script or handler");
            }
        }
        assertTrue(
                get("/").body().contains("<a href=\"placement.html\">placement</a>"), "the pivot page links the view");
        assertTrue(get("/").body().contains("<script src=\"session.js\" defer></script>"));
    }

    @Test
    void unknownFilesAndClimbingOutAreNotFoundAsJson() throws Exception {
        for (String path : new String[] {"/nosuch.js", "/vendor/VERSIONS", "/vendor/echarts/LICENSE", "/../x.js"}) {
            HttpResponse<String> r = get(path);
            assertEquals(404, r.statusCode(), path);
            assertTrue(r.body().contains("\"42704\""), r.body());
        }
        assertNull(WebPage.type("vendor/../../x.js"));
        assertNull(WebPage.type(".hidden.js"));
        assertEquals("text/html; charset=utf-8", WebPage.type("index.html"));
    }

    /** Campaign 11: a client asking for ever new missing names made the server keep each name, until its heap filled. */
    @Test
    void aNameNotFoundIsNotKept() throws IOException {
        WebPage page = new WebPage();
        for (int i = 0; i < 100; i++) {
            assertFalse(page.serve(null, "/missing-" + i + "-" + "x".repeat(1000) + ".js"));
        }
        assertEquals(0, page.keptFiles());
    }

    @Test
    void theV1RoutesAreUnchanged() throws Exception {
        HttpResponse<String> health = get("/v1/health");
        assertEquals(200, health.statusCode());
        assertTrue(header(health, "Content-Type").startsWith("application/json"));
        HttpResponse<String> missing = get("/v1/nosuch.js");
        assertEquals(404, missing.statusCode());
        assertTrue(header(missing, "Content-Type").startsWith("application/json"));
        assertEquals(200, get("/v1/tables").statusCode());
    }

    private static String header(HttpResponse<?> r, String name) {
        return r.headers().firstValue(name).orElse("");
    }

    private static HttpResponse<String> get(String path) throws Exception {
        URI uri = URI.create(server.httpUrl() + path);
        return CLIENT.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
