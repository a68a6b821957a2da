package io.numacube.server.write;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * INSERT ... VALUES and UPDATE ... SET store a value alike, as PostgreSQL's assignment cast does for both: the same
 * value, or the same SQLSTATE. Every expected answer is PostgreSQL 15's for the same INSERT and UPDATE into a table of
 * bigint, double precision, numeric(6,2), text, date, timestamp and boolean columns (the value read back as text).
 * Before, an INSERT read a bare 1.5 into an integer column as text (22P02) where UPDATE stored 2; UPDATE stored a
 * number into a BOOLEAN ({@code t}) and 2.5e0 as 2; the two refused one value with different SQLSTATEs.
 */
class AssignmentCastTest {

    /** column | value | PostgreSQL's stored text, or ERR and its SQLSTATE. */
    private static final List<String> CASES = List.of(
            "big|1.5|2",
            "big|-2.5|-3",
            "big|1.49|1",
            "big|2.5e0|3",
            "big|1e3|1000",
            "big|999.995|1000",
            "big|-0.0|0",
            "big|007|7",
            "big|'7'|7",
            "big|'1.5'|ERR 22P02",
            "big|'nan'|ERR 22P02",
            "big|true|ERR 42804",
            "big|DATE '2024-01-02'|ERR 42804",
            "d|-0.0|0",
            "d|1e3|1000",
            "d|'true'|ERR 22P02",
            "d|true|ERR 42804",
            "n|1.005|1.01",
            "n|1.5e0|1.50",
            "n|1e3|1000.00",
            "n|'true'|ERR 22P02",
            "n|true|ERR 42804",
            "s|1e3|1000",
            "s|1.5e0|1.5",
            "s|007|7",
            "s|-0.0|0.0",
            "s|true|true",
            "dt|7|ERR 42804",
            "dt|1.5|ERR 42804",
            "dt|'7'|ERR 22007",
            "ts|1e3|ERR 42804",
            "ts|'nan'|ERR 22007",
            "ok|7|ERR 42804",
            "ok|1.5|ERR 42804",
            "ok|-0.0|ERR 42804",
            "ok|'7'|ERR 22P02",
            "ok|DATE '2024-01-02'|ERR 42804");

    private Cube cube;
    private NumacubeServer server;

    @BeforeEach
    void start() throws Exception {
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
        TableStaging t = new TableStaging(TableSchema.parse(
                "w", "id:long,big:long,d:double,n:decimal(6,2),s:string,dt:date,ts:timestamp,ok:boolean"));
        t.setLong(0, 0);
        for (int c = 1; c < 8; c++) {
            t.setNull(c);
        }
        t.endRow();
        cube.loadTable(t);
        server = NumacubeServer.start(cube, ServerOptions.defaults("test").withPorts(0, 0));
    }

    @AfterEach
    void stop() {
        server.close();
        cube.close();
    }

    @Test
    void insertAndUpdateStoreAValueAsPostgreSqlsAssignmentCast() throws Exception {
        List<String> wrong = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(
                        "jdbc:postgresql://127.0.0.1:" + server.pgAddress().getPort() + "/numacube?user=test");
                Statement s = c.createStatement()) {
            for (String line : CASES) {
                String[] f = line.split("\\|");
                run(s, "DELETE FROM w WHERE id = 1");
                String inserted = stored(s, f[0], "INSERT INTO w (id, " + f[0] + ") VALUES (1, " + f[1] + ")");
                run(s, "DELETE FROM w WHERE id = 1");
                run(s, "INSERT INTO w (id) VALUES (1)");
                String updated = stored(s, f[0], "UPDATE w SET " + f[0] + " = " + f[1] + " WHERE id = 1");
                if (!inserted.equals(f[2]) || !updated.equals(f[2])) {
                    wrong.add(f[0] + " = " + f[1] + ": PostgreSQL " + f[2] + ", INSERT " + inserted + ", UPDATE "
                            + updated);
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** What {@code write} stored in {@code column} of row 1, as text, or ERR and the SQLSTATE it was refused with. */
    private static String stored(Statement s, String column, String write) throws SQLException {
        String refused = run(s, write);
        if (refused != null) {
            return "ERR " + refused;
        }
        try (ResultSet r = s.executeQuery("SELECT " + column + " FROM w WHERE id = 1")) {
            return r.next() ? String.valueOf(r.getString(1)) : "no row";
        }
    }

    private static String run(Statement s, String sql) {
        try {
            s.execute(sql);
            return null;
        } catch (SQLException e) {
            return e.getSQLState();
        }
    }
}
