package io.numacube.engine.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.result.QueryResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Query-time coding of plain columns: once per column, shared by concurrent queries, counted in the cube's bytes. */
class CodedColumnsTest {

    private static final String[] QUERIES = {
        "SELECT trade_id % 7 AS m, COUNT(*), SUM(pnl) FROM trades GROUP BY m ORDER BY m",
        "SELECT COUNT(DISTINCT pnl), COUNT(DISTINCT notional) FROM trades",
        "SELECT desk, SUM(abs(pnl)) FROM trades GROUP BY desk ORDER BY desk",
        "SELECT COUNT(*) FROM (SELECT trade_id FROM trades GROUP BY trade_id) s"
    };

    @Test
    void concurrentQueriesThatCodeColumnsAgreeWithSerialOnes() throws Exception {
        List<String> serial = new ArrayList<>();
        try (Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2))) {
            cube.generateTrades(200_000, 3, ProgressListener.NONE);
            for (String q : QUERIES) {
                serial.add(text(cube.query(q)));
            }
        }
        try (Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2));
                ExecutorService pool = Executors.newFixedThreadPool(4)) {
            cube.generateTrades(200_000, 3, ProgressListener.NONE);
            long before = cube.nativeBytes();
            List<Future<String>> answers = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                for (String q : QUERIES) {
                    answers.add(pool.submit(() -> text(cube.query(q))));
                }
            }
            for (int i = 0; i < answers.size(); i++) {
                assertEquals(serial.get(i % QUERIES.length), answers.get(i).get(), QUERIES[i % QUERIES.length]);
            }
            assertTrue(
                    cube.nativeBytes() >= before + 200_000L * 4,
                    "coded trade_id, pnl and notional are counted: before=" + before + " after=" + cube.nativeBytes());
        }
    }

    private static String text(QueryResult r) {
        StringBuilder sb = new StringBuilder();
        for (int row = 0; row < r.rowCount(); row++) {
            for (int c = 0; c < r.columnCount(); c++) {
                sb.append(r.getString(row, c)).append('|');
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
