package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.copy.CopyManager;
import org.postgresql.core.BaseConnection;

/**
 * COPY FROM STDIN reads its options and its data as PostgreSQL 15 does; each expected table below is PostgreSQL's
 * after the same COPY (found by the writes campaign: the text format ignored HEADER, DELIMITER and NULL and stored the
 * header line, {@code a,b} whole and {@code ''} for NULL; took a row with missing fields as NULLs; read {@code \xc3\xa9}
 * as two characters; and CSV data ending with psql's {@code \.} line was refused).
 */
class CopyOptionsTest {

    private WritableServer served;
    private Connection c;
    private CopyManager copy;

    @BeforeEach
    void start() throws Exception {
        TableStaging t = new TableStaging(TableSchema.parse("t", "id:long,s:string,w:long"));
        t.setLong(0, 1);
        t.setString(1, "one");
        t.setLong(2, 10);
        t.endRow();
        served = WritableServer.over(t);
        c = served.connection;
        copy = c.unwrap(BaseConnection.class).getCopyAPI();
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

    private long copy(String sql, String data) throws Exception {
        return copy.copyIn(sql, new StringReader(data));
    }

    private String refusal(String sql, String data) {
        return assertThrows(SQLException.class, () -> copy(sql, data)).getSQLState();
    }

    @Test
    void theTextFormatSkipsItsHeaderAndReadsItsDelimiterAndNullString() throws Exception {
        assertEquals(1, copy("COPY t (s, id) FROM STDIN WITH (FORMAT text, HEADER)", "s\tid\nhello\t2\n"));
        assertEquals(1, copy("COPY t (id, s) FROM STDIN WITH (HEADER true)", "id\ts\n3\tx\n"));
        assertEquals(3, copy("COPY t (id, s) FROM STDIN WITH (NULL '')", "4\t\n5\tx\n6\t\\N\n"));
        assertEquals(2, copy("COPY t (id, s, w) FROM STDIN WITH (DELIMITER ',')", "7,b,70\n8,a\\,b,\\N\n"));
        assertEquals(1, copy("COPY t (id, s) FROM STDIN DELIMITER AS '|' NULL AS 'nil'", "9|nil\n"));
        assertEquals(
                List.of(
                        "2|hello|null",
                        "3|x|null",
                        "4|null|null",
                        "5|x|null",
                        "6|N|null",
                        "7|b|70",
                        "8|a,b|null",
                        "9|null|null"),
                added());
    }

    @Test
    void aTextRowOfTooFewOrTooManyFieldsIsRefusedAndNothingIsWritten() throws Exception {
        assertEquals("22P04", refusal("COPY t FROM STDIN", "2\tx\t20\n3\t30\n"));
        assertEquals("22P04", refusal("COPY t (s) FROM STDIN WITH (DELIMITER ',')", "a,b\n"));
        assertEquals("22P04", refusal("COPY t (id, s) FROM STDIN", "4\tx\n\n5\ty\n"));
        assertEquals(List.of(), added());
    }

    @Test
    void textEscapesAreBytesOfUtf8() throws Exception {
        assertEquals(2, copy("COPY t (id, s) FROM STDIN", "2\t\\xc3\\xa9\\303\\251\n3\ttab\\\there\\q\n"));
        assertEquals(List.of("2|éé|null", "3|tab\there" + "q|null"), added());
        assertEquals("22021", refusal("COPY t (id, s) FROM STDIN", "4\t\\xff\n"));
    }

    @Test
    void csvDataEndsAtPsqlsEndOfDataLine() throws Exception {
        assertEquals(1, copy("COPY t (id, s) FROM STDIN WITH (FORMAT csv)", "2,x\n\\.\n"));
        assertEquals(1, copy("COPY t (id, s) FROM STDIN WITH (FORMAT csv)", "3,x\r\n\\.\r\n4,after\n"));
        assertEquals(1, copy("COPY t (id, s) FROM STDIN WITH (FORMAT csv, HEADER)", "id,s\n5,\"a\n\\.\nb\"\n\\.\n"));
        assertEquals(List.of("2|x|null", "3|x|null", "5|a\n\\.\nb|null"), added());
    }

    @Test
    void anUnknownOrRepeatedColumnIsRefusedAlsoWithoutData() throws Exception {
        assertEquals("42703", refusal("COPY t (nosuch) FROM STDIN", ""));
        assertEquals("42703", refusal("COPY t (id, nosuch) FROM STDIN WITH (FORMAT csv)", "2,3\n"));
        assertEquals("42701", refusal("COPY t (id, ID) FROM STDIN WITH (FORMAT csv)", ""));
        assertEquals(List.of(), added());
    }

    @Test
    void anOptionGivenTwiceIsRefused() {
        assertEquals("42601", refusal("COPY t (id) FROM STDIN WITH (FORMAT csv, FORMAT text)", "2\n"));
        assertEquals("42601", refusal("COPY t (id) FROM STDIN WITH (FORMAT csv, HEADER, HEADER false)", "2\n"));
        assertEquals("0A000", refusal("COPY t (id) FROM STDIN WITH (FORMAT csv, DELIMITER ';')", "2\n"));
    }
}
