package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.engine.result.Cancellation;
import io.numacube.numa.base.NumacubeException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A query whose {@link Cancellation} is thrown stops with SQLSTATE 57014 and the reason given, whether it is thrown
 * before it starts or while its morsels run (its workers drop the rest), its subqueries too; the cube answers the next
 * query as before.
 */
class CancellationTest {

    private static Cube cube;

    @BeforeAll
    static void load() {
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(4096));
        cube.generateTrades(3_000_000, 3, null);
    }

    @AfterAll
    static void close() {
        cube.close();
    }

    @Test
    void aQueryCancelledBeforeItStartsDoesNotRun() {
        Cancellation c = new Cancellation();
        c.cancel("canceling statement due to user request");
        NumacubeException e = assertThrows(NumacubeException.class, () -> cube.query("SELECT COUNT(*) FROM trades", c));
        assertEquals("57014", e.code());
        assertEquals("canceling statement due to user request", e.getMessage());
    }

    @Test
    void aRunningQueryStopsWhenCancelledAndTheCubeAnswersOn() throws Exception {
        String slow = "SELECT trade_id, SUM(pnl), COUNT(*) FROM trades GROUP BY trade_id ORDER BY 2 DESC LIMIT 3";
        for (String sql : java.util.List.of(
                slow,
                "SELECT COUNT(*) FROM trades WHERE trade_id IN (SELECT trade_id FROM trades WHERE pnl > 0)",
                "SELECT trade_id, desk, pnl FROM trades WHERE pnl > 1e12 ORDER BY pnl")) {
            Cancellation c = new Cancellation();
            CompletableFuture<Object> run = CompletableFuture.supplyAsync(() -> cube.query(sql, c));
            Thread.sleep(30);
            c.cancel("canceling statement due to statement timeout");
            Throwable t = assertThrows(java.util.concurrent.ExecutionException.class, run::get)
                    .getCause();
            NumacubeException e = (NumacubeException) t;
            assertEquals("57014", e.code(), sql);
            assertEquals("canceling statement due to statement timeout", e.getMessage());
        }
        assertEquals(3_000_000L, cube.query("SELECT COUNT(*) FROM trades").getLong(0, 0));
    }
}
