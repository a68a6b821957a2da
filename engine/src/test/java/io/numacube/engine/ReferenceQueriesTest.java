package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.gen.ReferenceQueries;
import io.numacube.engine.gen.TradeRow;
import io.numacube.engine.gen.TradesGenerator;
import io.numacube.engine.ingest.TradesLoader;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Q1–Q5 on generated trades: numacube (generated in parallel straight into placed partitions) against DuckDB (fed row
 * by row from the same generator), under several placements and partitionings.
 */
class ReferenceQueriesTest {

    private static final long ROWS = 150_000;
    private static final long SEED = 20261122;
    private static DuckDb duck;

    @BeforeAll
    static void loadDuckDb() throws Exception {
        duck = new DuckDb();
        TradesGenerator gen = new TradesGenerator(SEED, ROWS);
        TradeRow r = new TradeRow();
        List<Object[]> rows = new ArrayList<>();
        for (long i = 0; i < ROWS; i++) {
            gen.row(i, r);
            rows.add(new Object[] {r.tradeId, r.deskName(), r.bookName(), r.currencyCode(), (long) r.epochDay(),
                    r.counterpartyName(), r.pnl, r.notional});
        }
        duck.load(TradesGenerator.TRADES, rows);
        List<Object[]> fx = new ArrayList<>();
        for (int c = 0; c < TradesGenerator.CURRENCIES.size(); c++) {
            fx.add(new Object[] {TradesGenerator.CURRENCIES.get(c), TradesGenerator.rateToUsd(c)});
        }
        duck.load(TradesGenerator.FX, fx);
    }

    @AfterAll
    static void close() throws Exception {
        duck.close();
    }

    private static final int[] KEYS = {1, 1, 1, 2, 1};
    private static final boolean[][] EXACT = {{true, false}, {true, false}, {true, false}, {true, true, false, true},
            {true, true, false}};

    private static void assertReferenceAnswers(CubeOptions options) throws Exception {
        try (Cube cube = Cube.open(options)) {
            cube.generateTrades(ROWS, SEED, ProgressListener.NONE);
            assertEquals(ROWS, cube.rowCount("trades"));
            for (int q = 1; q <= 5; q++) {
                String sql = ReferenceQueries.q(q);
                QueryResult ours = cube.query(sql);
                ResultComparator.assertSame("Q" + q + " " + options, ours, duck.query(sql), KEYS[q - 1],
                        EXACT[q - 1], q == 5, 1e-9);
            }
        }
    }

    @Test
    void referenceQueriesMatchDuckDbNodeLocalByRowRanges() throws Exception {
        assertReferenceAnswers(CubeOptions.defaults().withMorselRows(4096));
    }

    @Test
    void referenceQueriesMatchDuckDbPartitionedByDeskInterleaved() throws Exception {
        assertReferenceAnswers(CubeOptions.defaults().withPlacement(Placement.INTERLEAVE)
                .withPartitioning(Partitioning.byDimension("desk", 6)).withMorselRows(1000));
    }

    @Test
    void referenceQueriesMatchDuckDbOnThreeSimulatedNodesByCurrency() throws Exception {
        assertReferenceAnswers(CubeOptions.defaults().withSimulatedNodes(3).withThreadsPerNode(1)
                .withPartitioning(Partitioning.byDimension("currency", 7)).withMorselRows(2048));
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
            assertTrue(q3.morselsSkipped() > q3.morsels(), "dates ascend with trade id, so most morsels are outside"
                    + " days 100..149: " + q3);
            assertTrue(q3.plan().contains("post-processed by currency"), q3.plan());
        }
    }

    @Test
    void fxLookupHasOneRowPerCurrency() {
        assertEquals(TradesGenerator.CURRENCIES.size(), TradesLoader.fx().rows());
    }
}
