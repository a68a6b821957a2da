package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.engine.storage.ProgressListener;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same query on the same cube gives bit-identical answers on every run, however the workers share the morsels
 * (three simulated nodes, two workers each, stealing on, small morsels): floating-point partial states are merged in
 * a fixed order, never in the order threads finish. Values of very different magnitudes (cubes of P&L) make every
 * change of summation order visible in the last bits.
 */
class DeterministicMergeTest {

    private static final int RUNS = 30;
    private static Cube cube;

    @BeforeAll
    static void open() {
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(3)
                .withThreadsPerNode(2)
                .withMorselRows(256));
        cube.generateTrades(60_000, 11, ProgressListener.NONE);
    }

    @AfterAll
    static void close() {
        cube.close();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT SUM(pnl * pnl * pnl), AVG(pnl), SUM(notional * pnl) FROM trades",
                "SELECT currency, SUM(pnl * pnl * pnl), AVG(pnl * notional) FROM trades GROUP BY currency",
                "SELECT book, SUM(pnl * pnl * pnl), AVG(pnl) FROM trades GROUP BY book",
                "SELECT book, trade_date, SUM(pnl * pnl * pnl) FROM trades GROUP BY book, trade_date",
                "SELECT desk, SUM(pnl * rate_to_usd * pnl * pnl) FROM trades JOIN fx USING (currency) GROUP BY desk",
                "SELECT desk, MIN(pnl * 0.0), MAX(pnl * 0.0), SUM(pnl * pnl * pnl) FROM trades WHERE pnl * pnl > 4"
                        + " GROUP BY desk",
                "SELECT counterparty, SUM(pnl * pnl * pnl) FROM trades GROUP BY counterparty ORDER BY 2 DESC LIMIT 7"
            })
    void givesBitIdenticalAnswersOnEveryRun(String sql) {
        List<String> first = ResultBits.of(cube.query(sql));
        int differing = 0;
        String example = null;
        for (int run = 1; run < RUNS; run++) {
            List<String> again = ResultBits.of(cube.query(sql));
            if (!again.equals(first)) {
                differing++;
                example = again.toString();
            }
        }
        assertEquals(
                0,
                differing,
                sql + ": " + differing + " of " + (RUNS - 1) + " runs differed from the first; first=" + first
                        + " e.g. " + example);
    }
}
