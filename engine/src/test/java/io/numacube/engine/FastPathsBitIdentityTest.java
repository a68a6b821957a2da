package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.gen.TradesGenerator;
import io.numacube.engine.storage.ProgressListener;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The scan's fast paths give the answers of the paths they replace to the bit: the word-at-a-time selection of few
 * codes ({@code numacube.fewCodes}) and the fused loop of one sum by two dense keys ({@code numacube.fusedTwoKeys}),
 * each query run with the path on and off (system properties read as each block's state is made) over trades with
 * pnl NULL in a tenth of the rows, in 256-row morsels on two simulated nodes. Sums of cubes of P&amp;L make any change
 * in the order of additions visible in the last bits.
 */
class FastPathsBitIdentityTest {

    private static final List<String> PROPERTIES = List.of("numacube.fewCodes", "numacube.fusedTwoKeys");
    private static Cube cube;

    @BeforeAll
    static void open() {
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(256));
        cube.generateTrades(new TradesGenerator(5, 80_000, 0.1), ProgressListener.NONE);
    }

    @AfterAll
    static void close() {
        cube.close();
        PROPERTIES.forEach(System::clearProperty);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT desk, SUM(pnl * rate_to_usd) FROM trades JOIN fx USING (currency)"
                        + " WHERE trade_date BETWEEN DATE '2025-05-22' AND DATE '2025-07-30'"
                        + " AND desk IN ('DESK-03', 'DESK-17', 'DESK-42') GROUP BY desk",
                "SELECT desk, SUM(pnl * pnl * pnl), COUNT(pnl), AVG(notional) FROM trades"
                        + " WHERE desk IN ('DESK-00', 'DESK-49') GROUP BY desk",
                "SELECT book, SUM(pnl * pnl * pnl), COUNT(*) FROM trades WHERE book = 'BOOK-0123'"
                        + " OR book = 'BOOK-0999' GROUP BY book",
                "SELECT desk, SUM(pnl * rate_to_usd) FROM trades JOIN fx USING (currency) GROUP BY desk",
                "SELECT desk, currency, SUM(pnl), COUNT(pnl), AVG(pnl) FROM trades GROUP BY desk, currency",
                "SELECT book, trade_date, SUM(pnl), COUNT(*) FROM trades GROUP BY book, trade_date",
                "SELECT currency, book, SUM(pnl), COUNT(pnl) FROM trades GROUP BY currency, book",
                "SELECT desk, currency, SUM(pnl), COUNT(*) FROM trades GROUP BY desk, currency",
                "SELECT currency, desk, SUM(notional), COUNT(*) FROM trades GROUP BY currency, desk",
                "SELECT currency, book, SUM(pnl) FROM trades GROUP BY currency, book HAVING COUNT(*) > 0"
            })
    void givesTheAnswerOfThePathItReplacesToTheBit(String sql) {
        List<String> fast = bits(sql, "true");
        List<String> plain = bits(sql, "false");
        assertTrue(fast.size() > 0, sql);
        assertEquals(plain, fast, sql);
    }

    private static List<String> bits(String sql, String setting) {
        PROPERTIES.forEach(p -> System.setProperty(p, setting));
        try {
            return ResultBits.of(cube.query(sql));
        } finally {
            PROPERTIES.forEach(System::clearProperty);
        }
    }
}
