package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An INSERT without a column list fills the table's first columns, as many as its VALUES rows have, and the others are
 * NULL (their default), as in PostgreSQL 15 (found by the writes campaign: {@code INSERT INTO t VALUES (2)} was refused
 * with 42601); rows of different lengths are 42601 and a column named twice 42701, as there.
 */
class InsertColumnsTest {

    private WritableServer served;
    private Connection c;

    @BeforeEach
    void start() throws Exception {
        TableStaging t = new TableStaging(TableSchema.parse("t", "id:long,s:string,w:long"));
        t.setLong(0, 1);
        t.setString(1, "one");
        t.setLong(2, 10);
        t.endRow();
        served = WritableServer.over(t);
        c = served.connection;
    }

    @AfterEach
    void stop() throws SQLException {
        served.close();
    }

    /** The rows past the first as {@code id|s|w}, by id and s. */
    private List<String> added() throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = c.createStatement().executeQuery("SELECT id, s, w FROM t WHERE id > 1 ORDER BY id, s")) {
            while (rs.next()) {
                out.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3));
            }
        }
        return out;
    }

    private String refusal(String sql) {
        return served.refusal(sql);
    }

    @Test
    void fewerValuesThanColumnsFillTheFirstColumns() throws SQLException {
        c.createStatement().execute("INSERT INTO t VALUES (2), (3)");
        c.createStatement().execute("INSERT INTO t VALUES (4, 'four')");
        assertEquals(List.of("2|null|null", "3|null|null", "4|four|null"), added());
    }

    @Test
    void rowsOfDifferentLengthsAndAColumnNamedTwiceAreRefused() throws SQLException {
        assertEquals("42601", refusal("INSERT INTO t VALUES (2, 'x'), (3)"));
        assertEquals("42601", refusal("INSERT INTO t (id, s) VALUES (2)"));
        assertEquals("42701", refusal("INSERT INTO t (id, s, id) VALUES (2, 'x', 3)"));
        assertEquals(List.of(), added());
    }
}
