package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code COMMIT AND CHAIN} / {@code ROLLBACK AND CHAIN} end the block and begin the next with the same read-only mode,
 * as in PostgreSQL; outside a block they are refused (25P01) before anything is applied (found by the writes campaign:
 * COMMIT AND CHAIN applied the block's writes, then answered 0A000 and left the session in a failed block, so the
 * client saw an error and a ROLLBACK for writes that were kept).
 */
class TransactionChainTest {

    private WritableServer served;
    private Connection c;
    private Statement s;

    @BeforeEach
    void start() throws Exception {
        TableStaging t = new TableStaging(TableSchema.parse("t", "id:long"));
        t.setLong(0, 1);
        t.endRow();
        served = WritableServer.over(t);
        c = served.connection;
        s = c.createStatement();
    }

    @AfterEach
    void stop() throws SQLException {
        served.close();
    }

    private String one(String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    @Test
    void commitAndChainCommitsAndBeginsTheNextBlock() throws SQLException {
        s.execute("BEGIN");
        s.execute("INSERT INTO t VALUES (2)");
        s.execute("COMMIT AND CHAIN");
        s.execute("INSERT INTO t VALUES (3)");
        s.execute("ROLLBACK AND CHAIN");
        s.execute("INSERT INTO t VALUES (4)");
        s.execute("COMMIT");
        assertEquals("3 7", one("SELECT count(*) || ' ' || sum(id) FROM t"));
    }

    @Test
    void theChainedBlockKeepsItsReadOnlyMode() throws SQLException {
        s.execute("BEGIN READ ONLY");
        s.execute("COMMIT AND CHAIN");
        assertEquals("on", one("SHOW transaction_read_only"));
        assertEquals(
                "25006",
                assertThrows(SQLException.class, () -> s.execute("INSERT INTO t VALUES (5)"))
                        .getSQLState());
        s.execute("ROLLBACK");
        assertEquals("off", one("SHOW transaction_read_only"));
    }

    @Test
    void outsideABlockChainIsRefusedAndNothingIsApplied() throws SQLException {
        assertEquals(
                "25P01",
                assertThrows(SQLException.class, () -> s.execute("COMMIT AND CHAIN"))
                        .getSQLState());
        SQLException e = assertThrows(
                SQLException.class, () -> s.execute("INSERT INTO t VALUES (6); COMMIT AND CHAIN; SELECT 1"));
        assertEquals("25P01", e.getSQLState());
        assertEquals("1", one("SELECT count(*) FROM t"));
    }
}
