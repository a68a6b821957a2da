package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.schema.Timestamps;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import io.numacube.numa.base.NumacubeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * current_date, today(), now(), current_timestamp and localtimestamp against DuckDB's own clock, with DuckDB's
 * TimeZone set to the JVM's zone (numacube's now() is that zone's wall clock as a TIMESTAMP). A value is checked to
 * lie between DuckDB's readings just before and just after numacube's statement; filters run over rows placed hours
 * or days away from the moment the test starts, so their answers do not depend on the second they run in, and a test
 * that sees the date change while it runs starts over (at most three times), so midnight does not fail it.
 */
class ClockFunctionsTest {

    private static final TableSchema EVENTS = new TableSchema(
            "events",
            List.of(
                    ColumnSpec.of("id", ColumnType.LONG),
                    ColumnSpec.of("d", ColumnType.DATE),
                    ColumnSpec.of("ts", ColumnType.TIMESTAMP)));

    private DuckDb duck;
    private Cube cube;

    @BeforeEach
    void open() throws Exception {
        duck = new DuckDb();
        duck.execute("SET TimeZone = '" + ZoneId.systemDefault().getId() + "'");
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(512));
    }

    @AfterEach
    void close() throws Exception {
        cube.close();
        duck.close();
    }

    @Test
    void clockValuesLieBetweenDuckDbsReadingsAndAgreeWithinAStatement() throws Exception {
        String duckSql = "SELECT CAST(now() AS TIMESTAMP), current_date";
        Object[] before = duck.query(duckSql).get(0);
        QueryResult ours = cube.query("SELECT now(), current_timestamp, localtimestamp, current_localtimestamp(),"
                + " current_date, today(), (SELECT now()) AS inner_now");
        Object[] after = duck.query(duckSql).get(0);

        assertEquals(
                List.of(
                        "now()",
                        "current_timestamp",
                        "localtimestamp",
                        "current_localtimestamp()",
                        "current_date",
                        "today()",
                        "inner_now"),
                ours.columnNames());
        long now = ours.getLong(0, 0);
        for (int c : new int[] {1, 2, 3, 6}) {
            assertEquals(ColumnType.TIMESTAMP, ours.columnTypes().get(c));
            assertEquals(now, ours.getLong(0, c), "one reading of the clock per statement: " + ours);
        }
        String nowText = Timestamps.format(now);
        LocalDateTime ourNow = Timestamps.toLocalDateTime(now);
        assertTrue(
                !ourNow.isBefore(parsed(before[0])) && !ourNow.isAfter(parsed(after[0])),
                "now() " + nowText + " is not between DuckDB's " + before[0] + " and " + after[0]);
        for (int c : new int[] {4, 5}) {
            assertEquals(ColumnType.DATE, ours.columnTypes().get(c));
            String date = LocalDate.ofEpochDay(ours.getLong(0, c)).toString();
            assertTrue(date.equals(before[1]) || date.equals(after[1]), date + " vs " + before[1] + ", " + after[1]);
            assertEquals(nowText.substring(0, 10), date, "current_date is now()'s date");
        }
    }

    @Test
    void filtersRelativeToTheClockAnswerAsDuckDb() throws Exception {
        List<String> queries = List.of(
                "SELECT COUNT(*) FROM events WHERE d >= current_date - INTERVAL 30 DAY",
                "SELECT COUNT(*) FROM events WHERE d >= current_date - INTERVAL '30' DAY AND d < today()",
                "SELECT COUNT(*) FROM events WHERE d > CAST(now() AS DATE)",
                "SELECT COUNT(*) FROM events WHERE ts >= now() - INTERVAL 1 DAY",
                "SELECT COUNT(*) FROM events WHERE ts < current_timestamp - INTERVAL 7 HOUR",
                "SELECT COUNT(*) FROM events WHERE ts BETWEEN localtimestamp - INTERVAL 2 DAY AND now()",
                "SELECT id FROM events WHERE d = current_date OR ts > now() ORDER BY id",
                "SELECT CASE WHEN d >= current_date - INTERVAL 7 DAY THEN 'week' ELSE 'older' END AS age, COUNT(*)"
                        + " FROM events GROUP BY 1 ORDER BY 1",
                "SELECT COUNT(*) FROM events WHERE d IN"
                        + " (SELECT d FROM events WHERE d <= CAST(current_date - INTERVAL 3 DAY AS DATE))");
        runOnOneDay(() -> {
            loadEventsAroundNow();
            for (String sql : queries) {
                QueryResult ours = cube.query(sql);
                ResultComparator.assertSame(sql, ours, duck.query(sql), 0, new boolean[ours.columnCount()], true, 0);
            }
        });
    }

    @Test
    void deleteByTheClockLeavesDuckDbsRows() throws Exception {
        runOnOneDay(() -> {
            loadEventsAroundNow();
            String delete = "DELETE FROM events WHERE d < current_date - INTERVAL 10 DAY OR ts > now()";
            cube.delete(delete);
            duck.execute(delete);
            String all = "SELECT id, d, ts FROM events ORDER BY id";
            QueryResult ours = cube.query(all);
            ResultComparator.assertSame(all, ours, duck.query(all), 0, new boolean[3], true, 0);
        });
    }

    @Test
    void aWriteGivenAClockReadsItInEveryClauseAndSubqueryAsDuckDbReadsThatInstant() throws Exception {
        LocalDateTime at = LocalDateTime.of(2001, 2, 3, 4, 5, 6, 789_012_000);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            LocalDateTime ts = at.minusDays(5).plusHours(7L * i);
            rows.add(new Object[] {
                (long) i, i % 9 == 4 ? null : ts.toLocalDate().toEpochDay(), Timestamps.ofLocalDateTime(ts)
            });
        }
        cube.loadTable(CubeAppendTest.stage(EVENTS, rows));
        duck.load(EVENTS, rows);
        String update = "UPDATE events SET d = current_date, ts = now() WHERE ts < localtimestamp - INTERVAL 1 DAY"
                + " AND id IN (SELECT id FROM events WHERE d <= today() - INTERVAL 2 DAY)";
        String delete = "DELETE FROM events WHERE ts > now() + INTERVAL 1 DAY"
                + " AND id NOT IN (SELECT id FROM events WHERE d > current_date + INTERVAL 3 DAY)";
        List<WriteResult> first = cube.trial(List.of(new TableUpdate(update, at), new TableDelete(delete, at)));
        // the texts parsed again with other clocks: from their second parse on, each gets a copy of a kept tree
        for (int days = 1; days <= 3; days++) {
            List<WriteResult> other = cube.trial(
                    List.of(new TableUpdate(update, at.plusDays(days)), new TableDelete(delete, at.minusDays(days))));
            assertTrue(other.get(0).rows() != first.get(0).rows()
                    || other.get(1).rows() != first.get(1).rows());
        }
        List<WriteResult> done = cube.write(List.of(new TableUpdate(update, at), new TableDelete(delete, at)));
        assertEquals(first.get(0).rows(), done.get(0).rows());
        assertEquals(first.get(1).rows(), done.get(1).rows());
        assertTrue(done.get(0).rows() > 0 && done.get(1).rows() > 0, done.toString());
        String instant = "TIMESTAMP '2001-02-03 04:05:06.789012'";
        String day = "DATE '2001-02-03'";
        for (String sql : List.of(update, delete)) {
            duck.execute(sql.replace("localtimestamp", instant)
                    .replace("now()", instant)
                    .replace("today()", day)
                    .replace("current_date", day));
        }
        String all = "SELECT id, d, ts FROM events ORDER BY id";
        ResultComparator.assertSame(all, cube.query(all), duck.query(all), 0, new boolean[3], true, 0);
    }

    @Test
    void whatNeedsATimeZoneOrATimeIsRefusedWithItsPosition() {
        assertRefused("SELECT now()::VARCHAR", 1, 8);
        assertRefused("SELECT 1 AS x, CAST(current_timestamp AS TEXT)", 1, 21);
        assertRefused("SELECT epoch(now())", 1, 14);
        assertRefused("SELECT current_time", 1, 8);
        // the local TIMESTAMP has no offset to lose: as text it is DuckDB's CAST(now() AS TIMESTAMP)::VARCHAR
        QueryResult r = cube.query("SELECT CAST(now() AS TIMESTAMP)::VARCHAR AS t, CAST(localtimestamp AS VARCHAR)");
        assertEquals(ColumnType.STRING, r.columnTypes().get(0));
    }

    /**
     * PostgreSQL's clocks that are not the statement's or transaction's are refused, not read as it; a zoned clock
     * reaching a result column is refused for PostgreSQL clients (a timestamptz there), and only there.
     */
    @Test
    void otherClocksAndZonedResultColumnsAreRefusedWithTheirPosition() {
        assertRefused("SELECT statement_timestamp()", 1, 8);
        assertRefused("SELECT 1 AS x, clock_timestamp()", 1, 16);
        assertRefused("SELECT timeofday()", 1, 8);
        assertRefused("SELECT EXTRACT(EPOCH FROM now()) FROM events", 1, 27);
        assertRefused("SELECT COUNT(*) FROM events WHERE date_part('epoch', now()) > 0", 1, 54);
        assertRefused("SELECT extract(epoch from current_timestamp) - 1 FROM events", 1, 27);
        assertZonedResult("SELECT id, now() - INTERVAL '1' DAY FROM events", 1, 12);
        assertZonedResult("SELECT x FROM (SELECT current_timestamp AS x FROM events) s", 1, 23);
        assertZonedResult("SELECT MAX(CASE WHEN id > 1 THEN transaction_timestamp() END) FROM events", 1, 34);
        Cube.refuseZonedClockResults("SELECT CAST(now() AS TIMESTAMP) AS now, EXTRACT(HOUR FROM now()), now() > ts,"
                + " current_date FROM events WHERE ts < now() - INTERVAL 1 DAY");
    }

    /**
     * A zoned clock alone as a column of the top SELECT is told to the server (by position, with PostgreSQL's name)
     * to be sent as the transaction's timestamptz; reaching the result any other way it is refused.
     */
    @Test
    void aZonedClockAloneAsAColumnIsToldByPosition() {
        assertEquals(
                java.util.Map.of(1, "now", 2, "", 3, "current_timestamp"),
                Cube.zonedClockColumns(
                        "SELECT id, now(), transaction_timestamp() AS at, CURRENT_TIMESTAMP FROM events ORDER BY id"));
        assertEquals(java.util.Map.of(), Cube.zonedClockColumns("SELECT CAST(now() AS TIMESTAMP) FROM events"));
        assertZonedColumns("SELECT *, now() FROM events", 1, 11);
        assertZonedColumns("SELECT now() FROM events UNION ALL SELECT now() FROM events", 1, 8);
        assertZonedColumns("SELECT now(), now() + INTERVAL '1' HOUR FROM events", 1, 15);
        assertZonedColumns("SELECT x FROM (SELECT now() AS x FROM events) s", 1, 23);
    }

    private static void assertZonedColumns(String sql, int line, int column) {
        NumacubeException e = assertThrows(NumacubeException.class, () -> Cube.zonedClockColumns(sql), sql);
        assertEquals("0A000", e.code(), e.getMessage());
        assertEquals(line, e.position().orElseThrow().line(), e.getMessage());
        assertEquals(column, e.position().orElseThrow().column(), e.getMessage());
    }

    private static void assertZonedResult(String sql, int line, int column) {
        NumacubeException e = assertThrows(NumacubeException.class, () -> Cube.refuseZonedClockResults(sql), sql);
        assertEquals("0A000", e.code(), e.getMessage());
        assertEquals(line, e.position().orElseThrow().line(), e.getMessage());
        assertEquals(column, e.position().orElseThrow().column(), e.getMessage());
    }

    private static LocalDateTime parsed(Object duckTimestamp) {
        return LocalDateTime.parse(((String) duckTimestamp).replace(' ', 'T'));
    }

    private void assertRefused(String sql, int line, int column) {
        NumacubeException e = assertThrows(NumacubeException.class, () -> cube.query(sql), sql);
        assertEquals("0A000", e.code(), e.getMessage());
        assertEquals(line, e.position().orElseThrow().line(), e.getMessage());
        assertEquals(column, e.position().orElseThrow().column(), e.getMessage());
    }

    /** Rows of dates 40 days back to 5 days ahead of today, and timestamps every 90 minutes around now, half past. */
    private void loadEventsAroundNow() throws Exception {
        LocalDate today = LocalDate.now();
        LocalDateTime hour = LocalDateTime.now().truncatedTo(ChronoUnit.HOURS).plusMinutes(30);
        List<Object[]> rows = new ArrayList<>();
        long id = 0;
        for (int days = -40; days <= 5; days++) {
            for (int i = 0; i < 3; i++) {
                LocalDateTime ts = hour.plusMinutes(90L * (days * 3 + i));
                rows.add(new Object[] {
                    id++,
                    i == 2 && days % 4 == 0 ? null : today.plusDays(days).toEpochDay(),
                    Timestamps.ofLocalDateTime(ts)
                });
            }
        }
        cube.loadTable(CubeAppendTest.stage(EVENTS, rows));
        duck.load(EVENTS, rows);
    }

    /** Runs {@code check} until a run starts and ends on the same day (at most three runs). */
    private static void runOnOneDay(Check check) throws Exception {
        for (int attempt = 0; ; attempt++) {
            LocalDate start = LocalDate.now();
            check.run();
            if (LocalDate.now().equals(start) || attempt == 2) {
                return;
            }
        }
    }

    @FunctionalInterface
    private interface Check {
        void run() throws Exception;
    }
}
