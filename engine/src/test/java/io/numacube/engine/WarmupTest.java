package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The warm-up's query shapes all run (a shape the engine refused would warm nothing), their answers over its
 * generated tables equal DuckDB's, and a warm-up stops at its rounds or its time budget.
 */
class WarmupTest {

    private static final CubeOptions OPTIONS =
            CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1);

    @Test
    void everyShapeRunsAndRoundsAreCounted() {
        Warmup.Report r = Warmup.run(OPTIONS, Duration.ofMinutes(2), 2);
        assertEquals(List.of(), r.failures(), "every warm-up shape runs");
        assertEquals(2, r.rounds());
        assertEquals(2 * Warmup.queries().size(), r.queries());
    }

    @Test
    void aSpentBudgetStopsIt() {
        Warmup.Report r = Warmup.run(OPTIONS, Duration.ZERO);
        assertEquals(0, r.queries(), "no time, no query");
        assertTrue(r.rounds() <= 1);
    }

    @Test
    void answersEqualDuckDbs() throws Exception {
        try (Cube cube = Cube.open(OPTIONS.withMorselRows(Warmup.MORSEL_ROWS));
                DuckDb duck = new DuckDb()) {
            SplittableRandom rnd = new SplittableRandom(7);
            for (var t : List.of(
                    Warmup.regions(), Warmup.dimension(rnd), Warmup.fact(rnd), Warmup.orders(rnd), Warmup.lines(rnd))) {
                cube.loadTable(t);
                duck.load(t);
            }
            for (String q : Warmup.queries()) {
                QueryResult ours = cube.query(q);
                assertTrue(ours.rowCount() > 0, "a shape that answers nothing warms little: " + q);
                ResultComparator.assertSame(
                        q, ours, duck.query(q), 0, new boolean[ours.columnCount()], q.contains("ORDER BY"), 1e-9);
            }
        }
    }

    /**
     * The wide-key shapes warm what TPC-H's first queries spend their time in: a key coded at query time, or tested
     * against the keys a subquery found (a load would have coded a key of fewer values through a
     * dictionary, and these shapes would warm nothing new).
     */
    @Test
    void wideKeyShapesCodeTheirKeyAtQueryTime() {
        try (Cube cube = Cube.open(OPTIONS.withMorselRows(Warmup.MORSEL_ROWS))) {
            SplittableRandom rnd = new SplittableRandom(11);
            cube.loadTable(Warmup.orders(rnd));
            cube.loadTable(Warmup.lines(rnd));
            for (String q : Warmup.wideKeyQueries()) {
                String plan = cube.query(q).stats().plan();
                boolean coded = plan.contains("ok (coded at query time)");
                boolean keys = plan.contains("ok IN (");
                assertTrue(coded || keys, q + " plans " + plan.substring(0, Math.min(300, plan.length())));
            }
        }
    }
}
