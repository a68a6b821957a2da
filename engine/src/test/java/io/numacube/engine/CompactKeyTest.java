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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A GROUP BY key of many codes that a join's mask filters to a few (TPC-H Q3's {@code l_orderkey} of the orders that
 * pass) is numbered anew over the passing codes: the plan's key space shrinks to them, and every answer stays DuckDB's
 * (values, order, NULL keys, attributes that depend on the key, keys that do not pass).
 */
class CompactKeyTest {

    private static final int KEYS = 120_000;
    private static DuckDb duck;
    private static Cube cube;

    @BeforeAll
    static void load() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
        Random rnd = new Random(7);
        TableStaging f = new TableStaging(new TableSchema(
                "f", List.of(ColumnSpec.of("k", ColumnType.LONG), ColumnSpec.of("v", ColumnType.LONG))));
        for (int r = 0; r < 300_000; r++) {
            if (rnd.nextInt(500) == 0) {
                f.setNull(0);
            } else {
                f.setLong(0, rnd.nextInt(KEYS));
            }
            f.setLong(1, rnd.nextInt(1000) - 300);
            f.endRow();
        }
        TableStaging d = new TableStaging(new TableSchema(
                "d",
                List.of(
                        ColumnSpec.of("k", ColumnType.LONG),
                        ColumnSpec.of("attr", ColumnType.STRING),
                        ColumnSpec.of("day", ColumnType.DATE))));
        for (int key = 0; key < KEYS; key += 1 + rnd.nextInt(2)) {
            d.setLong(0, key);
            d.setString(1, "a" + rnd.nextInt(10));
            d.setDate(2, 19_000 + rnd.nextInt(400));
            d.endRow();
        }
        for (TableStaging t : List.of(f, d)) {
            cube.loadTable(t);
            duck.load(t);
        }
    }

    @AfterAll
    static void close() throws Exception {
        cube.close();
        duck.close();
    }

    static List<String> queries() {
        return List.of(
                "SELECT f.k, SUM(v), COUNT(*) FROM f JOIN d ON f.k = d.k WHERE attr = 'a3' GROUP BY f.k ORDER BY f.k",
                "SELECT f.k, day, SUM(v) AS s FROM f JOIN d ON f.k = d.k WHERE attr = 'a3' AND day < DATE '2022-03-01'"
                        + " GROUP BY f.k, day ORDER BY s DESC, f.k LIMIT 40",
                "SELECT f.k, attr, COUNT(*) FROM f JOIN d ON f.k = d.k WHERE attr IN ('a1', 'a2') GROUP BY f.k, attr"
                        + " ORDER BY 3 DESC, 1 LIMIT 25",
                "SELECT f.k, MIN(v), MAX(v) FROM f LEFT JOIN d ON f.k = d.k WHERE attr = 'a5'"
                        + " GROUP BY f.k ORDER BY f.k NULLS FIRST LIMIT 100",
                "SELECT f.k, COUNT(*) FROM f LEFT JOIN d ON f.k = d.k WHERE coalesce(attr, 'a5') = 'a5'"
                        + " GROUP BY f.k ORDER BY f.k NULLS FIRST LIMIT 30",
                "SELECT COUNT(*), SUM(s) FROM (SELECT f.k, SUM(v) AS s FROM f JOIN d ON f.k = d.k WHERE attr = 'a9'"
                        + " GROUP BY f.k) t");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void answersLikeDuckDb(String sql) throws Exception {
        QueryResult ours = cube.query(sql);
        ResultComparator.assertSame(
                sql, ours, duck.query(sql), 0, new boolean[ours.columnCount()], sql.contains("ORDER BY"), 1e-9);
    }

    @ParameterizedTest
    @MethodSource("queries")
    void theKeySpaceHoldsThePassingKeysOnly(String sql) {
        if (sql.contains("(SELECT") || sql.contains("coalesce")) {
            return; // an aggregate of a subquery; a mask that passes most keys (those without a row of d)
        }
        String plan = cube.query(sql).stats().plan();
        Matcher m = Pattern.compile("(dense|hashed) (\\d+) groups").matcher(plan);
        assertTrue(m.find(), plan);
        long groups = Long.parseLong(m.group(2));
        assertTrue(groups * 4 <= KEYS, "the key space is not the codes that pass: " + plan);
    }
}
