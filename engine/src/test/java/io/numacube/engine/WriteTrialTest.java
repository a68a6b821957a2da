package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A transaction block's trial kept between its statements ({@link WriteTrial}): each write is applied once onto the
 * writes before it (counted, not timed), answers the row count a trial of the whole block so far answers, is built
 * again when another writer published meanwhile or the block lost writes (a ROLLBACK TO), and leaves the cube as
 * DuckDB's transaction of the same statements does.
 */
class WriteTrialTest {

    private static final TableSchema T = TableSchema.parse("t", "k:long,v:long,d:string");
    private static final String STATE = "SELECT k, v, d FROM t ORDER BY k, v, d";

    @Test
    void eachWriteOfABlockIsAppliedOnceAndCountsItsRowsAsTheWholeBlockWould() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        try (Cube cube = cube();
                DuckDb duck = new DuckDb();
                WriteTrial trial = cube.openTrial()) {
            duck.load(rows(0, 100));
            List<TableWrite> block = new ArrayList<>();
            List<String> statements = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                String sql = statement(i, random);
                statements.add(sql);
                block.add(write(sql, i));
                long expected = cube.trial(block).getLast().rows();
                assertEquals(
                        expected,
                        cube.trial(trial, block).getLast().rows(),
                        "statement " + i + " (" + sql + "), seed=" + seed);
            }
            assertEquals(block.size(), trial.applications(), "each write applied once, seed=" + seed);
            assertEquals(1, cube.version("t"), "a trial publishes nothing");
            cube.write(block);
            duck.execute("BEGIN");
            for (String sql : statements) {
                duck.execute(sql);
            }
            duck.execute("COMMIT");
            assertSameAsDuckDb(cube, duck);
        }
    }

    @Test
    void aWritePublishedByAnotherWriterMeanwhileIsSeenByTheBlocksNextStatement() {
        try (Cube cube = cube();
                WriteTrial trial = cube.openTrial()) {
            List<TableWrite> block = new ArrayList<>();
            block.add(new TableUpdate("UPDATE t SET v = v + 1 WHERE k < 10"));
            block.add(new TableDelete("DELETE FROM t WHERE k = 3"));
            assertEquals(1, cube.trial(trial, block).getLast().rows());
            cube.write(List.of(new TableUpdate("UPDATE t SET v = 1000 WHERE k >= 90")));
            block.add(new TableUpdate("UPDATE t SET d = 'big' WHERE v >= 1000"));
            assertEquals(10, cube.trial(trial, block).getLast().rows(), "the other writer's rows are seen");
            assertEquals(2 + 3, trial.applications(), "built again on the new version: 2, then 3 writes");
            block.add(new TableDelete("DELETE FROM t WHERE d = 'big' AND k > 95"));
            assertEquals(4, cube.trial(trial, block).getLast().rows());
            assertEquals(2 + 3 + 1, trial.applications());
            cube.write(block);
            assertEquals(100 - 1 - 4, cube.rowCount("t"));
            QueryResult big = cube.query("SELECT COUNT(*), SUM(v) FROM t WHERE d = 'big'");
            assertEquals(List.of(6L, 6000L), List.of(big.getLong(0, 0), big.getLong(0, 1)), "k 90 to 95");
        }
    }

    @Test
    void aShorterBlockOrAFailedWriteBuildsTheTrialAgainFromTheFirstWrite() {
        try (Cube cube = cube();
                WriteTrial trial = cube.openTrial()) {
            List<TableWrite> block = new ArrayList<>();
            block.add(new TableBatch("t", rows(100, 110)));
            block.add(new TableUpdate("UPDATE t SET v = 0 WHERE k >= 100"));
            assertEquals(10, cube.trial(trial, block).getLast().rows());
            block.add(new TableDelete("DELETE FROM t WHERE v = 0"));
            assertEquals(11, cube.trial(trial, block).getLast().rows(), "the ten updated and k = 0");
            assertEquals(3, trial.applications());
            block.remove(2);
            block.remove(1);
            block.add(new TableDelete("DELETE FROM t WHERE k >= 105"));
            assertEquals(5, cube.trial(trial, block).getLast().rows(), "the rolled-back writes are not seen");
            assertEquals(3 + 2, trial.applications(), "a block shorter than the trial is tried from its start");
            block.add(new TableUpdate("UPDATE t SET nosuch = 1"));
            assertThrows(NumacubeException.class, () -> cube.trial(trial, block));
            assertEquals(0, trial.writes(), "a failed write resets the trial");
            block.removeLast();
            block.add(new TableDelete("DELETE FROM t WHERE k >= 100"));
            assertEquals(5, cube.trial(trial, block).getLast().rows());
            assertEquals(100, cube.rowCount("t"), "a trial publishes nothing");
        }
    }

    @Test
    void aTrialsNewValuesStayOutOfTheCubesOwnWrites() throws Exception {
        try (Cube cube = cube();
                DuckDb duck = new DuckDb();
                WriteTrial trial = cube.openTrial()) {
            duck.load(rows(0, 100));
            TableStaging fresh = rows(200, 203);
            List<TableWrite> block = List.of(new TableBatch("t", fresh), new TableUpdate("UPDATE t SET d = 'zz'"));
            assertEquals(103, cube.trial(trial, block).getLast().rows());
            cube.write(List.of(new TableBatch("t", rows(300, 302))));
            duck.execute("INSERT INTO t SELECT k, 10 * k, 'd' || (k % 7) FROM range(300, 302) r(k)");
            trial.reset();
            assertSameAsDuckDb(cube, duck);
            assertEquals(
                    List.of("d0", "d1", "d2", "d3", "d4", "d5", "d6"),
                    distinct(cube.query("SELECT DISTINCT d FROM t ORDER BY d")));
        }
    }

    private static List<String> distinct(QueryResult r) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < r.rowCount(); i++) {
            out.add(r.getString(i, 0));
        }
        return out;
    }

    /** A random single-row UPDATE, a DELETE of a few rows, or an INSERT of two rows with a new text value. */
    private static String statement(int i, Random random) {
        int k = random.nextInt(110);
        return switch (random.nextInt(6)) {
            case 0 -> "DELETE FROM t WHERE k = " + k;
            case 1 ->
                "INSERT INTO t VALUES (" + (1000 + i) + ", " + i + ", 'n" + i + "'), (" + k + ", " + -i + ", 'm" + i
                        + "')";
            case 2 -> "UPDATE t SET d = 'u" + i + "', v = v * 2 WHERE v > " + (10 * k);
            default -> "UPDATE t SET v = v + " + i + " WHERE k = " + k;
        };
    }

    private static TableWrite write(String sql, int i) {
        if (sql.startsWith("DELETE")) {
            return new TableDelete(sql);
        }
        if (sql.startsWith("UPDATE")) {
            return new TableUpdate(sql);
        }
        String[] values = sql.substring(sql.indexOf("VALUES") + 7).split("\\), \\(");
        TableStaging st = new TableStaging(T);
        for (String row : values) {
            String[] f = row.replace("(", "").replace(")", "").split(", ");
            st.setLong(0, Long.parseLong(f[0]));
            st.setLong(1, Long.parseLong(f[1]));
            st.setString(2, f[2].replace("'", ""));
            st.endRow();
        }
        return new TableBatch("t", st);
    }

    private static void assertSameAsDuckDb(Cube cube, DuckDb duck) throws Exception {
        QueryResult ours = cube.query(STATE);
        ResultComparator.assertSame(STATE, ours, duck.query(STATE), 0, new boolean[ours.columnCount()], true, 0);
    }

    private static Cube cube() {
        Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
        cube.loadTable(rows(0, 100));
        return cube;
    }

    /** Rows k in [from, to): v = 10k, d = 'd' || k % 7. */
    private static TableStaging rows(int from, int to) {
        TableStaging st = new TableStaging(T);
        for (int k = from; k < to; k++) {
            st.setLong(0, k);
            st.setLong(1, 10L * k);
            st.setString(2, "d" + (k % 7));
            st.endRow();
        }
        return st;
    }
}
