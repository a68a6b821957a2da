package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import io.numacube.numa.base.NumacubeException;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A declared join is built ahead: its fact key's query-time codes (once: a second preparation finds them), with the
 * same answers after as without; a bad declaration is refused naming it.
 */
class JoinPreparationTest {

    private static final CubeOptions OPTIONS =
            CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1);
    private static final String QUERY =
            "SELECT prio, COUNT(*), SUM(v) FROM wl JOIN wo ON wl.ok = wo.ok GROUP BY prio ORDER BY prio";

    @Test
    void aPreparedJoinCodesItsKeyOnceAndAnswersAsDuckDb() throws Exception {
        try (Cube prepared = cube();
                DuckDb duck = new DuckDb()) {
            SplittableRandom rnd = new SplittableRandom(3);
            duck.load(Warmup.orders(rnd));
            duck.load(Warmup.lines(rnd));
            Cube.JoinPrepared first = prepared.prepareJoin(JoinSpec.parse("wl.ok=wo.ok"));
            assertTrue(first.codedBytes() >= 4L * Warmup.WIDE_KEY_ROWS, "the fact's key coded: " + first);
            assertEquals(
                    0, prepared.prepareJoin(JoinSpec.parse("wl.ok = wo.ok")).codedBytes(), "coded already");
            QueryResult ours = prepared.query(QUERY);
            ResultComparator.assertSame(QUERY, ours, duck.query(QUERY), 0, new boolean[ours.columnCount()], true, 0);
        }
    }

    @Test
    void declarationsParseAndBadOnesAreRefused() {
        JoinSpec j = JoinSpec.parse("lineitem.l_partkey+l_suppkey=partsupp.ps_partkey+ps_suppkey");
        assertEquals(List.of("l_partkey", "l_suppkey"), j.factColumns());
        assertEquals("partsupp", j.dim());
        assertEquals(
                "SELECT COUNT(*) FROM lineitem JOIN partsupp ON lineitem.l_partkey = partsupp.ps_partkey AND"
                        + " lineitem.l_suppkey = partsupp.ps_suppkey",
                j.sql());
        for (String bad : List.of("wl.ok", "wl.ok=wo.ok+ck", "wl=wo.ok", "wl.ok=wo.o k", "a.b=c.d=e.f")) {
            NumacubeException e = assertThrows(NumacubeException.class, () -> JoinSpec.parse(bad), bad);
            assertTrue(e.getMessage().contains("join=" + bad), e.getMessage());
        }
    }

    @Test
    void anUnknownColumnIsTheQuerysErrorNamingTheJoin() {
        try (Cube c = cube()) {
            NumacubeException e =
                    assertThrows(NumacubeException.class, () -> c.prepareJoin(JoinSpec.parse("wl.nosuch=wo.ok")));
            assertEquals("42703", e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("join wl.nosuch=wo.ok: "), e.getMessage());
        }
    }

    private static Cube cube() {
        Cube c = Cube.open(OPTIONS);
        SplittableRandom rnd = new SplittableRandom(3);
        c.loadTable(Warmup.orders(rnd));
        c.loadTable(Warmup.lines(rnd));
        return c;
    }
}
