package io.numacube.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.bench.CubeUnderTest;
import io.numacube.bench.Placement;
import io.numacube.bench.peer.DuckDbPeer;
import io.numacube.bench.peer.ReferenceQuery;
import io.numacube.bench.peer.ResultComparison;
import io.numacube.bench.peer.ResultTable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The adapter over the real engine: same rows as DuckDB, same answers, stats carried over. */
class EngineCubeTest {

    private static final long ROWS = 50_001;
    private static CubeUnderTest.Factory factory;
    private static DuckDbPeer duck;

    @BeforeAll
    static void load() throws Exception {
        factory = EngineCube.factory();
        duck = DuckDbPeer.open(2);
        try (CubeUnderTest any = factory.open(ROWS, 11, 2, Placement.NODE_LOCAL)) {
            duck.load(any.fx());
            duck.load(any.books());
            duck.load(any.trades());
        }
    }

    @AfterAll
    static void close() throws Exception {
        duck.close();
    }

    @ParameterizedTest
    @EnumSource(Placement.class)
    void answersEveryReferenceQueryLikeDuckDbUnderEveryPlacement(Placement placement) throws Exception {
        try (CubeUnderTest cube = factory.open(ROWS, 11, 2, placement)) {
            assertEquals(ROWS, cube.rows());
            for (ReferenceQuery q : ReferenceQuery.values()) {
                String sql = q.sql(cube.q3Literals());
                ResultTable expected = duck.query(sql);
                ResultComparison c = ResultComparison.compare(
                        expected, cube.query(sql).table(), q.ordered(), ResultComparison.SUM_TOLERANCE);
                assertTrue(c.equal(), placement + " " + q + ": " + c.difference());
            }
        }
    }

    @Test
    void answersQ1OnTradesWithNullPnlLikeDuckDbAndNotAsWithoutNulls() throws Exception {
        String sql = ReferenceQuery.Q1.sql(io.numacube.bench.data.GeneratedTrades.q3Literals());
        try (CubeUnderTest cube = factory.open(ROWS, 11, 2, Placement.NODE_LOCAL, 0.1);
                DuckDbPeer nullDuck = DuckDbPeer.open(2)) {
            nullDuck.load(cube.fx());
            nullDuck.load(cube.trades());
            ResultTable nullCount = nullDuck.query("SELECT COUNT(*) - COUNT(pnl) FROM trades");
            long nulls = ((Number) nullCount.rows().getFirst().getFirst()).longValue();
            assertTrue(nulls > ROWS / 20 && nulls < ROWS / 5, "NULL pnl rows in DuckDB: " + nulls);
            ResultTable answer = cube.query(sql).table();
            ResultComparison c =
                    ResultComparison.compare(nullDuck.query(sql), answer, false, ResultComparison.SUM_TOLERANCE);
            assertTrue(c.equal(), c.difference());
            assertFalse(ResultComparison.compare(duck.query(sql), answer, false, ResultComparison.SUM_TOLERANCE)
                    .equal());
            String counts = "SELECT currency, COUNT(pnl), COUNT(*) FROM trades GROUP BY currency";
            ResultComparison n = ResultComparison.compare(
                    nullDuck.query(counts), cube.query(counts).table(), false, 0);
            assertTrue(n.equal(), n.difference());
        }
    }

    @Test
    void carriesTheEnginesCountersAndDescribesThePlacement() {
        try (CubeUnderTest cube = factory.open(ROWS, 11, 2, Placement.NODE_LOCAL)) {
            CubeUnderTest.Answer a = cube.query(ReferenceQuery.Q1.sql(cube.q3Literals()));
            assertTrue(a.stats().morsels() > 0, a.stats().toString());
            assertEquals(ROWS, a.stats().rowsScanned());
            assertTrue(cube.placementSummary().contains("partitions"), cube.placementSummary());
            assertTrue(cube.loadSeconds() > 0);
        }
    }
}
