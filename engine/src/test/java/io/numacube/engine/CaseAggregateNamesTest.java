package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An aggregate of a CASE over two columns is computed through FILTERs and counts ({@code sql.CaseAggregates}), but its
 * column is named as written, as DuckDB names it: it was named after the rewrite ({@code CASE WHEN count(v) FILTER
 * (WHERE k = 'x') + (count_star() - ...) <> 0 THEN coalesce(sum(v) FILTER (WHERE k = 'x'), 0) END}), the engine's plan
 * showing through to a client that reads columns by name.
 */
class CaseAggregateNamesTest {

    @Test
    void anAggregateOfACaseIsNamedAsWritten() throws Exception {
        TableSchema t = new TableSchema(
                "t", List.of(ColumnSpec.of("k", ColumnType.STRING), ColumnSpec.of("v", ColumnType.LONG)));
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            rows.add(new Object[] {i % 3 == 0 ? "x" : "y", (long) i});
        }
        TableStaging staging = CubeAppendTest.stage(t, rows);
        try (Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(1).withThreadsPerNode(1))) {
            cube.loadTable(staging);
            QueryResult r = cube.query("SELECT SUM(CASE WHEN k = 'x' THEN v ELSE 0 END), SUM(CASE WHEN k = 'x' THEN v"
                    + " END), SUM(CASE WHEN k = 'x' THEN v ELSE 0 END) + 1 AS plus, MAX(v) FROM t");
            assertEquals(
                    List.of(
                            "sum(CASE WHEN k = 'x' THEN v ELSE 0 END)",
                            "sum(CASE WHEN k = 'x' THEN v END)",
                            "plus",
                            "max(v)"),
                    r.columnNames());
            assertEquals(18L, r.getLong(0, 0));
            assertEquals(18L, r.getLong(0, 1));
        }
    }
}
