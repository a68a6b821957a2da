package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.StagedTableLoader;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A free-text column (nearly one value per row, as TPC-H's comments) keeps its dictionary in first-seen order when
 * loaded, unsorted, and every query over it answers as DuckDB does on the same staged values: equality, LIKE, ranges,
 * MIN and MAX, ORDER BY, GROUP BY and COUNT(DISTINCT) of the text, with NULLs and a few repeated values; a column of few
 * values beside it stays sorted.
 */
class FreeTextColumnTest {

    private static final int ROWS = 300_000;
    private static DuckDb duck;
    private static Cube cube;
    private static TableStaging staged;

    @BeforeAll
    static void load() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(4096));
        TableStaging t = new TableStaging(TableSchema.parse("t", "note:string,k:string,v:long"));
        Random rnd = new Random(16);
        for (int r = 0; r < ROWS; r++) {
            if (r % 97 == 0) {
                t.setNull(0);
            } else if (r % 31 == 0) {
                t.setString(0, "repeated " + (r % 5));
            } else {
                t.setString(0, Long.toString(rnd.nextLong() & Long.MAX_VALUE, 36) + " slyly " + r);
            }
            t.setString(1, "k" + (r % 7));
            t.setLong(2, r);
            t.endRow();
        }
        cube.loadTable(t);
        duck.load(t);
        staged = t;
    }

    @AfterAll
    static void close() throws Exception {
        cube.close();
        duck.close();
    }

    @Test
    void theFreeTextDictionaryStaysInFirstSeenOrderAndTheOtherIsSorted() {
        assertTrue(StagedTableLoader.keepsFirstSeenOrder(staged.dictionary(0), staged.rows()));
        assertFalse(StagedTableLoader.keepsFirstSeenOrder(staged.dictionary(1), staged.rows()));
    }

    static List<String> queries() {
        return List.of(
                "SELECT MIN(note), MAX(note), COUNT(note), COUNT(DISTINCT note) FROM t",
                "SELECT k, MIN(note), MAX(note) FROM t GROUP BY k ORDER BY k",
                "SELECT note, v FROM t ORDER BY note, v LIMIT 20",
                "SELECT note, v FROM t ORDER BY note DESC NULLS LAST, v LIMIT 20",
                "SELECT note, COUNT(*), SUM(v) FROM t GROUP BY note HAVING COUNT(*) > 1 ORDER BY note",
                "SELECT COUNT(*) FROM t WHERE note = 'repeated 3'",
                "SELECT COUNT(*), SUM(v) FROM t WHERE note LIKE '%slyly 12%'",
                "SELECT COUNT(*) FROM t WHERE note NOT LIKE 'a%'",
                "SELECT COUNT(*), SUM(v) FROM t WHERE note < 'b' AND note >= '1'",
                "SELECT COUNT(*) FROM t WHERE note IS NULL",
                "SELECT k, COUNT(*) FROM t WHERE note > 'x' GROUP BY k ORDER BY k",
                "SELECT COUNT(*), SUM(v) FROM t WHERE note ILIKE '%SLYLY 2_9%'",
                "SELECT COUNT(*), SUM(v) FROM t WHERE note LIKE '%a%slyly 1%' OR note LIKE 'z%7'",
                "SELECT k, COUNT(*) FROM t WHERE note NOT LIKE '%slyly%' GROUP BY k ORDER BY k",
                "SELECT COUNT(*) FROM t WHERE length(note) > 20 AND upper(note) LIKE 'A%'");
    }

    /**
     * A condition on the text is evaluated per code of its 300,000, by ranges of codes on the two workers; where it
     * fails, the failure is the first code's in code order, the one the planning thread alone meets first (codes of
     * rows 199,900-199,999 and 299,900-299,999 fail, in different ranges), whichever range fails first in time.
     */
    @Test
    void aFailingConditionFailsAtTheFirstCodeAsWithoutTheWorkers() {
        String sql =
                "SELECT COUNT(*) FROM t WHERE CAST(CASE WHEN note LIKE '%slyly 1999__' OR note LIKE '%slyly 2999__'"
                        + " THEN note ELSE '1' END AS INTEGER) > 0";
        String parallel = failure(sql);
        System.setProperty("numacube.parallelMask", "false");
        String serial;
        try {
            serial = failure(sql);
        } finally {
            System.clearProperty("numacube.parallelMask");
        }
        assertEquals(serial, parallel);
        assertTrue(parallel.contains("slyly 1999"), parallel);
    }

    private static String failure(String sql) {
        try {
            cube.query(sql);
            return "no failure";
        } catch (io.numacube.numa.base.NumacubeException e) {
            return e.getMessage();
        }
    }

    @ParameterizedTest
    @MethodSource("queries")
    void answersAsDuckDb(String sql) throws Exception {
        QueryResult ours = cube.query(sql);
        List<Object[]> theirs = duck.query(sql);
        boolean[] exact = new boolean[ours.columnCount()];
        ResultComparator.assertSame(sql, ours, theirs, 0, exact, sql.contains("ORDER BY"), 1e-9);
    }
}
