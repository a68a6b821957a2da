package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import io.numacube.numa.base.NumacubeException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Arithmetic of constants and one dimension column ({@code 1.00 - l_discount}) is computed once per value of the
 * column and gathered per row: these check the answers equal DuckDB's for integer and DECIMAL dimensions with NULLs,
 * nested in row-by-row products and sums, and that a value whose arithmetic overflows only fails a query whose rows
 * reach it (a filtered-out row's value never raises the overflow; a reached one does, SQLSTATE 22003).
 */
class FoldedExpressionTest {

    private static final long HUGE = 3_000_000_000_000_000_000L;

    private static DuckDb duck;
    private static Cube cube;

    @BeforeAll
    static void open() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(1_000));
        TableStaging t = table(new Random(11));
        cube.loadTable(t);
        duck.load(t);
    }

    @AfterAll
    static void close() throws Exception {
        cube.close();
        duck.close();
    }

    @Test
    void foldedArithmeticEqualsDuckDb() throws Exception {
        compare("SELECT g, SUM(v * (1 - d)), SUM(-d + 3), AVG(d * 2 - 1), COUNT(d * 3) FROM t WHERE d < 1000"
                + " GROUP BY g ORDER BY g");
        compare("SELECT g, SUM(m * (1 - m)), SUM(v * (1.00 - m) * (1.00 + m)), MIN(-m), MAX(m * 2.5)"
                + " FROM t GROUP BY g ORDER BY g");
        compare("SELECT d * 2 - 1 AS k, COUNT(*), SUM(v) FROM t WHERE d < 1000 GROUP BY k ORDER BY k");
        compare("SELECT SUM(v * (1.00 - m)) FROM t WHERE (m + 0.01) * 100 > 5");
    }

    @Test
    void anOverflowOnlyFailsAQueryWhoseRowsReachIt() throws Exception {
        compare("SELECT SUM(v * (d * 4)) FROM t WHERE d < 1000");
        NumacubeException e = assertThrows(NumacubeException.class, () -> cube.query("SELECT SUM(d * 4) FROM t"));
        assertEquals("22003", e.code(), e.getMessage());
    }

    private static void compare(String sql) throws Exception {
        QueryResult ours = cube.query(sql);
        List<Object[]> theirs = duck.query(sql);
        ResultComparator.assertSame(
                sql, ours, theirs, 0, new boolean[ours.columnCount()], sql.contains("ORDER BY"), 1e-9);
    }

    /**
     * 5,000 rows: a group, an INT dimension of 40 values (some NULL, a few HUGE), a DECIMAL(15,2) of 11 values 0.00 to
     * 0.10 (some NULL) and a BIGINT value.
     */
    private static TableStaging table(Random rnd) {
        TableStaging st = new TableStaging(new TableSchema(
                "t",
                List.of(
                        ColumnSpec.of("g", ColumnType.STRING),
                        ColumnSpec.of("d", ColumnType.INT),
                        ColumnSpec.decimal("m", 15, 2),
                        ColumnSpec.of("v", ColumnType.LONG))));
        for (int r = 0; r < 5_000; r++) {
            st.setString(0, "g" + rnd.nextInt(4));
            int pick = rnd.nextInt(100);
            if (pick == 0) {
                st.setNull(1);
            } else if (pick == 1) {
                st.setLong(1, HUGE);
            } else {
                st.setLong(1, rnd.nextInt(40) - 10);
            }
            if (rnd.nextInt(30) == 0) {
                st.setNull(2);
            } else {
                st.setLong(2, rnd.nextInt(11));
            }
            st.setLong(3, rnd.nextInt(1_000) - 200);
            st.endRow();
        }
        return st;
    }
}
