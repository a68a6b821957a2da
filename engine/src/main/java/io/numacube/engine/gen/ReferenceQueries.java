package io.numacube.engine.gen;

import java.util.List;

/**
 * The five P&amp;L queries of issue 3 over {@link TradesGenerator#TRADES} and {@link TradesGenerator#FX}, as SQL
 * text, and Q6 of issue 10 over the {@link Books} dimension too. Q3 filters on business days 100..149 and three
 * desks; Q6 on the last 30 calendar days of the data ({@link #Q6_FIRST_DAY} to the last business day, which every
 * data set of at least {@value TradesGenerator#DAYS} rows reaches). Constants; thread-safe.
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

    /** The last trade date of the generated calendar, ISO text. */
    public static final String LAST_DAY = TradesGenerator.dateText(TradesGenerator.DAYS - 1);
    /** The first of the 30 calendar days that end on {@link #LAST_DAY}, ISO text. */
    public static final String Q6_FIRST_DAY =
            java.time.LocalDate.parse(LAST_DAY).minusDays(29).toString();
    /** P&amp;L in USD by region and legal entity (a star join: fx and books), last 30 days. */
    public static final String Q6 = "SELECT region, legal_entity, SUM(pnl * rate_to_usd) FROM trades"
            + " JOIN fx USING (currency) JOIN books USING (book)"
            + " WHERE trade_date BETWEEN DATE '" + Q6_FIRST_DAY + "' AND DATE '" + LAST_DAY + "'"
            + " GROUP BY region, legal_entity";

    /** Q1..Q5 in order (issue 3's queries; Q6 is apart, so that the demo and the query mixes stay as they were). */
    public static final List<String> ALL = List.of(Q1, Q2, Q3, Q4, Q5);

    private ReferenceQueries() {}

    /** Q{@code n} for n = 1..5. */
    public static String q(int n) {
        return ALL.get(n - 1);
    }
}
