package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.gen.ReferenceQueries;
import io.numacube.engine.gen.TradesGenerator;
import io.numacube.engine.ingest.TradesLoader;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.storage.Partitioning;
import io.numacube.engine.storage.ProgressListener;
import io.numacube.engine.testing.DuckDb;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the reference queries Q1–Q5 rely on beyond their answers: Q5's order is defined, Q3 and desk filters skip what
 * they cannot need, the fx lookup is complete. Their answers against DuckDB under several placements and
 * partitionings are data: engine/src/test/sql/reference/*.test.
 */
class ReferenceQueriesTest {

    private static final long ROWS = 150_000;
    private static final long SEED = 20261122;
    private static DuckDb duck;

    @BeforeAll
    static void loadDuckDb() throws Exception {
        duck = new DuckDb();
        duck.loadTrades(ROWS, SEED);
    }

    @AfterAll
    static void close() throws Exception {
        duck.close();
    }

    @Test
    void q5TopTenHasNoTiesSoItsOrderIsDefined() throws Exception {
        List<Object[]> top11 = duck.query(ReferenceQueries.Q5.replace("LIMIT 10", "LIMIT 11"));
        for (int i = 1; i < top11.size(); i++) {
            assertNotEquals(top11.get(i - 1)[1], top11.get(i)[1], "tie at rank " + i);
        }
    }

    @Test
    void q3ReadsOnlyMorselsItsZoneMapsCannotExclude() {
        try (Cube cube = Cube.open(CubeOptions.defaults().withMorselRows(1024))) {
            cube.generateTrades(ROWS, SEED, ProgressListener.NONE);
            QueryStats q3 = cube.query(ReferenceQueries.Q3).stats();
            QueryStats q2 = cube.query(ReferenceQueries.Q2).stats();
            assertEquals(q2.morsels(), q3.morsels() + q3.morselsSkipped());
            assertTrue(
                    q3.morselsSkipped() > q3.morsels(),
                    "dates ascend with trade id, so most morsels are outside" + " days 100..149: " + q3);
            assertTrue(q3.plan().contains("post-processed by currency"), q3.plan());
        }
    }

    @Test
    void partitionsByDeskAreSkippedWholeWhenNoneOfTheirDesksIsAsked() {
        try (Cube cube = Cube.open(CubeOptions.defaults()
                .withPartitioning(Partitioning.byDimension("desk", 10))
                .withMorselRows(1 << 20))) {
            cube.generateTrades(ROWS, SEED, ProgressListener.NONE);
            QueryStats s = cube.query("SELECT desk, SUM(pnl) FROM trades WHERE desk = 'DESK-17' GROUP BY desk")
                    .stats();
            assertEquals(1, s.morsels(), "one partition holds DESK-17, and its one morsel is read: " + s);
            assertEquals(9, s.morselsSkipped(), s.toString());
        }
    }

    @Test
    void fxLookupHasOneRowPerCurrency() {
        assertEquals(TradesGenerator.CURRENCIES.size(), TradesLoader.fx().rows());
    }
}
