package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.workers.WorkerPool;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A write's small batch is placed by the writer's own thread on a pool of one node, so that it does not wait behind the
 * queries' morsels queued to the workers (a durable server's writer waited tens of milliseconds per batch there).
 */
class AppendBesideBusyWorkersTest {

    private static final TableSchema TABLE =
            new TableSchema("t", List.of(ColumnSpec.of("k", ColumnType.STRING), ColumnSpec.of("v", ColumnType.DOUBLE)));

    @Test
    void appendsASmallBatchWhileEveryWorkerIsBusy() throws Exception {
        try (Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(1).withThreadsPerNode(1))) {
            cube.loadTable(rows(0, 100));
            WorkerPool pool = cube.workers();
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch busy = new CountDownLatch(1);
            CompletableFuture<Object> blocker = pool.submit(pool.nodes().getFirst(), () -> {
                busy.countDown();
                return release.await(60, TimeUnit.SECONDS);
            });
            busy.await();
            long version;
            try {
                version = CompletableFuture.supplyAsync(() -> cube.append("t", rows(100, 1000)))
                        .get(20, TimeUnit.SECONDS);
            } finally {
                release.countDown();
                blocker.join();
            }
            assertEquals(cube.version("t"), version);
            assertEquals(1100, cube.rowCount("t"));
            var answer = cube.query("SELECT COUNT(*), SUM(v) FROM t");
            assertEquals(1100, answer.getLong(0, 0));
            assertEquals(java.util.stream.IntStream.range(0, 1100).sum(), answer.getDouble(0, 1));
        }
    }

    private static TableStaging rows(int from, int count) {
        TableStaging s = new TableStaging(TABLE);
        for (int i = from; i < from + count; i++) {
            s.setString(0, "key-" + (i % 37));
            s.setDouble(1, i);
            s.endRow();
        }
        return s;
    }
}
