package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.gen.ReferenceQueries;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.storage.Partitioning;
import io.numacube.engine.storage.Placement;
import io.numacube.engine.storage.ProgressListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class CubeExecutionTest {

    private static void assertSameAnswer(String context, QueryResult a, QueryResult b) {
        assertEquals(a.rowCount(), b.rowCount(), context);
        for (int r = 0; r < a.rowCount(); r++) {
            for (int c = 0; c < a.columnCount(); c++) {
                if (a.columnTypes().get(c) == io.numacube.engine.schema.ColumnType.DOUBLE) {
                    double x = a.getDouble(r, c);
                    double y = b.getDouble(r, c);
                    assertTrue(
                            Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y)), context + " " + x + " " + y);
                } else {
                    assertEquals(a.getString(r, c), b.getString(r, c), context);
                }
            }
        }
    }

    private static String sorted(String sql) {
        return sql.contains("ORDER BY") ? sql : sql + " ORDER BY 1" + (sql.contains("book, trade_date") ? ", 2" : "");
    }

    /** A liveness bound far above any run of these queries on a loaded 2-core machine: only a hang reaches it. */
    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void concurrentQueriesGetTheAnswersTheyGetAlone() throws Exception {
        assertConcurrentQueriesAnswerAsAlone(CubeOptions.defaults().withMorselRows(2048));
    }

    /**
     * Two nodes of one worker each, stealing on: the shape in which a query's worker, its own queue done, could wait
     * for another node's owners that sit queued behind a second query's worker waiting the other way round.
     */
    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void concurrentQueriesStealingAcrossNodesAllFinish() throws Exception {
        assertConcurrentQueriesAnswerAsAlone(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(2048));
    }

    private static void assertConcurrentQueriesAnswerAsAlone(CubeOptions options) throws Exception {
        try (Cube cube = Cube.open(options)) {
            cube.generateTrades(100_000, 11, ProgressListener.NONE);
            List<QueryResult> alone = new ArrayList<>();
            for (String q : ReferenceQueries.ALL) {
                alone.add(cube.query(sorted(q)));
            }
            ExecutorService callers = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int offset = t;
                    futures.add(callers.submit(() -> {
                        for (int i = 0; i < 25; i++) {
                            int q = (i + offset) % 5;
                            assertSameAnswer(
                                    "Q" + (q + 1), alone.get(q), cube.query(sorted(ReferenceQueries.ALL.get(q))));
                        }
                        return null;
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            } finally {
                callers.shutdownNow();
            }
        }
    }

    @Test
    void withoutStealingEveryMorselRunsOnItsHomeNode() {
        try (Cube cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withPartitioning(Partitioning.rowRanges(1))
                .withMorselRows(64)
                .withWorkStealing(false))) {
            cube.generateTrades(50_000, 4, ProgressListener.NONE);
            QueryStats s = cube.query(ReferenceQueries.Q1).stats();
            assertEquals(s.morsels(), s.morselsHome());
            assertEquals(0, s.morselsStolen());
            assertEquals(1, s.morselsByNode().size(), s.toString());
            assertEquals(s.morselsByNode(), s.morselsHomeByNode(), "every node's morsels ran at home");
            assertEquals((50_000 + 63) / 64, s.morsels());
        }
    }

    @Test
    void anIdleNodeStealsMorselsAndTheAnswerStaysTheSame() {
        try (Cube cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withPartitioning(Partitioning.rowRanges(1))
                .withMorselRows(64))) {
            cube.generateTrades(100_000, 4, ProgressListener.NONE);
            cube.setWorkStealing(false);
            QueryResult reference = cube.query(ReferenceQueries.Q2 + " ORDER BY 1");
            cube.setWorkStealing(true);
            long stolen = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (int attempt = 0; stolen == 0 && (attempt < 20 || System.nanoTime() < deadline); attempt++) {
                QueryResult r = cube.query(ReferenceQueries.Q2 + " ORDER BY 1");
                assertSameAnswer("Q2 with stealing", reference, r);
                QueryStats s = r.stats();
                assertEquals(s.morsels(), s.morselsHome() + s.morselsStolen());
                stolen = s.morselsStolen();
                assertEquals(
                        s.morselsHome(),
                        s.morselsHomeByNode().values().stream()
                                .mapToLong(Long::longValue)
                                .sum(),
                        s.toString());
                if (stolen > 0) {
                    assertEquals(stolen, s.morselsByNode().get(1), "only node 1's worker steals: " + s);
                    assertEquals(null, s.morselsHomeByNode().get(1), "node 1 has no queue of its own: " + s);
                    assertEquals(s.morselsByNode().get(0), s.morselsHomeByNode().get(0), s.toString());
                }
            }
            assertTrue(stolen > 0, "node 1 has no partition, so its worker can only steal");
        }
    }

    @Test
    void everyPlacementModeGivesTheSameAnswers() {
        List<Placement> modes = List.of(
                Placement.NODE_LOCAL,
                Placement.INTERLEAVE,
                Placement.OS_DEFAULT,
                Placement.oneNode(0),
                Placement.REMOTE);
        List<QueryResult> first = null;
        for (Placement p : modes) {
            try (Cube cube = Cube.open(CubeOptions.defaults().withPlacement(p).withMorselRows(4096))) {
                cube.generateTrades(40_000, 8, ProgressListener.NONE);
                List<QueryResult> answers = new ArrayList<>();
                for (String q : ReferenceQueries.ALL) {
                    answers.add(cube.query(sorted(q)));
                }
                if (first == null) {
                    first = answers;
                } else {
                    for (int i = 0; i < answers.size(); i++) {
                        assertSameAnswer(p + " Q" + (i + 1), first.get(i), answers.get(i));
                    }
                }
                for (PartitionInfo info : cube.placement()) {
                    assertTrue(info.placementApplied().length() > 0);
                }
            }
        }
    }

    @Test
    void relocatingMovesEveryTableAndKeepsTheAnswers() {
        try (Cube cube =
                Cube.open(CubeOptions.defaults().withMorselRows(4096).withPartitioning(Partitioning.parse("desk:3")))) {
            cube.generateTrades(40_000, 12, ProgressListener.NONE);
            QueryResult before = cube.query(ReferenceQueries.Q2 + " ORDER BY 1");
            long bytes = cube.liveNativeBytes();
            for (Placement p : List.of(Placement.INTERLEAVE, Placement.OS_DEFAULT, Placement.oneNode(0))) {
                cube.relocate(p);
                assertEquals(p, cube.currentPlacement());
                assertEquals(bytes, cube.liveNativeBytes(), "old partitions freed");
                assertEquals("by desk", cube.partitioning("trades"));
                assertSameAnswer(p.toString(), before, cube.query(ReferenceQueries.Q2 + " ORDER BY 1"));
                assertEquals(
                        3,
                        cube.placement().stream()
                                .filter(i -> i.table().equals("trades"))
                                .count());
            }
        }
    }

    @Test
    void partitioningParsesTheCliForms() {
        assertEquals(Partitioning.AUTO, Partitioning.parse("auto"));
        assertEquals(Partitioning.rowRanges(8), Partitioning.parse("rows:8"));
        assertEquals(Partitioning.rowsPerPartition(1000), Partitioning.parse("rows-each:1000"));
        assertEquals(Partitioning.byDimension("desk", 0), Partitioning.parse("desk"));
        assertEquals(Partitioning.byDimension("currency", 4), Partitioning.parse("currency:4"));
        assertEquals(Placement.oneNode(1), Placement.parse("one_node:1"));
        assertEquals(Placement.INTERLEAVE, Placement.parse("Interleave"));
    }

    /** The answer over no rows is data (engine/src/test/sql/aggregate/global.test); here, its names and stats. */
    @Test
    void resultOverNoRowsNamesItsColumnsAndRanNoMorsels() {
        try (Cube cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(1))) {
            cube.generateTrades(1_000, 1, ProgressListener.NONE);
            QueryResult r = cube.query("SELECT COUNT(*), SUM(pnl), MIN(notional) FROM trades WHERE desk = 'nobody'");
            assertEquals(1, r.columnIndex("SUM(pnl)"));
            assertEquals(-1, r.columnIndex("pnl"));
            Map<Integer, Long> byNode = r.stats().morselsByNode();
            assertTrue(byNode.isEmpty(), byNode.toString());
        }
    }
}
