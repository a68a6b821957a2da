package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * Plain BIGINT columns (more distinct values than a load codes) coded at query time two ways: through their range
 * when the values are dense (a bitmap, no sort, no hash table: {@code dense}, with negatives, gaps, repeats and NULLs)
 * and through a hash table when they are sparse ({@code sparse}); grouped, counted and joined on, as DuckDB answers.
 */
class PlainKeyCodingTest {

    private static final TableSchema T = new TableSchema(
            "t",
            List.of(
                    ColumnSpec.of("dense", ColumnType.LONG),
                    ColumnSpec.of("sparse", ColumnType.LONG),
                    ColumnSpec.of("v", ColumnType.DOUBLE)));
    private static final TableSchema D = new TableSchema(
            "d", List.of(ColumnSpec.of("dense", ColumnType.LONG), ColumnSpec.of("name", ColumnType.STRING)));

    @Test
    void denseAndSparseKeysAnswerAsDuckDb() throws Exception {
        Random rnd = new Random(5);
        List<Object[]> rows = new ArrayList<>();
        for (int r = 0; r < 100_000; r++) {
            Long dense = r % 13 == 0 ? null : (long) (rnd.nextInt(300_000) - 100_000);
            Long sparse = r % 17 == 0 ? null : rnd.nextLong() / 1000;
            rows.add(new Object[] {dense, sparse, (double) (r % 91)});
        }
        List<Object[]> dims = new ArrayList<>();
        for (long k = -100_000; k < 200_000; k += 3) {
            dims.add(new Object[] {k, "n" + (k % 11)});
        }
        try (DuckDb duck = new DuckDb();
                Cube cube = Cube.open(CubeOptions.defaults()
                        .withSimulatedNodes(2)
                        .withThreadsPerNode(1)
                        .withMorselRows(4096))) {
            cube.loadTable(CubeAppendTest.stage(T, rows));
            cube.loadTable(CubeAppendTest.stage(D, dims));
            duck.load(T, rows);
            duck.load(D, dims);
            assertTrue(
                    cube.schema("t").column(0).type() == ColumnType.LONG,
                    "the column stays plain: coded at query time");
            for (String sql : List.of(
                    "SELECT dense, COUNT(*), SUM(v) FROM t GROUP BY dense ORDER BY COUNT(*) DESC, dense NULLS FIRST"
                            + " LIMIT 40",
                    "SELECT COUNT(DISTINCT dense), COUNT(DISTINCT sparse), COUNT(*) FROM t",
                    "SELECT sparse, SUM(v) FROM t GROUP BY sparse ORDER BY sparse NULLS FIRST LIMIT 20",
                    "SELECT dense, v FROM t WHERE dense BETWEEN -5 AND 5 ORDER BY dense, v LIMIT 30",
                    "SELECT d.name, COUNT(*), SUM(t.v) FROM t JOIN d ON t.dense = d.dense GROUP BY d.name"
                            + " ORDER BY d.name")) {
                QueryResult ours = cube.query(sql);
                ResultComparator.assertSame(sql, ours, duck.query(sql), 0, new boolean[ours.columnCount()], true, 1e-9);
            }
        }
    }
}
