package io.numacube.engine;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The finish of groupings of many result rows, as DuckDB answers, with each of its shortcuts on and off in turn: a full
 * ORDER BY of text and number keys (with NULLs, descending, NULLS FIRST) read from ranks, COUNT(DISTINCT) rolled up
 * into 90,000 rows, output expressions over more than 65,536 rows evaluated by ranges on the workers (NULLs among
 * them), and a GROUP BY key compacted to the codes a join's mask passes with a joined attribute depending on it.
 */
class ManyRowsFinishTest {

    private static final TableSchema T = new TableSchema(
            "t",
            List.of(
                    ColumnSpec.of("k", ColumnType.LONG),
                    ColumnSpec.of("name", ColumnType.STRING),
                    ColumnSpec.of("s", ColumnType.INT),
                    ColumnSpec.of("v", ColumnType.DOUBLE)));
    private static final TableSchema D = new TableSchema(
            "d",
            List.of(
                    ColumnSpec.of("k", ColumnType.LONG),
                    ColumnSpec.of("flag", ColumnType.STRING),
                    ColumnSpec.of("city", ColumnType.STRING)));

    private static final List<String> QUERIES = List.of(
            "SELECT k, COUNT(v) + 1 AS c, CASE WHEN SUM(v) > 150 THEN NULL ELSE SUM(v) * 2 END AS x FROM t GROUP BY k"
                    + " ORDER BY k",
            "SELECT name, COUNT(DISTINCT s) AS n, COUNT(*) AS c FROM t GROUP BY name"
                    + " ORDER BY n DESC, name DESC NULLS FIRST",
            "SELECT s % 7 AS m, name, SUM(v) AS total FROM t GROUP BY s % 7, name ORDER BY name NULLS FIRST, m DESC",
            "SELECT t.k, d.city, SUM(t.v) AS total FROM t JOIN d ON t.k = d.k WHERE d.flag = 'y'"
                    + " GROUP BY t.k, d.city ORDER BY d.city DESC, t.k");

    private static final List<String> SWITCHES = List.of(
            "numacube.rankedSort", "numacube.presizeDistinct", "numacube.parallelOutput", "numacube.keptDependencies");

    @Test
    void answersAsDuckDbWithEachShortcutOnAndOff() throws Exception {
        Random rnd = new Random(27);
        List<Object[]> rows = new ArrayList<>();
        for (int r = 0; r < 300_000; r++) {
            long k = rnd.nextInt(100_000);
            String name = r % 29 == 0 ? null : "n" + rnd.nextInt(90_000) + (rnd.nextInt(50) == 0 ? "\uD83D\uDE00" : "");
            rows.add(new Object[] {k, name, (long) rnd.nextInt(40), r % 23 == 0 ? null : (double) rnd.nextInt(100)});
        }
        List<Object[]> dims = new ArrayList<>();
        for (long k = 0; k < 100_000; k++) {
            dims.add(new Object[] {k, k % 9 == 0 ? "y" : "n", "c" + (k % 1000)});
        }
        try (DuckDb duck = new DuckDb();
                Cube cube = Cube.open(CubeOptions.defaults()
                        .withSimulatedNodes(2)
                        .withThreadsPerNode(1)
                        .withMorselRows(16_384))) {
            cube.loadTable(CubeAppendTest.stage(T, rows));
            cube.loadTable(CubeAppendTest.stage(D, dims));
            duck.load(T, rows);
            duck.load(D, dims);
            for (String sql : QUERIES) {
                var expected = duck.query(sql);
                for (String property : SWITCHES) {
                    for (String on : List.of("false", "true")) {
                        System.setProperty(property, on);
                        try {
                            QueryResult ours = cube.query(sql);
                            ResultComparator.assertSame(
                                    sql + " with " + property + "=" + on,
                                    ours,
                                    expected,
                                    0,
                                    new boolean[ours.columnCount()],
                                    true,
                                    1e-9);
                        } finally {
                            System.clearProperty(property);
                        }
                    }
                }
            }
        }
    }
}
