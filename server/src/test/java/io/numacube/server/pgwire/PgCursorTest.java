package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.engine.result.QueryResult;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Server-side cursors byte by byte: Executes with a row limit, and SQL cursors (DECLARE, FETCH, MOVE, CLOSE) in the
 * simple and the extended protocol. Each sequence here was sent by a raw client to PostgreSQL 15.18 too (over a table
 * of the same ten ids): message types, tags, SQLSTATEs and rows agree, but for the backward FETCH PostgreSQL answers
 * and numacube refuses. Rows are checked against the engine's own answer.
 */
class PgCursorTest {

    private static final String TEN = "SELECT trade_id FROM trades ORDER BY trade_id LIMIT 10";

    private static NumacubeServer server;
    private static List<String> ids;

    @BeforeAll
    static void start() throws IOException {
        server = NumacubeServer.start(
                TestCube.shared(), ServerOptions.defaults("test").withPorts(0, 0));
        QueryResult r = TestCube.shared().query(TEN);
        ids = new ArrayList<>();
        for (int i = 0; i < r.rowCount(); i++) {
            ids.add(r.getString(i, 0));
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** {@code D:a,b} the fields of ids {@code a} to {@code b} (1-based), one DataRow each. */
    private static String rows(int first, int last) {
        StringBuilder sb = new StringBuilder();
        for (int i = first; i <= last; i++) {
            sb.append(" D:").append(ids.get(i - 1));
        }
        return sb.toString().strip();
    }

    @Test
    void aRowLimitedExecuteSuspendsWhenItFillsItsLimitAndTheNextOneCompletes() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            assertEquals("C:BEGIN Z", simple(c, "BEGIN"));
            c.send('P', "", TEN, (short) 0);
            c.send('B', "p", "", (short) 0, (short) 0, (short) 0);
            assertEquals("1 2 " + rows(1, 5) + " s Z", execute(c, "p", 5));
            assertEquals(rows(6, 10) + " s Z", execute(c, "p", 5), "ten rows by five: the second page suspends");
            assertEquals("C:SELECT 0 Z", execute(c, "p", 5));
            assertEquals("C:SELECT 0 Z", execute(c, "p", 0));
            assertEquals("C:COMMIT Z", simple(c, "COMMIT"));
            assertEquals("E:34000 Z", execute(c, "p", 1), "the portal ended with its transaction");
            c.send('P', "", TEN, (short) 0);
            c.send('B', "", "", (short) 0, (short) 0, (short) 0);
            c.send('E', "", 10);
            c.send('E', "", 10);
            assertEquals("1 2 " + rows(1, 10) + " s C:SELECT 0 C:SELECT 0 Z", execute(c, "", 0));
        }
    }

