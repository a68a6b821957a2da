package io.numacube.engine.gen;

import java.util.List;

/**
 * The five P&amp;L queries of issue 3 over {@link TradesGenerator#TRADES} and {@link TradesGenerator#FX}, as SQL
 * text. Q3 filters on business days 100..149 and three desks. Constants; thread-safe.
 */
public final class ReferenceQueries {

    /** Q3's desks. */
    public static final List<String> Q3_DESKS = List.of("DESK-03", "DESK-17", "DESK-42");

    public static final String Q1 = "SELECT currency, SUM(pnl) FROM trades GROUP BY currency";
    public static final String Q2 =
            "SELECT desk, SUM(pnl * rate_to_usd) FROM trades JOIN fx USING (currency) GROUP BY desk";
    public static final String Q3 = "SELECT desk, SUM(pnl * rate_to_usd) FROM trades JOIN fx USING (currency)"
            + " WHERE trade_date BETWEEN DATE '" + TradesGenerator.dateText(100) + "' AND DATE '"
            + TradesGenerator.dateText(149) + "' AND desk IN ('" + String.join("', '", Q3_DESKS) + "')"
            + " GROUP BY desk";
    public static final String Q4 = "SELECT book, trade_date, SUM(pnl), COUNT(*) FROM trades GROUP BY book, trade_date";
    public static final String Q5 = "SELECT counterparty, SUM(notional), AVG(pnl) FROM trades GROUP BY counterparty"
            + " ORDER BY 2 DESC LIMIT 10";

    /** Q1..Q5 in order. */
    public static final List<String> ALL = List.of(Q1, Q2, Q3, Q4, Q5);

    private ReferenceQueries() {}

    /** Q{@code n} for n = 1..5. */
    public static String q(int n) {
        return ALL.get(n - 1);
    }
}
