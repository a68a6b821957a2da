package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A DECIMAL(10,0) column is numeric(10,0) in results over pgwire and DECIMAL(10,0) over HTTP, as a column, a group key
 * and through a derived table; it was typed BIGINT (its scale is 0, as an integer's). Expected: PostgreSQL 15 over a
 * numeric(10,0) column (type 1700, precision 10, scale 0, for the same query).
 */
class DecimalScaleZeroTest {

    private Cube cube;
    private NumacubeServer server;

    @BeforeEach
    void start() throws Exception {
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
        TableStaging t = new TableStaging(TableSchema.parse("z", "id:long,d0:decimal(10,0)"));
        t.setLong(0, 1);
        t.setLong(1, 2);
        t.endRow();
        cube.loadTable(t);
        server = NumacubeServer.start(cube, ServerOptions.defaults("test").withPorts(0, 0));
    }

    @AfterEach
    void stop() {
        server.close();
        cube.close();
    }

    private static final String SQL =
            "SELECT d0, x FROM z JOIN (SELECT id AS i, d0 AS x FROM z) s ON z.id = s.i GROUP BY d0, x";

    @Test
    void aDecimalColumnOfScaleZeroIsNumericOfItsPrecision() throws Exception {
        try (Connection c = DriverManager.getConnection(
                        "jdbc:postgresql://127.0.0.1:" + server.pgAddress().getPort() + "/numacube?user=test");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(SQL)) {
            ResultSetMetaData md = rs.getMetaData();
            List<String> got = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                got.add(md.getColumnTypeName(i) + "(" + md.getPrecision(i) + "," + md.getScale(i) + ")");
            }
            assertEquals(List.of("numeric(10,0)", "numeric(10,0)"), got);
            rs.next();
            assertEquals(new BigDecimal("2"), rs.getBigDecimal(1));
        }
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v1/query"))
                                .header("Content-Type", "text/plain")
                                .POST(HttpRequest.BodyPublishers.ofString(SQL))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        JsonNode columns = new ObjectMapper().readTree(r.body()).get("columns");
        assertEquals("DECIMAL(10,0)", columns.get(0).get("type").asText(), r.body());
        assertEquals("DECIMAL(10,0)", columns.get(1).get("type").asText(), r.body());
    }
}
