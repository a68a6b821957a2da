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
 * codes ({@code numacube.fewCodes}), the fused loop of one sum by two dense keys ({@code numacube.fusedTwoKeys}) and the
 * direct roll-up of plain groups ({@code
 * numacube.directRollUp}), each query run with the paths on and off (system properties read as each block's state is made) over trades with
 * pnl NULL in a tenth of the rows, in 256-row morsels on two simulated nodes. Sums of cubes of P&amp;L make any change
 * in the order of additions visible in the last bits.
 */
class FastPathsBitIdentityTest {

    private static final List<String> PROPERTIES =
            List.of("numacube.fewCodes", "numacube.fusedTwoKeys", "numacube.directRollUp");
    private static Cube cube;
    /** The same trades without NULL pnl: the direct roll-up takes bare pnl. */
    private static Cube nullFree;

    @BeforeAll
    static void open() {
        cube = open(0.1);
        nullFree = open(0);
    }

    private static Cube open(double pnlNullFraction) {
        Cube c = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(256));
        c.generateTrades(new TradesGenerator(5, 80_000, pnlNullFraction), ProgressListener.NONE);
        return c;
    }

    @AfterAll
    static void close() {
        cube.close();
        nullFree.close();
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
                "SELECT currency, book, SUM(pnl) FROM trades GROUP BY currency, book HAVING COUNT(*) > 0",
                "SELECT desk, SUM(notional * rate_to_usd) FROM trades JOIN fx USING (currency)"
                        + " WHERE trade_date BETWEEN DATE '2025-05-22' AND DATE '2025-07-30'"
                        + " AND desk IN ('DESK-03', 'DESK-17', 'DESK-42') GROUP BY desk",
                "SELECT desk, currency, SUM(notional * notional * notional) FROM trades"
                        + " WHERE desk IN ('DESK-03', 'DESK-17') GROUP BY desk, currency",
                "SELECT book, SUM(notional * notional * notional) FROM trades WHERE desk IN ('DESK-03', 'DESK-17')"
                        + " AND trade_date >= DATE '2025-03-01' GROUP BY book",
                "SELECT book, trade_date, SUM(notional), COUNT(*) FROM trades GROUP BY book, trade_date",
                "SELECT trade_date, book, COUNT(*), SUM(notional) FROM trades WHERE desk <> 'DESK-07'"
                        + " GROUP BY trade_date, book ORDER BY 4 DESC LIMIT 50",
                "SELECT desk, currency, book, SUM(notional), COUNT(*) FROM trades GROUP BY desk, currency, book",
                "SELECT currency, desk, SUM(notional) FROM trades GROUP BY currency, desk HAVING SUM(notional) > 0"
            })
    void givesTheAnswerOfThePathItReplacesToTheBit(String sql) {
        List<String> fast = bits(cube, sql, "true");
        List<String> plain = bits(cube, sql, "false");
        assertTrue(fast.size() > 0, sql);
        assertEquals(plain, fast, sql);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT desk, SUM(pnl * rate_to_usd) FROM trades JOIN fx USING (currency)"
                        + " WHERE trade_date BETWEEN DATE '2025-05-22' AND DATE '2025-07-30'"
                        + " AND desk IN ('DESK-03', 'DESK-17', 'DESK-42') GROUP BY desk",
                "SELECT desk, currency, SUM(pnl) FROM trades WHERE trade_date >= DATE '2025-03-01'"
                        + " AND desk IN ('DESK-01', 'DESK-02') GROUP BY desk, currency",
                "SELECT book, SUM(pnl) FROM trades WHERE desk IN ('DESK-03', 'DESK-17') GROUP BY book",
                "SELECT currency, SUM(pnl) FROM trades WHERE desk = 'DESK-05' GROUP BY currency",
                "SELECT book, trade_date, SUM(pnl), COUNT(*) FROM trades GROUP BY book, trade_date",
                "SELECT desk, currency, SUM(pnl) FROM trades GROUP BY desk, currency HAVING SUM(pnl) > 0"
            })
    void givesTheAnswerOfThePathItReplacesToTheBitWithoutNulls(String sql) {
        List<String> fast = bits(nullFree, sql, "true");
        List<String> plain = bits(nullFree, sql, "false");
        assertTrue(fast.size() > 0, sql);
        assertEquals(plain, fast, sql);
    }

    private static List<String> bits(Cube c, String sql, String setting) {
        PROPERTIES.forEach(p -> System.setProperty(p, setting));
        try {
            return ResultBits.of(c.query(sql));
        } finally {
            PROPERTIES.forEach(System::clearProperty);
        }
    }
}