    @Test
    void fetchMoveAndCloseAnswerWithPostgresTags() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            assertEquals("E:25P01 Z", simple(c, "DECLARE c CURSOR FOR " + TEN));
            simple(c, "BEGIN");
            assertEquals("C:DECLARE CURSOR Z", simple(c, "DECLARE c NO SCROLL CURSOR WITHOUT HOLD FOR " + TEN));
            assertEquals("T " + rows(1, 3) + " C:FETCH 3 Z", simple(c, "FETCH 3 FROM c"));
            assertEquals("T " + rows(4, 5) + " C:FETCH 2 Z", simple(c, "FETCH FORWARD 2 FROM c"));
            assertEquals("T " + rows(6, 6) + " C:FETCH 1 Z", simple(c, "FETCH NEXT FROM c"));
            assertEquals("T " + rows(7, 7) + " C:FETCH 1 Z", simple(c, "fetch C"));
            assertEquals("C:MOVE 2 Z", simple(c, "MOVE 2 IN c"));
            assertEquals("T " + rows(10, 10) + " C:FETCH 1 Z", simple(c, "FETCH ALL FROM c"));
            assertEquals("T C:FETCH 0 Z", simple(c, "FETCH FORWARD ALL c"));
            assertEquals("C:MOVE 0 Z", simple(c, "MOVE 5 c"));
            assertEquals("E:55000 Z", simple(c, "FETCH PRIOR FROM c"), "NO SCROLL: PostgreSQL's error");
            simple(c, "ROLLBACK");
            simple(c, "BEGIN");
            simple(c, "DECLARE c CURSOR FOR " + TEN);
            assertEquals("E:42P03 Z", simple(c, "DECLARE c CURSOR FOR SELECT 1"));
            simple(c, "ROLLBACK");
            simple(c, "BEGIN");
            simple(c, "DECLARE \"Mixed\" CURSOR FOR " + TEN);
            assertEquals("E:0A000 Z", simple(c, "FETCH BACKWARD 1 FROM \"Mixed\""), "PostgreSQL answers");
            simple(c, "ROLLBACK");
            simple(c, "BEGIN");
            simple(c, "DECLARE a CURSOR FOR SELECT 1");
            assertEquals("C:CLOSE CURSOR Z", simple(c, "CLOSE a"));
            assertEquals("E:34000 Z", simple(c, "CLOSE a"));
            simple(c, "ROLLBACK");
            assertEquals("E:34000 Z", simple(c, "FETCH nope"));
            assertEquals("E:34000 Z", simple(c, "MOVE nope"));
            assertEquals("C:CLOSE CURSOR ALL Z", simple(c, "CLOSE ALL"));
        }
    }

    @Test
    void aCursorWithHoldOutlivesItsCommitAndOthersEndWithTheirTransaction() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            simple(c, "BEGIN");
            simple(c, "DECLARE h CURSOR WITH HOLD FOR " + TEN);
            simple(c, "FETCH 2 h");
            simple(c, "COMMIT");
            assertEquals("T " + rows(3, 4) + " C:FETCH 2 Z", simple(c, "FETCH 2 h"));
            simple(c, "BEGIN");
            simple(c, "FETCH 2 h");
            simple(c, "ROLLBACK");
            assertEquals("T " + rows(7, 8) + " C:FETCH 2 Z", simple(c, "FETCH 2 h"), "held over a ROLLBACK");
            simple(c, "BEGIN");
            simple(c, "DECLARE d CURSOR WITH HOLD FOR " + TEN);
            simple(c, "ROLLBACK");
            assertEquals("E:34000 Z", simple(c, "FETCH d"), "WITH HOLD, rolled back");
            simple(c, "BEGIN");
            simple(c, "DECLARE a CURSOR FOR " + TEN);
            simple(c, "SAVEPOINT s1");
            simple(c, "DECLARE b CURSOR FOR " + TEN);
            simple(c, "ROLLBACK TO s1");
            assertEquals("T " + rows(1, 1) + " C:FETCH 1 Z", simple(c, "FETCH a"));
            assertEquals("E:34000 Z", simple(c, "FETCH b"), "declared after the savepoint rolled back to");
            simple(c, "ROLLBACK");
            assertEquals(
                    "C:DECLARE CURSOR T " + rows(1, 2) + " C:FETCH 2 Z",
                    simple(c, "DECLARE x CURSOR FOR " + TEN + "; FETCH 2 FROM x"),
                    "a query of several statements is a transaction block");
            assertEquals("E:34000 Z", simple(c, "FETCH x"));
            assertEquals(
                    "C:DECLARE CURSOR E:42703 Z",
                    simple(c, "DECLARE w CURSOR WITH HOLD FOR " + TEN + "; SELECT nosuch FROM trades"));
            assertEquals("E:34000 Z", simple(c, "FETCH w"), "its transaction failed");
            assertEquals("C:CLOSE CURSOR Z", simple(c, "CLOSE h"));
        }
    }

    /**
     * A cursor declared under a savepoint that is then released belongs to the block around it: a later savepoint
     * rolled back to leaves it open, as PostgreSQL 15 does (it was closed: FETCH answered 34000).
     */
    @Test
    void aCursorOfAReleasedSavepointOutlivesARollbackToALaterOne() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            simple(c, "BEGIN");
            simple(c, "SAVEPOINT a");
            simple(c, "DECLARE c CURSOR FOR " + TEN);
            simple(c, "RELEASE a");
            simple(c, "SAVEPOINT b");
            simple(c, "ROLLBACK TO b");
            assertEquals("T " + rows(1, 1) + " C:FETCH 1 Z", simple(c, "FETCH 1 FROM c"));
            simple(c, "ROLLBACK");
        }
    }

    /**
     * A session's cursors hold their answers within a budget of rows: a DECLARE past it is 54000 and the cursors
     * already open still answer (a reader could pin 256 whole answers of up to 10 million rows WITH HOLD).
     */
    @Test
    void cursorsPastTheSessionsRowBudgetAreRefused() throws IOException {
        System.setProperty(Session.MAX_HELD_ROWS_PROPERTY, "15");
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            assertEquals("C:DECLARE CURSOR Z", simple(c, "DECLARE h1 CURSOR WITH HOLD FOR " + TEN));
            assertEquals("E:54000 Z", simple(c, "DECLARE h2 CURSOR WITH HOLD FOR " + TEN));
            assertEquals("T " + rows(1, 1) + " C:FETCH 1 Z", simple(c, "FETCH h1"));
            simple(c, "CLOSE h1");
            assertEquals("C:DECLARE CURSOR Z", simple(c, "DECLARE h2 CURSOR WITH HOLD FOR " + TEN));
        } finally {
            System.clearProperty(Session.MAX_HELD_ROWS_PROPERTY);
        }
    }

    /**
     * A prepared FETCH described before its cursor existed (no columns), then bound and its portal described with the
     * cursor's columns, executes: the client was told the columns it gets (it was refused 0A000 "cached plan must not
     * change result type", against the statement's older Describe; PostgreSQL answers the row).
     */
    @Test
    void aPreparedFetchWhosePortalWasDescribedExecutes() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.send('P', "s1", "FETCH 1 FROM c", (short) 0);
            c.send('D', 'S', "s1");
            c.send('S');
            c.untilReady();
            simple(c, "BEGIN");
            simple(c, "DECLARE c CURSOR FOR " + TEN);
            c.send('B', "", "s1", (short) 0, (short) 0, (short) 0);
            c.send('D', 'P', "");
            assertEquals("2 T " + rows(1, 1) + " C:FETCH 1 Z", execute(c, "", 0));
            simple(c, "ROLLBACK");
        }
    }

    /** psycopg's named cursor: DECLARE with a parameter in the extended protocol, Describe of it, FETCH, CLOSE. */
    @Test
    void aNamedCursorAsPsycopgDeclaresAndFetchesIt() throws IOException {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            simple(c, "BEGIN");
            c.send(
                    'P',
                    "",
                    "DECLARE \"Cur\" CURSOR FOR SELECT trade_id FROM trades WHERE trade_id > $1"
                            + " ORDER BY trade_id LIMIT 10",
                    (short) 0);
            byte[] third = ids.get(2).getBytes(StandardCharsets.UTF_8);
            c.send('B', "", "", (short) 0, (short) 1, third.length, third, (short) 0);
            c.send('D', 'P', "");
            assertEquals("1 2 n C:DECLARE CURSOR Z", execute(c, "", 0));
            c.send('D', 'P', "Cur");
            c.send('S');
            assertEquals("T Z", summary(c.untilReady()));
            c.send('P', "", "FETCH FORWARD 2 FROM \"Cur\"", (short) 0);
            c.send('B', "", "", (short) 0, (short) 0, (short) 0);
            c.send('D', 'P', "");
            assertEquals("1 2 T " + rows(4, 5) + " C:FETCH 2 Z", execute(c, "", 0));
            assertEquals(rows(6, 8) + " s Z", execute(c, "Cur", 3), "an Execute of the cursor goes on from there");
            assertEquals("C:CLOSE CURSOR Z", simple(c, "CLOSE \"Cur\""));
            assertEquals("C:COMMIT Z", simple(c, "COMMIT"));
        }
    }

    private static String simple(RawPgClient c, String sql) throws IOException {
        c.query(sql);
        return summary(c.untilReady());
    }

    private static String execute(RawPgClient c, String portal, int maxRows) throws IOException {
        c.send('E', portal, maxRows);
        c.send('S');
        return summary(c.untilReady());
    }

    /** The messages as {@code T D:1 D:2 C:FETCH 2 Z}: a row by its first field, a completion by its tag, an error by its SQLSTATE. */
    private static String summary(List<RawPgClient.Message> messages) {
        List<String> out = new ArrayList<>();
        for (RawPgClient.Message m : messages) {
            switch (m.type()) {
                case 'D' -> out.add("D:" + firstField(m.body()));
                case 'C' -> out.add("C:" + m.text().substring(0, m.text().length() - 1));
                case 'E' -> out.add("E:" + m.fields().get('C'));
                case 'S', 'N' -> {
                    // ParameterStatus and notices are not what these tests compare
                }
                default -> out.add(String.valueOf(m.type()));
            }
        }
        return String.join(" ", out);
    }

    private static String firstField(byte[] body) {
        ByteBuffer b = ByteBuffer.wrap(body);
        b.getShort();
        int length = b.getInt();
        return length < 0 ? "NULL" : new String(body, b.position(), length, StandardCharsets.UTF_8);
    }
}
