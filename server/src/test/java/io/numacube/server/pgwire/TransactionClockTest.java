package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.query.ServerMetrics;
import io.numacube.server.write.WriteService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The clock functions over pgjdbc as PostgreSQL 15 answers them (tools/clients/clock_compare.py runs the same cases
 * against a PostgreSQL 15 and numacube with psycopg and asyncpg): one clock per transaction, also for an
 * extended-protocol batch up to its Sync and for the transactions of one simple Query (a COMMIT inside it is followed
 * by one that starts when the Query arrived); the wall clock of the session's TimeZone; {@code SELECT now()} a
 * {@code timestamptz} with the session's offset; and what numacube cannot answer as PostgreSQL refused with 0A000.
 */
class TransactionClockTest {

    private static final String KIRITIMATI = "Pacific/Kiritimati";
    private static final String NOW = "SELECT CAST(now() AS TIMESTAMP) FROM t WHERE id = 0";

    private Cube cube;
    private NumacubeServer server;

    @BeforeEach
    void start() throws Exception {
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(1).withThreadsPerNode(1));
        TableStaging t = new TableStaging(TableSchema.parse("t", "id:long,desk:string,ts:timestamp,d:date"));
        for (int i = 0; i < 4; i++) {
            t.setLong(0, i);
            t.setString(1, "D" + i);
            t.setNull(2);
            t.setNull(3);
            t.endRow();
        }
        cube.loadTable(t);
        WriteService writes = new WriteService(cube, WriteService.BatchLog.NONE);
        server = NumacubeServer.start(ServerOptions.defaults("test").withPorts(0, 0), writes, new ServerMetrics());
    }

    @AfterEach
    void stop() {
        server.close();
        cube.close();
    }

    private Connection connect(String options) throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + server.pgAddress().getPort() + "/numacube?user=test" + options);
    }

    /** Every result's first value, in order, of statements run as one {@link Statement#execute}. */
    private static List<String> all(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        boolean rows = s.execute(sql);
        while (true) {
            if (rows) {
                try (ResultSet rs = s.getResultSet()) {
                    assertTrue(rs.next(), sql);
                    out.add(rs.getString(1));
                }
            } else if (s.getUpdateCount() < 0) {
                return out;
            }
            rows = s.getMoreResults();
        }
    }

    /**
     * Parse/Bind/Execute of three SELECTs and then a Sync, sent at once: the last Execute, right before the Sync with
     * no write kept before it, read a clock of its own.
     */
    @Test
    void theLastExecuteBeforeSyncReadsTheBatchsClock() throws Exception {
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 3; i++) {
                    c.send('P', "", NOW, (short) 0);
                    c.send('B', "", "", (short) 0, (short) 0, (short) 0);
                    c.send('E', "", 0);
                }
                c.send('S');
                List<String> got = new ArrayList<>();
                for (RawPgClient.Message m : c.untilReady()) {
                    if (m.type() == 'D') {
                        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(m.body(), 2, m.body().length - 2);
                        got.add(new String(m.body(), 6, b.getInt(), java.nio.charset.StandardCharsets.UTF_8));
                    }
                }
                assertEquals(3, got.size());
                assertEquals(1, new HashSet<>(got).size(), "one batch, one clock: " + got);
            }
        }
    }

    /**
     * In one simple Query, a transaction that begins after a COMMIT starts when the Query arrived, as PostgreSQL's
     * statement timestamp is the Query's: every statement of {@code BEGIN; ...; COMMIT; ...} reads the same clock.
     */
    @Test
    void theTransactionsOfOneSimpleQueryStartWhenItArrived() throws Exception {
        try (Connection c = connect("&preferQueryMode=simple");
                Statement s = c.createStatement()) {
            List<String> got = all(
                    s, "BEGIN; " + NOW + "; " + NOW + "; COMMIT; " + NOW + "; " + NOW + "; BEGIN; " + NOW + "; COMMIT");
            assertEquals(5, got.size());
            assertEquals(1, new HashSet<>(got).size(), "the Query's start for each: " + got);
            String next = all(s, NOW).getFirst();
            assertTrue(next.compareTo(got.getFirst()) > 0, "the next Query starts anew: " + next);
        }
    }

    /** The clock is the session TimeZone's wall clock: Kiritimati's (UTC+14) date is a day ahead of UTC's most hours. */
    @Test
    void theClockIsTheWallClockOfTheSessionsTimeZone() throws Exception {
        ZoneId zone = ZoneId.of(KIRITIMATI);
        try (Connection c = connect("");
                Statement s = c.createStatement()) {
            s.execute("SET TimeZone = '" + KIRITIMATI + "'");
            List<String> got = sameDay(zone, () -> all(s, NOW + "; SELECT current_date; SELECT localtimestamp"));
            LocalDateTime read = LocalDateTime.parse(got.get(0).replace(' ', 'T'));
            long off = java.time.Duration.between(read, LocalDateTime.now(zone))
                    .abs()
                    .toSeconds();
            assertTrue(off < 60, "Kiritimati's wall clock: read " + read + ", it is " + LocalDateTime.now(zone));
            assertEquals(read.toLocalDate().toString(), got.get(1));
            assertEquals(got.get(0), got.get(2));
        }
    }

    /** SELECT now() is PostgreSQL's timestamptz, in text with the session's offset, in binary the same instant. */
    @Test
    void selectNowIsATimestampWithTheSessionsOffset() throws Exception {
        try (Connection c = connect("");
                Statement s = c.createStatement()) {
            s.execute("SET TimeZone = '" + KIRITIMATI + "'");
            c.setAutoCommit(false);
            try (ResultSet rs = s.executeQuery("SELECT now(), current_timestamp AS ts, localtimestamp, current_date")) {
                assertTrue(rs.next());
                var meta = rs.getMetaData();
                assertEquals("now", meta.getColumnLabel(1));
                assertEquals("timestamptz", meta.getColumnTypeName(1));
                assertEquals("timestamptz", meta.getColumnTypeName(2));
                assertEquals("timestamp", meta.getColumnTypeName(3));
                assertEquals("date", meta.getColumnTypeName(4));
                String text = rs.getString(1);
                assertTrue(text.endsWith("+14"), text);
                assertEquals(text, rs.getString(2));
                assertEquals(text.substring(0, text.length() - 3), rs.getString(3));
                var binary = rs.getObject(1, java.time.OffsetDateTime.class);
                assertEquals(
                        LocalDateTime.parse(rs.getString(3).replace(' ', 'T')),
                        binary.atZoneSameInstant(ZoneId.of(KIRITIMATI)).toLocalDateTime());
            }
            c.commit();
        }
    }

    /**
     * INSERT ... VALUES (now(), current_date) in a block stores the block's clock, also when another session committed
     * before the block's COMMIT (which applies it again after that commit); an executeBatch of such INSERTs outside a
     * block is one implicit transaction, one clock.
     */
    @Test
    void anInsertStoresTheClockItsTransactionRead() throws Exception {
        try (Connection c = connect("");
                Connection other = connect("");
                Statement s = c.createStatement();
                Statement o = other.createStatement()) {
            c.setAutoCommit(false);
            String seen = all(s, NOW).getFirst();
            Thread.sleep(20);
            assertEquals(
                    2,
                    s.executeUpdate("INSERT INTO t (id, ts, d) VALUES (10, now(), current_date), "
                            + "(11, localtimestamp, NULL)"));
            assertEquals(1, s.executeUpdate("UPDATE t SET desk = 'block' WHERE id = 1"));
            Thread.sleep(20);
            assertEquals(1, o.executeUpdate("UPDATE t SET desk = 'other' WHERE id = 2"));
            c.commit();
            assertEquals(
                    List.of(seen, seen.substring(0, 10), seen),
                    all(
                            s,
                            "SELECT CAST(ts AS VARCHAR) FROM t WHERE id = 10; SELECT CAST(d AS VARCHAR) FROM t WHERE id = 10;"
                                    + " SELECT CAST(ts AS VARCHAR) FROM t WHERE id = 11"));
            c.commit();
            c.setAutoCommit(true);
            for (int id = 20; id < 23; id++) {
                s.addBatch("INSERT INTO t (id, ts) VALUES (" + id + ", transaction_timestamp())");
            }
            s.executeBatch();
            assertEquals(List.of("1"), all(s, "SELECT COUNT(DISTINCT ts) FROM t WHERE id >= 20"));
        }
    }

    /**
     * Refused with 0A000 rather than answered differently: statement_timestamp() and clock_timestamp() in a query the
     * engine runs (clock_timestamp() is a value per row there), now() in an expression or a derived table's column
     * reaching an engine query's result (PostgreSQL's timestamptz), and the clock under a POSIX TimeZone with a daylight-saving rule; statements that read no clock
     * still run.
     */
    @Test
    void whatCannotBeAnsweredExactlyIsRefused() throws Exception {
        try (Connection c = connect("");
                Statement s = c.createStatement()) {
            assertEquals("0A000", stateOf(s, "SELECT statement_timestamp() FROM t WHERE id = 0"));
            assertEquals("0A000", stateOf(s, "SELECT clock_timestamp() FROM t WHERE id = 0"));
            assertEquals("0A000", stateOf(s, "SELECT id, now() - INTERVAL '1' DAY FROM t WHERE id = 0"));
            assertEquals("0A000", stateOf(s, "SELECT x FROM (SELECT now() AS x FROM t) s"));
            assertEquals(1, all(s, NOW).size());
            s.execute("SET TimeZone = 'EST5EDT,J60,J300'");
            assertEquals("0A000", stateOf(s, "SELECT now()"));
            assertEquals("0A000", stateOf(s, NOW));
            assertEquals("0A000", stateOf(s, "UPDATE t SET desk = CAST(current_date AS VARCHAR) WHERE id = 1"));
            assertEquals(List.of("1"), all(s, "SELECT count(*) FROM t WHERE id = 1"));
            assertEquals(1, s.executeUpdate("UPDATE t SET desk = 'x' WHERE id = 1"));
        }
    }

    /**
     * statement_timestamp() is when the client's latest message arrived (a simple Query's for each of its statements,
     * an Execute's in the extended protocol), clock_timestamp() the clock when it is called, each call anew; both
     * PostgreSQL's timestamptz in the session's zone (they were refused with 0A000).
     */
    @Test
    void statementTimestampIsTheLatestMessageAndClockTimestampTheRunningClock() throws Exception {
        try (Connection c = connect("");
                Statement s = c.createStatement()) {
            s.execute("SET TimeZone = '" + KIRITIMATI + "'");
            c.setAutoCommit(false);
            String now = all(s, "SELECT now()").getFirst();
            Thread.sleep(20);
            String statement = all(s, "SELECT statement_timestamp()").getFirst();
            assertTrue(statement.compareTo(now) > 0, statement + " after the block's start " + now);
            assertTrue(statement.endsWith("+14"), statement);
            try (ResultSet rs = s.executeQuery("SELECT clock_timestamp(), clock_timestamp() AS b, now()")) {
                assertTrue(rs.next());
                assertEquals("timestamptz", rs.getMetaData().getColumnTypeName(1));
                assertEquals("clock_timestamp", rs.getMetaData().getColumnLabel(1));
                assertTrue(rs.getString(1).compareTo(statement) > 0, rs.getString(1));
                assertTrue(rs.getString(2).compareTo(rs.getString(1)) >= 0, rs.getString(2));
                assertEquals(now, rs.getString(3));
            }
            c.commit();
        }
        try (Connection c = connect("&preferQueryMode=simple");
                Statement s = c.createStatement()) {
            List<String> got = all(s, "SELECT statement_timestamp(); SELECT now(); SELECT statement_timestamp()");
            assertEquals(1, new HashSet<>(got).size(), "the Query's arrival, its transaction's start: " + got);
        }
        try (RawPgClient c = RawPgClient.connected(server.pgAddress())) {
            c.query("SET TimeZone = 'UTC'");
            c.untilReady();
            List<LocalDateTime> got = new ArrayList<>();
            for (int round = 0; round < 2; round++) {
                got.clear();
                for (int i = 0; i < 2; i++) {
                    c.send('P', "", "SELECT statement_timestamp(), now()", (short) 0);
                    c.send('B', "", "", (short) 0, (short) 0, (short) 0);
                    c.send('E', "", 0);
                    Thread.sleep(200);
                }
                c.send('S');
                for (RawPgClient.Message m : c.untilReady()) {
                    if (m.type() == 'D') {
                        fields(m.body())
                                .forEach(f -> got.add(LocalDateTime.parse(
                                        f.substring(0, f.length() - 3).replace(' ', 'T'))));
                    }
                }
            }
            assertEquals(4, got.size(), got.toString());
            assertEquals(got.get(1), got.get(3), "one batch, one now(): " + got);
            assertTrue(!got.get(0).isBefore(got.get(1)), "the batch began at its first message: " + got);
            assertTrue(
                    java.time.Duration.between(got.get(0), got.get(2)).toMillis() >= 150,
                    "the second Execute arrived 200 ms later: " + got);
        }
    }

    /**
     * now() or current_timestamp alone as a column of a query the engine runs is PostgreSQL's timestamptz, the
     * transaction's instant with the session's offset in each row, named as PostgreSQL names it, in text and binary
     * (it was refused with 0A000).
     */
    @Test
    void aClockAloneAsAColumnOfAnEngineQueryIsTheTransactionsTimestamptz() throws Exception {
        try (Connection c = connect("&prepareThreshold=1");
                Statement s = c.createStatement()) {
            s.execute("SET TimeZone = '" + KIRITIMATI + "'");
            c.setAutoCommit(false);
            String now = all(s, "SELECT now()").getFirst();
            String sql = "SELECT id, now(), current_timestamp AS at FROM t WHERE id < 3 ORDER BY id";
            for (int round = 0; round < 3; round++) {
                try (java.sql.PreparedStatement p = c.prepareStatement(sql);
                        ResultSet rs = p.executeQuery()) {
                    var meta = rs.getMetaData();
                    assertEquals("now", meta.getColumnLabel(2));
                    assertEquals("at", meta.getColumnLabel(3));
                    assertEquals("timestamptz", meta.getColumnTypeName(2));
                    assertEquals("timestamptz", meta.getColumnTypeName(3));
                    int rows = 0;
                    while (rs.next()) {
                        rows++;
                        assertEquals(now, rs.getString(2));
                        assertEquals(now, rs.getString(3));
                        assertEquals(
                                rs.getObject(2, java.time.OffsetDateTime.class).toInstant(),
                                java.time.OffsetDateTime.parse(now.replace(' ', 'T') + ":00")
                                        .toInstant());
                    }
                    assertEquals(3, rows);
                }
            }
            c.commit();
        }
    }

    /** The text fields of a DataRow. */
    private static List<String> fields(byte[] body) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(body);
        List<String> out = new ArrayList<>();
        for (int n = b.getShort(); n > 0; n--) {
            byte[] f = new byte[b.getInt()];
            b.get(f);
            out.add(new String(f, java.nio.charset.StandardCharsets.UTF_8));
        }
        return out;
    }

    /**
     * The TimeZone settings PostgreSQL 15 reads besides the database's names, each compared with it (SHOW and the
     * offset of SELECT now()): POSIX {@code UTC+2} and {@code '+02:00'} are two hours WEST, {@code <+02>-02} two east; a
     * number and an INTERVAL are hours EAST and shown as PostgreSQL keeps them (they were refused when the clock was
     * read).
     */
    @Test
    void posixAndNumericTimeZonesAreReadAsPostgresReadsThem() throws Exception {
        String[][] cases = {
            {"TimeZone = 'UTC+2'", "UTC+2", "-02"},
            {"TimeZone = 'utc-2'", "UTC-2", "+02"},
            {"TIME ZONE '<+02>-02'", "<+02>-02", "+02"},
            {"TIME ZONE '+02:00'", "+02:00", "-02"},
            {"TIME ZONE '-00:30'", "-00:30", "+00:30"},
            {"TIME ZONE 'foo+3'", "FOO+3", "-03"},
            {"TIME ZONE 'EST5EDT'", "EST5EDT", null},
            {"TIME ZONE 'est'", "EST", "-05"},
            {"TIME ZONE 'cet-1cest,m3.5.0,m10.5.0/3'", "CET-1CEST,M3.5.0,M10.5.0/3", null},
            {"TIME ZONE 'us/eastern'", "US/Eastern", null},
            {"TIME ZONE 2", "<+02>-02", "+02"},
            {"TIME ZONE -3.5", "<-03:30>+03:30", "-03:30"},
            {"TIME ZONE '+1'", "<+01>-01", "+01"},
            {"TimeZone TO 0", "<+00>-00", "+00"},
            {"TIME ZONE INTERVAL '+02:00' HOUR TO MINUTE", "<+02>-02", "+02"},
            {"TIME ZONE INTERVAL '-05:30' HOUR TO MINUTE", "<-05:30>+05:30", "-05:30"},
            {"TIME ZONE INTERVAL '90 minutes'", "<+01:30>-01:30", "+01:30"},
        };
        try (Connection c = connect("");
                Statement s = c.createStatement()) {
            for (String[] k : cases) {
                s.execute("SET " + k[0]);
                assertEquals(k[1], all(s, "SHOW TimeZone").getFirst(), k[0]);
                String now = all(s, "SELECT now()").getFirst();
                if (k[2] != null) {
                    assertTrue(now.endsWith(k[2]) && !now.endsWith(":" + k[2]), k[0] + ": " + now);
                }
            }
            s.execute("SET TIME ZONE 'UTC+2'");
            LocalDateTime read = LocalDateTime.parse(all(s, NOW).getFirst().replace(' ', 'T'));
            LocalDateTime west = LocalDateTime.now(java.time.ZoneOffset.ofHours(-2));
            assertTrue(java.time.Duration.between(read, west).abs().toSeconds() < 60, read + " is UTC-2's " + west);
            assertEquals("22023", stateOf(s, "SET TIME ZONE INTERVAL '1 day'"));
        }
    }

    private static String stateOf(Statement s, String sql) {
        return assertThrows(SQLException.class, () -> s.execute(sql), sql).getSQLState();
    }

    /** {@code read}'s answer, read again when the zone's date changed meanwhile. */
    private static <T> T sameDay(ZoneId zone, SqlSupplier<T> read) throws SQLException {
        while (true) {
            LocalDate before = LocalDate.now(zone);
            T got = read.get();
            if (LocalDate.now(zone).equals(before)) {
                return got;
            }
        }
    }

    /** A {@link Supplier} that may throw SQLException. */
    private interface SqlSupplier<T> {
        T get() throws SQLException;
    }
}
