package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * DELETE and UPDATE whose WHERE holds a correlated subquery of a shape the SELECT path turns into a join (EXISTS, NOT
 * EXISTS, with one comparison more, a comparison with an aggregate): the table after the write is DuckDB's after the
 * same write, over seeded rows with NULL keys and values, keys without partners and keys with several.
 */
class CorrelatedWritesTest {

    private static final TableSchema T = new TableSchema(
            "t",
            List.of(
                    ColumnSpec.of("id", ColumnType.LONG),
                    ColumnSpec.of("k", ColumnType.LONG),
                    ColumnSpec.of("y", ColumnType.LONG),
                    ColumnSpec.of("v", ColumnType.DOUBLE),
                    ColumnSpec.of("s", ColumnType.STRING)));
    private static final TableSchema U =
            new TableSchema("u", List.of(ColumnSpec.of("k", ColumnType.LONG), ColumnSpec.of("x", ColumnType.LONG)));

    @ParameterizedTest
    @ValueSource(
            strings = {
                "DELETE FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.k = t.k)",
                "DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.k = t.k)",
                "DELETE FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.k = t.k AND u.x > 5) AND s <> 's1'",
                "DELETE FROM t WHERE NOT EXISTS (SELECT * FROM u WHERE u.k = t.k AND u.x IS NOT NULL) AND y = 3",
                "DELETE FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.k = t.k AND u.x > t.y)",
                "DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.k = t.k AND u.x <= t.y)",
                "DELETE FROM t WHERE y > (SELECT AVG(x) FROM u WHERE u.k = t.k)",
                "DELETE FROM t WHERE y <= (SELECT MAX(x) FROM u WHERE u.k = t.k AND x < 8)",
                "DELETE FROM t t1 WHERE EXISTS (SELECT 1 FROM t t2 WHERE t2.k = t1.k AND t2.id <> t1.id)",
                "UPDATE t SET v = 0 WHERE EXISTS (SELECT 1 FROM u WHERE u.k = t.k)",
                "UPDATE t SET v = 0 WHERE t.k IN (SELECT k FROM u WHERE u.x > t.y)",
                "DELETE FROM t WHERE k IN (SELECT u.k FROM u WHERE u.k = t.k AND u.x > 5) AND y IN (1, 2, 3)",
                "UPDATE t SET v = v + 1, s = 'none' WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.k = t.k)",
                "UPDATE t SET y = y * 2 WHERE EXISTS (SELECT 1 FROM u WHERE u.k = t.k AND u.x > t.y)",
                "UPDATE t SET v = NULL WHERE y < (SELECT SUM(x) FROM u WHERE u.k = t.k) AND v > 2",
                "DELETE FROM t WHERE y NOT IN (SELECT x FROM u WHERE u.k = t.k)",
                "DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.k = t.k) OR y = 3",
                "UPDATE t SET v = 1 WHERE EXISTS (SELECT 1 FROM u WHERE u.k = t.k AND u.x > 4) OR s = 's1'",
                "UPDATE t SET v = 0 WHERE y NOT IN (SELECT x FROM u WHERE u.k = t.k AND u.x > 3) AND s <> 's2'",
                "UPDATE t SET s = y > 5 WHERE EXISTS (SELECT 1 FROM u WHERE u.k = t.k)",
                "UPDATE t SET y = CAST(v > 2 OR s IS NULL AS BIGINT) WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.k = t.k)",
            })
    void leavesTheTableAsDuckDbDoes(String write) throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            try (DuckDb duck = new DuckDb();
                    Cube cube = Cube.open(CubeOptions.defaults()
                            .withSimulatedNodes(2)
                            .withThreadsPerNode(1)
                            .withMorselRows(512))) {
                load(seed, cube, duck);
                if (write.startsWith("DELETE")) {
                    cube.delete(write);
                } else {
                    cube.update(write);
                }
                duck.execute(write);
                String all = "SELECT id, k, y, v, s FROM t ORDER BY id";
                QueryResult ours = cube.query(all);
                ResultComparator.assertSame(
                        "seed " + seed + ": " + write, ours, duck.query(all), 0, new boolean[5], true, 0);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "DELETE FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.k = t.k + 1)",
                "UPDATE t SET v = 0 WHERE y = (SELECT COUNT(*) FROM u WHERE u.k = t.k)",
                "DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.k = t.k AND u.x > t.y) OR y = 3",
                "DELETE FROM t WHERE k NOT IN (SELECT k FROM u WHERE u.x > t.y)",
            })
    void shapesTheSelectPathRefusesAreRefusedWithTheirPositionAndWriteNothing(String write) throws Exception {
        try (DuckDb duck = new DuckDb();
                Cube cube =
                        Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1))) {
            load(1, cube, duck);
            NumacubeException e = assertThrows(NumacubeException.class, () -> {
                if (write.startsWith("DELETE")) {
                    cube.delete(write);
                } else {
                    cube.update(write);
                }
            });
            assertEquals("0A000", e.code(), e.getMessage());
            assertEquals(1, e.position().orElseThrow().line(), e.getMessage());
            int column = e.position().orElseThrow().column();
            assertTrue(
                    column > write.indexOf(" WHERE ") && column <= write.indexOf("(SELECT") + 2,
                    "the subquery's place in " + write + ": " + e.getMessage());
            assertEquals(2000, cube.query("SELECT COUNT(*) FROM t").getLong(0, 0), "nothing written");
        }
    }

    private static void load(long seed, Cube cube, DuckDb duck) throws Exception {
        Random rnd = new Random(seed);
        List<Object[]> t = new ArrayList<>();
        for (long id = 0; id < 2000; id++) {
            t.add(new Object[] {
                id,
                rnd.nextInt(30) == 0 ? null : (long) rnd.nextInt(60),
                rnd.nextInt(25) == 0 ? null : (long) rnd.nextInt(12),
                rnd.nextInt(20) == 0 ? null : rnd.nextInt(800) / 8.0,
                rnd.nextInt(15) == 0 ? null : "s" + rnd.nextInt(4)
            });
        }
        List<Object[]> u = new ArrayList<>();
        for (int i = 0; i < 90; i++) {
            u.add(new Object[] {
                rnd.nextInt(20) == 0 ? null : (long) rnd.nextInt(45),
                rnd.nextInt(10) == 0 ? null : (long) rnd.nextInt(12)
            });
        }
        cube.loadTable(CubeAppendTest.stage(T, t));
        cube.loadTable(CubeAppendTest.stage(U, u));
        duck.load(T, t);
        duck.load(U, u);
    }
}
