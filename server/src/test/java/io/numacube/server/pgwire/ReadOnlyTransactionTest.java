package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.copy.CopyManager;
import org.postgresql.core.BaseConnection;

/**
 * A server that takes writes is not read-only, and a read-only transaction takes none, as in PostgreSQL: the server
 * reports {@code default_transaction_read_only = off}, {@code SHOW transaction_read_only} is {@code off} unless the
 * transaction was made read-only ({@code BEGIN READ ONLY}, {@code SET TRANSACTION READ ONLY}, {@code SET SESSION
 * CHARACTERISTICS AS TRANSACTION READ ONLY}, pgjdbc's {@code setReadOnly(true)}), and there INSERT, UPDATE, DELETE
 * and COPY are refused with 25006 (found by the writes campaign: the server said {@code on}, so libpq's
 * {@code target_session_attrs=read-write} refused it, and applied the writes of a READ ONLY block).
 */
class ReadOnlyTransactionTest {

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

    private String refusal(String sql) {
        return assertThrows(SQLException.class, () -> s.execute(sql)).getSQLState();
    }

    @Test
    void theServerIsNotReadOnly() throws SQLException {
        assertEquals("off", one("SHOW transaction_read_only"));
        assertEquals("off", one("SHOW default_transaction_read_only"));
        assertEquals("off", one("SELECT current_setting('transaction_read_only')"));
        s.execute("SET default_transaction_read_only = off");
        s.execute("INSERT INTO t VALUES (2)");
        assertEquals("2", one("SELECT count(*) FROM t"));
    }

    @Test
    void aReadOnlyBlockRefusesEveryWriteAndTheNextBlockWrites() throws SQLException {
        for (String begin : new String[] {
            "BEGIN READ ONLY",
            "START TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY",
            "BEGIN; SET TRANSACTION READ ONLY",
            "BEGIN; SET transaction_read_only = on"
        }) {
            for (String write : new String[] {"INSERT INTO t VALUES (5)", "UPDATE t SET id = 6", "DELETE FROM t"}) {
                s.execute(begin);
                assertEquals("on", one("SHOW transaction_read_only"), begin);
                assertEquals("25006", refusal(write), begin + "; " + write);
                s.execute("COMMIT");
                assertEquals("off", one("SHOW transaction_read_only"));
            }
        }
        assertEquals("1", one("SELECT count(*) FROM t"));
        s.execute("BEGIN READ WRITE; INSERT INTO t VALUES (7); COMMIT");
        assertEquals("2", one("SELECT count(*) FROM t"));
    }

    @Test
    void aReadOnlySessionRefusesCopyUntilItIsReadWriteAgain() throws Exception {
        s.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
        assertEquals("on", one("SHOW transaction_read_only"));
        CopyManager copy = c.unwrap(BaseConnection.class).getCopyAPI();
        SQLException e =
                assertThrows(SQLException.class, () -> copy.copyIn("COPY t FROM STDIN", new StringReader("8\n")));
        assertEquals("25006", e.getSQLState());
        assertEquals("25006", refusal("INSERT INTO t VALUES (8)"));
        s.execute("SET default_transaction_read_only = false");
        assertEquals(1L, copy.copyIn("COPY t FROM STDIN", new StringReader("8\n")));
        assertEquals("2", one("SELECT count(*) FROM t"));
    }

    @Test
    void pgjdbcsReadOnlyConnectionWritesNothing() throws SQLException {
        c.setAutoCommit(false);
        c.setReadOnly(true);
        one("SELECT count(*) FROM t");
        assertEquals("25006", refusal("INSERT INTO t VALUES (9)"));
        c.rollback();
        c.setReadOnly(false);
        s.execute("INSERT INTO t VALUES (9)");
        c.commit();
        assertEquals("2", one("SELECT count(*) FROM t"));
    }

    @Test
    void readWriteMustComeBeforeTheBlocksFirstQuery() throws SQLException {
        s.execute("BEGIN READ ONLY");
        s.execute("SET TRANSACTION READ WRITE");
        assertEquals("off", one("SHOW transaction_read_only"));
        s.execute("ROLLBACK");
        s.execute("BEGIN READ ONLY");
        one("SELECT count(*) FROM t");
        assertEquals("25001", refusal("SET TRANSACTION READ WRITE"));
        s.execute("ROLLBACK");
        assertEquals("22023", refusal("SET default_transaction_read_only = maybe"));
    }
}
