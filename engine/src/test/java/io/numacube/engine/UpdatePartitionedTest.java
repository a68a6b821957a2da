package io.numacube.engine;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.Partitioning;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * UPDATEs of a table partitioned by a dimension: rows moved to another partition's value or a new value, numbers and
 * dates moved far outside their morsels' ranges, text to NULL; filters that skip partitions and morsels answer as
 * DuckDB does after the same UPDATEs.
 */
class UpdatePartitionedTest {

    private static DuckDb duck;
    private static Cube cube;

    @BeforeAll
    static void load() throws Exception {
        duck = new DuckDb();
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(512)
                .withPartitioning(Partitioning.byDimension("desk", 4)));
        TableStaging t = new TableStaging(TableSchema.parse("t", "desk:string,v:long,day:date,x:double,n:int"));
        for (int r = 0; r < 50_000; r++) {
            t.setString(0, "D" + (r % 6));
            t.setLong(1, r);
            t.setDate(2, 18_000 + r / 100);
            t.setDouble(3, r * 0.25);
            t.setLong(4, r % 1000);
            t.endRow();
        }
        cube.loadTable(t);
        duck.load(t);
        for (String sql : List.of(
                "UPDATE t SET desk = 'D0' WHERE v % 7 = 1",
                "UPDATE t SET desk = 'ZZ', v = v + 1000000000 WHERE v % 11 = 2",
                "UPDATE t SET day = DATE '2100-01-01', x = -x WHERE v % 13 = 3",
                "UPDATE t SET n = n + 5000 WHERE desk = 'D5' AND v < 2000",
                "UPDATE t SET desk = NULL WHERE v % 17 = 4")) {
            cube.update(sql);
            duck.execute(sql);
        }
    }

    @AfterAll
    static void close() throws Exception {
        cube.close();
        duck.close();
    }

    static List<String> queries() {
        return List.of(
                "SELECT desk, COUNT(*), SUM(v), SUM(x), MIN(day), MAX(day) FROM t GROUP BY desk ORDER BY desk",
                "SELECT COUNT(*), SUM(v) FROM t WHERE desk = 'D0'",
                "SELECT COUNT(*), SUM(v) FROM t WHERE desk = 'ZZ'",
                "SELECT COUNT(*), SUM(v) FROM t WHERE desk IS NULL",
                "SELECT COUNT(*), SUM(v) FROM t WHERE v > 999999999",
                "SELECT COUNT(*), SUM(v) FROM t WHERE v BETWEEN 100 AND 300",
                "SELECT COUNT(*), SUM(x) FROM t WHERE day >= DATE '2099-01-01'",
                "SELECT COUNT(*), SUM(x) FROM t WHERE x < 0",
                "SELECT n, COUNT(*) FROM t WHERE n >= 5000 GROUP BY n ORDER BY n LIMIT 20",
                "SELECT COUNT(*) FROM t WHERE n > 999");
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
