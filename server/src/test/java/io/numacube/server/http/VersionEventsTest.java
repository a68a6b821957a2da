package io.numacube.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /v1/tables/NAME/events}: the current version at once, then one event per write, over a real socket. */
class VersionEventsTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Cube cube;
    private NumacubeServer server;

    @BeforeEach
    void start() throws Exception {
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
        TableStaging t = new TableStaging(TableSchema.parse("t", "id:long,desk:string"));
        for (int i = 0; i < 10; i++) {
            t.setLong(0, i);
            t.setString(1, "D" + (i % 3));
            t.endRow();
        }
        cube.loadTable(t);
        server = NumacubeServer.start(cube, ServerOptions.defaults("test").withPorts(0, 0));
    }

    @AfterEach
    void stop() {
        server.close();
        cube.close();
    }

    @Test
    void sendsTheCurrentVersionThenOneEventPerWrite() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            HttpResponse<Stream<String>> r = HTTP.send(
                    HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v1/tables/T/events"))
                            .build(),
                    HttpResponse.BodyHandlers.ofLines());
            assertEquals(200, r.statusCode());
            assertEquals(
                    "text/event-stream; charset=utf-8",
                    r.headers().firstValue("Content-Type").orElse(""));
            Iterator<String> lines = r.body().iterator();
            assertEquals("event: version", lines.next());
            assertEquals("data: {\"table\":\"t\",\"version\":1}", lines.next());
            assertEquals("", lines.next());
            HttpResponse<String> posted = HTTP.send(
                    HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v1/tables/t/rows"))
                            .header("Content-Type", "text/csv")
                            .POST(HttpRequest.BodyPublishers.ofString("id,desk\n100,N\n"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, posted.statusCode(), posted.body());
            assertEquals("event: version", lines.next());
            assertEquals("data: {\"table\":\"t\",\"version\":2}", lines.next());
            r.body().close();
        });
    }

    @Test
    void onlyTablesSlashNameSlashEventsIsAStream() {
        assertEquals("t", HttpFrontEnd.eventsTable("/v1/tables/t/events"));
        assertEquals(null, HttpFrontEnd.eventsTable("/v1/tables/events"));
        assertEquals(null, HttpFrontEnd.eventsTable("/v1/tables//events"));
        assertEquals(null, HttpFrontEnd.eventsTable("/v1/tables/a/b/events"));
        assertEquals(null, HttpFrontEnd.eventsTable("/v1/tables/t/rows"));
    }

    @Test
    void anUnknownTableIs404AsJson() throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v1/tables/nosuch/events"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, r.statusCode());
        assertTrue(r.body().contains("\"42P01\""), r.body());
        assertTrue(r.body().contains("no such table: table=nosuch"), r.body());
    }
}
