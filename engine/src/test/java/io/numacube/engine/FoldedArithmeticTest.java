package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import io.numacube.numa.base.NumacubeException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Arithmetic of constants and one dimension column (folded per code): NULLs, negation, DOUBLE constants, filters
 * and keys, answered as DuckDB answers them; an overflow is an error, never a wrapped sum.
 */
class FoldedArithmeticTest {

    private static DuckDb duck;
    private static Cube cube;

    @BeforeAll
    static void load() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(512));
        TableStaging t = new TableStaging(TableSchema.parse("t", "x:int,k:string,v:long,d:double"));
        for (int r = 0; r < 20_000; r++) {
            if (r % 13 == 0) {
                t.setNull(0);
            } else {
                t.setLong(0, (r % 301) - 150);
            }
            t.setString(1, "k" + (r % 5));
            t.setLong(2, r);
            t.setDouble(3, r * 0.5);
            t.endRow();
        }
        cube.loadTable(t);
        duck.load(t);
    }

    @AfterAll
    static void close() throws Exception {
        cube.close();
        duck.close();
    }

    static List<String> queries() {
        return List.of(
                "SELECT SUM(x + 1), COUNT(x + 1), SUM(-x), MIN(x * 3 - 7), MAX(2 - x) FROM t",
                "SELECT k, SUM(x * 3000000000), SUM(x * 2.5E0), AVG(x + 0.5E0) FROM t GROUP BY k ORDER BY k",
                "SELECT k, COUNT(*), SUM(v) FROM t WHERE x * 2 + 1 > 101 GROUP BY k ORDER BY k",
                "SELECT x * 2 AS y, COUNT(*) FROM t GROUP BY x * 2 ORDER BY y NULLS FIRST LIMIT 10",
                "SELECT SUM(x + v), SUM(x * d) FROM t",
                "SELECT SUM(-(x - 1) * -(x + 1)) FROM t",
                "SELECT COUNT(*) FROM t WHERE x + 1 IS NULL");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void answersAsDuckDb(String sql) throws Exception {
        QueryResult ours = cube.query(sql);
        List<Object[]> theirs = duck.query(sql);
        boolean[] exact = new boolean[ours.columnCount()];
        ResultComparator.assertSame(sql, ours, theirs, 0, exact, sql.contains("ORDER BY"), 1e-9);
    }

    @Test
    void refusesAnOverflowingProductInsteadOfWrappingIt() {
        assertThrows(NumacubeException.class, () -> cube.query("SELECT SUM(x * 4611686018427387904) FROM t"));
        assertThrows(
                NumacubeException.class, () -> cube.query("SELECT k, SUM(x * 461168601842738790) FROM t GROUP BY k"));
    }
}
