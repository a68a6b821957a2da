package io.numacube.bench.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.bench.CubeUnderTest;
import io.numacube.bench.Placement;
import io.numacube.bench.peer.DuckDbPeer;
import io.numacube.bench.peer.ReferenceQuery;
import io.numacube.bench.peer.ResultComparison;
import io.numacube.bench.peer.ResultTable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class LoopCubeTest {

    /** Not a multiple of the thread count or of the kernels' window, so range edges are exercised. */
    private static final long ROWS = 120_001;

    private static CubeUnderTest loop;
    private static DuckDbPeer duck;

    @BeforeAll
    static void load() throws Exception {
        loop = LoopCube.factory().open(ROWS, 7, 3, Placement.NODE_LOCAL);
        duck = DuckDbPeer.open(2);
        duck.load(loop.fx());
        duck.load(loop.books());
        duck.load(loop.trades());
    }

    @AfterAll
    static void close() throws Exception {
        loop.close();
        duck.close();
    }

    @ParameterizedTest
    @EnumSource(ReferenceQuery.class)
    void answersEveryReferenceQueryLikeDuckDbOnTheSameRows(ReferenceQuery q) throws Exception {
        String sql = q.sql(loop.q3Literals());
        ResultTable expected = duck.query(sql);
        ResultTable actual = loop.query(sql).table();
        assertTrue(expected.rowCount() > 0, "DuckDB answered no rows: " + sql);
        ResultComparison c = ResultComparison.compare(expected, actual, q.ordered(), ResultComparison.SUM_TOLERANCE);
        assertTrue(c.equal(), q + ": " + c.difference());
    }

    @ParameterizedTest
    @EnumSource(ReferenceQuery.class)
    void countsTheBytesOfTheColumnsEachQueryReads(ReferenceQuery q) {
        assertEquals(
                q.bytesRead(ROWS, loop.storedWidths()),
                loop.query(q.sql(loop.q3Literals())).stats().bytesRead());
    }

    @org.junit.jupiter.api.Test
    void refusesSqlItDoesNotKnow() {
        assertThrows(IllegalArgumentException.class, () -> loop.query("SELECT 1"));
    }

    @org.junit.jupiter.api.Test
    void topNKeepsTheLargestGroupsWithRowsLargestFirst() {
        double[] values = {5, 9, 1, 9.5, 7, 100, 3};
        long[] counts = {1, 1, 1, 1, 1, 0, 1};
        org.junit.jupiter.api.Assertions.assertArrayEquals(
                new int[] {3, 1, 4}, LoopCube.topByDescending(values, counts, 3));
        org.junit.jupiter.api.Assertions.assertArrayEquals(
                new int[] {3, 1, 4, 0, 6, 2}, LoopCube.topByDescending(values, counts, 10));
    }
}
