package io.numacube.engine;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * In one atomic write (a transaction block at COMMIT), a DELETE's or UPDATE's subquery reads the tables as the writes
 * before it left them, as PostgreSQL and DuckDB run a block's statements in turn: the same rows as DuckDB's transaction.
 */
class BlockWritesSeeEarlierOnesTest {

    private static final TableSchema T = TableSchema.parse("t", "k:long,v:long");
    private static final TableSchema U = TableSchema.parse("u", "k:long");

    @Test
    void aDeleteAndAnUpdateSeeTheRowsAppendedAndDeletedBeforeThem() throws Exception {
        try (Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1));
                DuckDb duck = new DuckDb()) {
            cube.loadTable(rows(T, 1, 2, 3, 4, 5, 6));
            cube.loadTable(rows(U, 1));
            duck.load(rows(T, 1, 2, 3, 4, 5, 6));
            duck.load(rows(U, 1));
            String delete = "DELETE FROM t WHERE k IN (SELECT k FROM u)";
            String deleteU = "DELETE FROM u WHERE k = 1";
            String update = "UPDATE t SET v = v + 100 WHERE k > (SELECT MAX(k) FROM u)";
            cube.write(List.of(
                    new TableBatch("u", rows(U, 2, 3)),
                    new TableDelete(delete),
                    new TableDelete(deleteU),
                    new TableUpdate(update)));
            duck.execute("BEGIN");
            duck.execute("INSERT INTO u VALUES (2), (3)");
            duck.execute(delete);
            duck.execute(deleteU);
            duck.execute(update);
            duck.execute("COMMIT");
            for (String q : List.of("SELECT k, v FROM t ORDER BY k", "SELECT k FROM u ORDER BY k")) {
                QueryResult ours = cube.query(q);
                ResultComparator.assertSame(q, ours, duck.query(q), 0, new boolean[ours.columnCount()], true, 0);
            }
        }
    }

    private static TableStaging rows(TableSchema schema, long... keys) {
        TableStaging st = new TableStaging(schema);
        for (long k : keys) {
            st.setLong(0, k);
            if (schema.size() > 1) {
                st.setLong(1, 10 * k);
            }
            st.endRow();
        }
        return st;
    }
}
