package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.copy.CopyManager;
import org.postgresql.core.BaseConnection;

/**
 * BOOLEAN text written through the server is read as PostgreSQL 15's {@code boolin} reads it: {@code on}, {@code off},
 * {@code of}, prefixes of true/false/yes/no, any case, blanks around (the writes campaign: all 22P02 here). Each
 * expected table is PostgreSQL's after the same statements.
 */
class BooleanTextWritesTest {

    private WritableServer served;
    private Connection c;

    @BeforeEach
    void start() throws Exception {
        TableStaging t = new TableStaging(TableSchema.parse("t", "id:long,b:boolean"));
        t.setLong(0, 1);
        t.setBoolean(1, true);
        t.endRow();
        served = WritableServer.over(t);
        c = served.connection;
    }

    @AfterEach
    void stop() throws SQLException {
        served.close();
    }

    private List<String> rows() throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = c.createStatement().executeQuery("SELECT id, b FROM t ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getLong(1) + "|" + rs.getString(2));
            }
        }
        return out;
    }

    private String refusal(String sql) {
        return served.refusal(sql);
    }

    @Test
    void insertAndUpdateReadBooleanTextAsPostgreSql() throws Exception {
        try (Statement s = c.createStatement()) {
            assertEquals(
                    9,
                    s.executeUpdate("INSERT INTO t VALUES (2, 'on'), (3, 'off'), (4, ' true '), (5, 'tr'), (6, 'fa'),"
                            + " (7, 'YES'), (8, 'n'), (9, '1'), (10, 'of')"));
            assertEquals(1, s.executeUpdate("UPDATE t SET b = 'OFF' WHERE id = 1"));
        }
        assertEquals("22P02", refusal("INSERT INTO t VALUES (11, 'o')"));
        assertEquals("22P02", refusal("INSERT INTO t VALUES (11, 'onn')"));
        assertEquals("22P02", refusal("UPDATE t SET b = 'yess' WHERE id = 1"));
        assertEquals(List.of("1|f", "2|t", "3|f", "4|t", "5|t", "6|f", "7|t", "8|f", "9|t", "10|f"), rows());
    }

    @Test
    void copyTextAndCsvReadBooleanTextAsPostgreSql() throws Exception {
        CopyManager copy = c.unwrap(BaseConnection.class).getCopyAPI();
        assertEquals(3, copy.copyIn("COPY t FROM STDIN", new StringReader("20\ton\n21\t off \n22\tTr\n")));
        assertEquals(3, copy.copyIn("COPY t FROM STDIN (FORMAT csv)", new StringReader("30,on\n31,\" of \"\n32,ye\n")));
        SQLException bad = assertThrows(
                SQLException.class, () -> copy.copyIn("COPY t FROM STDIN (FORMAT csv)", new StringReader("40,o\n")));
        assertEquals("22P02", bad.getSQLState());
        assertEquals(List.of("1|t", "20|t", "21|f", "22|t", "30|t", "31|f", "32|t"), rows());
    }

    @Test
    void aCastOrAComparisonOfBooleanTextIsPostgreSqls() throws Exception {
        try (ResultSet rs = c.createStatement()
                .executeQuery("SELECT 'on'::boolean, CAST('of' AS BOOLEAN), ' true '::boolean, 'tr'::boolean,"
                        + " COUNT(*) FROM t WHERE b = 'ye'")) {
            rs.next();
            assertEquals(
                    "t|f|t|t|1",
                    rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getString(4) + "|"
                            + rs.getString(5));
        }
    }
}
