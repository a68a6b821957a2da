package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An append whose new values grow a dictionary past its code width (256 values of one byte, 65,536 of two) in one
 * batch, after a load placed partitions too large to be merged: the placed rows are rewritten at the wider codes, and
 * every query answers as DuckDB does over all the rows (it failed with "partition code width differs from its
 * dictionary" before). Deleted rows of the rewritten partitions stay deleted.
 */
class CodeWidthGrowthTest {

    private static final TableSchema T = new TableSchema(
            "t",
            List.of(
                    ColumnSpec.of("day", ColumnType.DATE),
                    ColumnSpec.of("name", ColumnType.STRING),
                    ColumnSpec.of("id", ColumnType.INT),
                    ColumnSpec.of("v", ColumnType.DOUBLE)));

    private static final List<String> QUERIES = List.of(
            "SELECT day, COUNT(*), SUM(v) FROM t GROUP BY day ORDER BY day",
            "SELECT name, COUNT(*), MIN(day), MAX(id) FROM t GROUP BY name ORDER BY name",
            "SELECT COUNT(DISTINCT day), COUNT(DISTINCT name), COUNT(DISTINCT id), COUNT(*), SUM(v) FROM t",
            "SELECT id, v FROM t WHERE day >= DATE '2030-01-01' OR id >= 65530 ORDER BY id LIMIT 50",
            "SELECT MIN(name), MAX(name), MIN(day), MAX(day), MIN(id), MAX(id) FROM t WHERE v > 10");

    @Test
    void anAppendPastACodeWidthRewritesThePlacedRowsAndAnswersAsDuckDb() throws Exception {
        List<Object[]> rows = new ArrayList<>();
        for (int r = 0; r < 65_500; r++) {
            rows.add(new Object[] {19_000L + r % 250, "n" + (r % 250), (long) r, (double) (r % 97)});
        }
        List<Object[]> batch = new ArrayList<>();
        for (int r = 0; r < 120; r++) {
            batch.add(new Object[] {21_915L + r % 40, "m" + (r % 40), 65_500L + r, (double) r});
        }
        try (DuckDb duck = new DuckDb();
                Cube cube = Cube.open(CubeOptions.defaults()
                        .withSimulatedNodes(2)
                        .withThreadsPerNode(1)
                        .withMorselRows(4096))) {
            cube.loadTable(CubeAppendTest.stage(T, rows));
            cube.write(List.of(new TableDelete("DELETE FROM t WHERE id < 100")));
            assertEquals(3, cube.append("t", CubeAppendTest.stage(T, batch)));
            List<Object[]> all = new ArrayList<>(rows.subList(100, rows.size()));
            all.addAll(batch);
            duck.load(T, all);
            for (String sql : QUERIES) {
                QueryResult ours = cube.query(sql);
                ResultComparator.assertSame(sql, ours, duck.query(sql), 0, new boolean[ours.columnCount()], true, 1e-9);
            }
        }
    }
}
