package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code numacube demo --serve} as a newcomer runs it: a real child JVM on free ports, whose printed URL serves the
 * pivot page and answers the demo's queries over HTTP with what the same cube, generated in this test, answers.
 */
class DemoServeTest {

    private static final Pattern PAGE = Pattern.compile("^  pivot page: +(http://127\\.0\\.0\\.1:\\d+)/$");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path root;

    @Test
    void servesTheDemosCubeAtThePrintedUrlUntilStopped() throws Exception {
        Path stdout = root.resolve("out.txt");
        Path stderr = root.resolve("err.txt");
        Process child = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-Xmx512m",
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "demo",
                        "--rows",
                        "20000",
                        "--seed",
                        "7",
                        "--runs",
                        "1",
                        "--simulated-nodes",
                        "2",
                        "--serve",
                        "--http-port",
                        "0",
                        "--pg-port",
                        "0"))
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
        try {
            String http = awaitPageUrl(child, stdout, stderr);
            HttpResponse<String> page = get(http + "/");
            assertEquals(200, page.statusCode());
            assertTrue(page.body().contains("<title>numacube pivot</title>"), page.body());
            JsonNode served = new ObjectMapper()
                    .readTree(post(
                            http + "/v1/query",
                            "SELECT desk, COUNT(*), SUM(trade_id) FROM trades" + " GROUP BY desk ORDER BY desk"))
                    .get("rows");
            try (Cube cube =
                    Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1))) {
                cube.generateTrades(20000, 7, io.numacube.engine.storage.ProgressListener.NONE);
                var want = cube.query("SELECT desk, COUNT(*), SUM(trade_id) FROM trades GROUP BY desk ORDER BY desk");
                assertEquals(want.rowCount(), served.size());
                for (int r = 0; r < want.rowCount(); r++) {
                    assertEquals(want.getString(r, 0), served.get(r).get(0).asText());
                    assertEquals(want.getLong(r, 1), served.get(r).get(1).asLong());
                    assertEquals(want.getLong(r, 2), served.get(r).get(2).asLong());
                }
            }
            child.destroy();
            assertTrue(child.waitFor(20, TimeUnit.SECONDS), "the demo did not stop on SIGTERM");
            assertEquals(0, child.exitValue(), Files.readString(stderr));
        } finally {
            child.destroyForcibly();
            child.waitFor();
        }
    }

    private static String awaitPageUrl(Process child, Path stdout, Path stderr) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            List<String> lines = Files.readAllLines(stdout);
            if (!lines.isEmpty() && lines.getLast().startsWith("numacube ready ")) {
                for (String line : lines) {
                    Matcher m = PAGE.matcher(line);
                    if (m.matches()) {
                        assertTrue(lines.getLast().startsWith("numacube ready " + m.group(1) + " "), lines.getLast());
                        return m.group(1);
                    }
                }
                fail("no pivot page URL before the ready line:\n" + String.join("\n", lines));
            }
            if (!child.isAlive()) {
                fail("demo --serve exited " + child.exitValue() + " before serving:\n" + Files.readString(stderr));
            }
            Thread.sleep(50);
        }
        fail("demo --serve not serving in 120 s:\n" + Files.readString(stderr));
        return null;
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String post(String url, String sql) throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(url))
                        .header("Content-Type", "text/plain")
                        .POST(HttpRequest.BodyPublishers.ofString(sql))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }
}
