package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.query.ServerMetrics;
import io.numacube.server.write.WriteService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A cube of one table on one simulated node, a server over it that takes writes (without a log) on free ports, and a
 * pgjdbc connection to it as user {@code me}: what the tests of PostgreSQL clients' writes start from. Closed
 * connection first, cube last.
 */
final class WritableServer implements AutoCloseable {

    final Connection connection;
    private final Cube cube;
    private final NumacubeServer server;

    private WritableServer(Cube cube, NumacubeServer server, Connection connection) {
        this.cube = cube;
        this.server = server;
        this.connection = connection;
    }

    /** Loads {@code table} into a new cube and serves it. */
    static WritableServer over(TableStaging table) throws Exception {
        Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(1).withThreadsPerNode(1));
        cube.loadTable(table);
        NumacubeServer server = NumacubeServer.start(
                ServerOptions.defaults("test").withPorts(0, 0),
                new WriteService(cube, WriteService.BatchLog.NONE),
                new ServerMetrics());
        Connection c = DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + server.pgAddress().getPort() + "/numacube?user=me");
        return new WritableServer(cube, server, c);
    }

    /** The SQLSTATE of the error {@code sql} must fail with. */
    String refusal(String sql) {
        return assertThrows(SQLException.class, () -> {
                    try (Statement s = connection.createStatement()) {
                        s.execute(sql);
                    }
                })
                .getSQLState();
    }

    @Override
    public void close() throws SQLException {
        connection.close();
        server.close();
        cube.close();
    }
}
