package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SQL NULL in every column type, answered as DuckDB answers: aggregates skip NULLs, COUNT(x) counts values, NULL is
 * its own group and sorts last, comparisons with NULL are not TRUE (in WHERE, under NOT, in AND/OR), IS [NOT] NULL,
 * a NULL join key matches nothing and a NULL lookup attribute makes a product NULL. One table of 20,000 rows with about
 * a quarter NULLs per column, whole 512-row morsels without NULLs in some columns (so the null-free kernels and the
 * null-aware ones both run in one query), and a lookup table with a NULL key and NULL attributes; every query is
 * compared with DuckDB on the very staged values.
 */
class NullSemanticsTest {

    private static final int ROWS = 20_000;
    private static DuckDb duck;
    private static Cube cube;

    @BeforeAll
    static void load() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(512));
        TableStaging fact = fact(new Random(42));
        TableStaging lookup = lookup();
        cube.loadTable(fact);
        cube.loadTable(lookup);
        duck.load(fact);
        duck.load(lookup);
    }

    @AfterAll
    static void close() throws Exception {
        cube.close();
        duck.close();
    }

    private static TableStaging fact(Random rnd) {
        TableSchema schema = new TableSchema(
                "t",
                List.of(
                        ColumnSpec.of("s", ColumnType.STRING),
                        ColumnSpec.of("k", ColumnType.INT),
                        ColumnSpec.of("d", ColumnType.DATE),
                        ColumnSpec.of("x", ColumnType.DOUBLE),
                        ColumnSpec.of("v", ColumnType.LONG),
                        ColumnSpec.of("w", ColumnType.LONG)));
        TableStaging st = new TableStaging(schema);
        for (int r = 0; r < ROWS; r++) {
            // rows 4096..8191 hold no NULL in x and v: whole morsels take the null-free kernels
            boolean clean = r >= 4096 && r < 8192;
            setOrNull(st, rnd, 0, false, () -> st.setString(0, "s" + rnd.nextInt(5)));
            setOrNull(st, rnd, 1, false, () -> st.setLong(1, rnd.nextInt(7) - 3));
            setOrNull(st, rnd, 2, false, () -> st.setDate(2, 19_000 + rnd.nextInt(30)));
            setOrNull(st, rnd, 3, clean, () -> st.setDouble(3, (rnd.nextInt(2001) - 1000) / 8.0));
            setOrNull(st, rnd, 4, clean, () -> st.setLong(4, rnd.nextInt(2001) - 1000));
            st.setLong(5, rnd.nextInt(100));
            st.endRow();
        }
        return st;
    }

    private static void setOrNull(TableStaging st, Random rnd, int column, boolean never, Runnable set) {
        if (!never && rnd.nextInt(4) == 0) {
            st.setNull(column);
        } else {
            set.run();
        }
    }

    /** Keys s0..s3 and NULL; s4 has no row; s2's rate and label are NULL. */
    private static TableStaging lookup() {
        TableStaging st = new TableStaging(new TableSchema(
                "l",
                List.of(
                        ColumnSpec.of("s", ColumnType.STRING),
                        ColumnSpec.of("rate", ColumnType.DOUBLE),
                        ColumnSpec.of("label", ColumnType.STRING))));
        Object[][] rows = {{"s0", 1.5, "a"}, {"s1", -2.0, "b"}, {"s2", null, null}, {"s3", 0.5, "a"}, {null, 9.0, "z"}};
        for (Object[] row : rows) {
            if (row[0] == null) {
                st.setNull(0);
            } else {
                st.setString(0, (String) row[0]);
            }
            if (row[1] == null) {
                st.setNull(1);
            } else {
                st.setDouble(1, (Double) row[1]);
            }
            if (row[2] == null) {
                st.setNull(2);
            } else {
                st.setString(2, (String) row[2]);
            }
            st.endRow();
        }
        return st;
    }

    static List<String> queries() {
        return List.of(
                "SELECT COUNT(*), COUNT(x), COUNT(v), COUNT(s), COUNT(k), COUNT(d) FROM t",
                "SELECT SUM(x), SUM(v), MIN(x), MAX(x), MIN(v), MAX(v), AVG(x), AVG(v) FROM t",
                "SELECT s, COUNT(*), COUNT(x), SUM(x), SUM(v), AVG(v), MIN(x), MAX(v) FROM t GROUP BY s ORDER BY s",
                "SELECT k, d, COUNT(*), SUM(v) FROM t GROUP BY k, d ORDER BY k, d",
                "SELECT s, k, SUM(x + v), COUNT(x * v), MIN(v - w), MAX(x * 2) FROM t GROUP BY s, k ORDER BY s, k",
                "SELECT MIN(s), MAX(s), MIN(k), MAX(k), MIN(d), MAX(d) FROM t",
                "SELECT s, MIN(k), MAX(d) FROM t GROUP BY s ORDER BY s",
                "SELECT COUNT(*) FROM t WHERE x > 0",
                "SELECT COUNT(*) FROM t WHERE NOT (x > 0)",
                "SELECT COUNT(*) FROM t WHERE x IS NULL",
                "SELECT COUNT(*) FROM t WHERE x IS NOT NULL AND v IS NULL",
                "SELECT COUNT(*), SUM(w) FROM t WHERE NOT (x > 0 OR v < 0)",
                "SELECT COUNT(*), SUM(w) FROM t WHERE NOT (x > 0 AND v < 0)",
                "SELECT COUNT(*) FROM t WHERE x > 0 OR v IS NULL",
                "SELECT COUNT(*) FROM t WHERE v IN (1, 2, 3, -5)",
                "SELECT COUNT(*) FROM t WHERE v NOT IN (1, 2, 3, -5)",
                "SELECT COUNT(*) FROM t WHERE NOT (v NOT IN (1, 2, 3, -5))",
                "SELECT COUNT(*) FROM t WHERE x BETWEEN -10 AND 10",
                "SELECT COUNT(*) FROM t WHERE x NOT BETWEEN -10 AND 10",
                "SELECT COUNT(*) FROM t WHERE x + v > w",
                "SELECT COUNT(*) FROM t WHERE NOT (x + v > w)",
                "SELECT s, COUNT(*) FROM t WHERE s <> 's1' GROUP BY s ORDER BY s",
                "SELECT s, COUNT(*) FROM t WHERE NOT (s = 's1') GROUP BY s ORDER BY s",
                "SELECT s, COUNT(*) FROM t WHERE s IS NULL OR k IS NULL GROUP BY s ORDER BY s",
                "SELECT k, COUNT(*) FROM t WHERE k NOT IN (1, 2) GROUP BY k ORDER BY k",
                "SELECT COUNT(*) FROM t WHERE s = 's1' AND x > 0 OR k < 0 AND v IS NOT NULL",
                "SELECT COUNT(*) FROM t WHERE NOT (s = 's1' AND x > 0 OR k < 0 AND v > 0)",
                "SELECT s, SUM(x) FROM t GROUP BY s ORDER BY s DESC",
                "SELECT s, SUM(x) FROM t GROUP BY s ORDER BY s NULLS FIRST",
                "SELECT k, SUM(v) AS sv FROM t GROUP BY k ORDER BY sv DESC NULLS LAST, k",
                "SELECT k, COUNT(x) FROM t WHERE v > 990 GROUP BY k HAVING SUM(x) IS NULL ORDER BY k",
                "SELECT s, SUM(x) FROM t WHERE d IS NULL GROUP BY s HAVING COUNT(x) > 10 ORDER BY s",
                "SELECT SUM(x), MIN(v), AVG(x), COUNT(x) FROM t WHERE x IS NULL",
                "SELECT s, SUM(x) FROM t WHERE x IS NULL GROUP BY s ORDER BY s",
                "SELECT s, COUNT(*), SUM(x), SUM(x * rate), MIN(x * rate), MAX(x * rate), AVG(x * rate)"
                        + " FROM t JOIN l USING (s) GROUP BY s ORDER BY s",
                "SELECT k, SUM(x * rate), MIN(x * rate), AVG(v / rate) FROM t JOIN l USING (s) WHERE s <> 's2'"
                        + " GROUP BY k ORDER BY k",
                "SELECT t.s, SUM(v * rate), COUNT(rate), COUNT(label) FROM t JOIN l ON t.s = l.s GROUP BY t.s ORDER BY 1",
                "SELECT label, COUNT(*), SUM(x), SUM(x * rate), MIN(x * rate), AVG(x * rate), COUNT(rate)"
                        + " FROM t JOIN l USING (s) GROUP BY label ORDER BY label",
                "SELECT label, k, SUM(v), MAX(d) FROM t JOIN l USING (s) GROUP BY label, k ORDER BY label DESC, k",
                "SELECT l.label, SUM(x) FROM t JOIN l ON t.s = l.s WHERE k > 0 GROUP BY l.label"
                        + " HAVING COUNT(*) > 10 ORDER BY 2 DESC",
                "SELECT k, label, s, COUNT(x) FROM t JOIN l USING (s) GROUP BY k, label, s ORDER BY k, label, s",
                "SELECT COUNT(*) FROM t JOIN l USING (s) WHERE rate > 0",
                "SELECT COUNT(*) FROM t JOIN l USING (s) WHERE NOT (rate > 0)",
                "SELECT COUNT(*) FROM t JOIN l USING (s) WHERE rate IS NULL",
                "SELECT k, SUM(x * rate) FROM t JOIN l USING (s) WHERE label <> 'a' GROUP BY k ORDER BY k",
                "SELECT COUNT(*), SUM(x) FROM t JOIN l USING (s) WHERE x * rate > 1 OR label IS NULL");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void answersAsDuckDb(String sql) throws Exception {
        QueryResult ours = cube.query(sql);
        List<Object[]> theirs = duck.query(sql);
        boolean[] exact = new boolean[ours.columnCount()];
        ResultComparator.assertSame(sql, ours, theirs, 0, exact, sql.contains("ORDER BY"), 1e-9);
    }

    @org.junit.jupiter.api.Test
    void nullsAreReallyThere() {
        assertTrue(cube.query("SELECT COUNT(*) FROM t WHERE x IS NULL").getLong(0, 0) > ROWS / 10);
        assertTrue(cube.query("SELECT COUNT(*) FROM t WHERE s IS NULL").getLong(0, 0) > ROWS / 10);
    }
}
