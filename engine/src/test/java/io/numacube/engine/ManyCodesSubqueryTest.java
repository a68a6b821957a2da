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
 * TPC-H Q21's and Q4's shapes over more than 65,536 order keys, as DuckDB answers, with each shortcut they take on
 * and off in turn: the plainest GROUP BY's rows read by ranges on the workers, a subquery's small table read through
 * its joined row instead of a table per order-key code (NULL minimums and maximums among them), a key compacted to
 * the codes a mask passes by ranges, and a projection's scan and output by ranges.
 */
class ManyCodesSubqueryTest {

    private static final TableSchema L = new TableSchema(
            "l",
            List.of(
                    ColumnSpec.of("l_orderkey", ColumnType.LONG),
                    ColumnSpec.of("l_suppkey", ColumnType.LONG),
                    ColumnSpec.of("l_commit", ColumnType.INT),
                    ColumnSpec.of("l_receipt", ColumnType.INT)));
    private static final TableSchema O = new TableSchema(
            "o",
            List.of(
                    ColumnSpec.of("o_orderkey", ColumnType.LONG),
                    ColumnSpec.of("o_status", ColumnType.STRING),
                    ColumnSpec.of("o_date", ColumnType.INT)));

    private static final List<String> QUERIES = List.of(
            "SELECT l1.l_suppkey, COUNT(*) AS numwait FROM l l1 JOIN o ON o.o_orderkey = l1.l_orderkey"
                    + " WHERE o.o_status = 'F' AND l1.l_receipt > l1.l_commit AND l1.l_suppkey < 4"
                    + " AND o.o_date < 500"
                    + " AND EXISTS (SELECT * FROM l l2 WHERE l2.l_orderkey = l1.l_orderkey"
                    + " AND l2.l_suppkey <> l1.l_suppkey)"
                    + " AND NOT EXISTS (SELECT * FROM l l3 WHERE l3.l_orderkey = l1.l_orderkey"
                    + " AND l3.l_suppkey <> l1.l_suppkey AND l3.l_receipt > l3.l_commit)"
                    + " GROUP BY l1.l_suppkey ORDER BY numwait DESC, l1.l_suppkey",
            "SELECT o_status, COUNT(*) AS c FROM o WHERE o_date >= 100 AND o_date < 400"
                    + " AND EXISTS (SELECT * FROM l WHERE l_orderkey = o_orderkey AND l_commit < l_receipt)"
                    + " GROUP BY o_status ORDER BY o_status",
            "SELECT l_orderkey, COUNT(*) AS c FROM l GROUP BY l_orderkey HAVING COUNT(*) > 4 ORDER BY l_orderkey",
            "SELECT DISTINCT l_orderkey FROM l WHERE l_commit < 300 ORDER BY l_orderkey",
            "SELECT l_orderkey, MIN(l_suppkey) AS lo, MAX(l_suppkey) AS hi, COUNT(*) AS c FROM l"
                    + " WHERE l_orderkey IN (SELECT o_orderkey FROM o WHERE o_date < 40) GROUP BY l_orderkey"
                    + " ORDER BY l_orderkey",
            "SELECT o_orderkey, o_date FROM o WHERE o_date < 300 AND o_status <> 'P' ORDER BY o_orderkey",
            "SELECT l_orderkey, l_suppkey, o_date FROM l JOIN o ON o_orderkey = l_orderkey"
                    + " WHERE o_date < 100 AND l_suppkey + o_date > 50 ORDER BY l_orderkey, l_suppkey, o_date");

    private static final List<String> SWITCHES = List.of(
            "numacube.parallelDirectFinish",
            "numacube.lookupByRow",
            "numacube.parallelCompact",
            "numacube.parallelProjection");

    @Test
    void answersAsDuckDbWithEachShortcutOnAndOff() throws Exception {
        Random rnd = new Random(21);
        List<Object[]> orders = new ArrayList<>();
        List<Object[]> lines = new ArrayList<>();
        for (long k = 0; k < 100_000; k++) {
            long key = 3 * k + 1;
            orders.add(new Object[] {key, k % 3 == 0 ? "O" : k % 7 == 0 ? "P" : "F", (long) rnd.nextInt(2_000)});
            int n = 1 + rnd.nextInt(6);
            for (int i = 0; i < n; i++) {
                Long supp = rnd.nextInt(50) == 0 ? null : (long) rnd.nextInt(12);
                long commit = rnd.nextInt(1_000);
                lines.add(new Object[] {key, supp, commit, commit + rnd.nextInt(60) - 30});
            }
        }
        try (DuckDb duck = new DuckDb();
                Cube cube = Cube.open(CubeOptions.defaults()
                        .withSimulatedNodes(2)
                        .withThreadsPerNode(1)
                        .withMorselRows(16_384))) {
            cube.loadTable(CubeAppendTest.stage(L, lines));
            cube.loadTable(CubeAppendTest.stage(O, orders));
            duck.load(L, lines);
            duck.load(O, orders);
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
