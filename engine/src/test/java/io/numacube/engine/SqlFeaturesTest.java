package io.numacube.engine;

import io.numacube.engine.gen.TradeRow;
import io.numacube.engine.gen.TradesGenerator;
import io.numacube.engine.testing.DuckDb;
import io.numacube.engine.testing.ResultComparator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hand-written queries using each supported SQL feature, answered by numacube and DuckDB over the same trades. */
class SqlFeaturesTest {

    private static final long ROWS = 30_000;
    private static DuckDb duck;
    private static Cube cube;

    @BeforeAll
    static void load() throws Exception {
        duck = new DuckDb();
        TradesGenerator gen = new TradesGenerator(77, ROWS);
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
        cube = Cube.open(CubeOptions.defaults().withSimulatedNodes(2).withThreadsPerNode(1).withMorselRows(512));
        cube.generateTrades(ROWS, 77, ProgressListener.NONE);
    }

    @AfterAll
    static void close() throws Exception {
        cube.close();
        duck.close();
    }

    private static void check(String sql, int keys, boolean ordered, boolean... exact) throws Exception {
        ResultComparator.assertSame(sql, cube.query(sql), duck.query(sql), keys, exact, ordered, 1e-9);
    }

    @Test
    void aliasesQualifiedNamesAndOnJoins() throws Exception {
        check("SELECT t.desk AS d, SUM(t.pnl * f.rate_to_usd) AS usd FROM trades t JOIN fx f ON t.currency = f.currency"
                + " WHERE f.rate_to_usd > 0.5 GROUP BY d ORDER BY usd DESC, d LIMIT 5", 1, true, true, false);
    }

    @Test
    void havingOffsetAndOrderByAggregateExpression() throws Exception {
        check("SELECT currency, COUNT(*), SUM(notional) / COUNT(*) FROM trades GROUP BY currency"
                + " HAVING COUNT(*) > 100 AND SUM(pnl) <> 0 ORDER BY SUM(notional) / COUNT(*) DESC, currency"
                + " LIMIT 4 OFFSET 2", 1, true, true, true, false);
    }

    @Test
    void globalAggregatesWithMeasureFiltersAndNot() throws Exception {
        check("SELECT COUNT(*), SUM(pnl), MIN(pnl), MAX(notional), AVG(notional) FROM trades"
                + " WHERE NOT (pnl BETWEEN -100 AND 100) AND (desk < 'DESK-10' OR notional >= 1000000)", 0, false,
                true, false, true, true, false);
    }

    @Test
    void dateFiltersWithStringLiteralsAndNotIn() throws Exception {
        check("SELECT trade_date, COUNT(*) FROM trades WHERE trade_date >= '2025-03-03'"
                + " AND trade_date < DATE '2025-04-01' AND currency NOT IN ('USD', 'EUR') GROUP BY trade_date", 1,
                false, true, true);
    }

    @Test
    void lookupColumnsInFiltersAndGenericArithmetic() throws Exception {
        check("SELECT book, SUM(pnl + rate_to_usd), MAX(pnl / rate_to_usd), COUNT(pnl) FROM trades JOIN fx"
                + " USING (currency) WHERE rate_to_usd BETWEEN 0.1 AND 1.1 AND book IN ('BOOK-0001', 'BOOK-0420',"
                + " 'BOOK-0999') GROUP BY 1", 1, false, true, false, false, true);
    }

    @Test
    void minAndMaxOfDimensions() throws Exception {
        check("SELECT desk, MIN(trade_date), MAX(trade_date), MIN(counterparty), MAX(book) FROM trades GROUP BY desk"
                + " HAVING MAX(trade_date) > DATE '2025-06-01' ORDER BY MIN(counterparty) DESC, desk LIMIT 7", 1, true,
                true, true, true, true, true);
    }

    @Test
    void groupByAliasAndCountOfTradeIds() throws Exception {
        check("SELECT counterparty AS cp, SUM(trade_id), MIN(trade_id), COUNT(*) FROM trades"
                + " WHERE counterparty BETWEEN 'CP-00100' AND 'CP-00200' GROUP BY cp", 1, false, true, true, true, true);
    }
}
