package io.numacube.spark;

import java.util.List;

/**
 * A query of the Spark bench: the issue-3 P&amp;L queries Q1-Q5 as {@code io.numacube.engine.gen.ReferenceQueries}
 * spells them (copied: the spark module does not depend on the engine; Q3's dates are business days 100 and 149 of
 * the data, read from the server), and Q2 and Q3 rewritten to aggregate by desk and currency before the join to
 * {@code fx} ({@code -pre}), the form in which Spark can push their aggregate to the shards. Immutable.
 *
 * @param name    Q1 ... Q5, Q2-pre, Q3-pre
 * @param sql     the text every engine runs
 * @param ordered whether the answer's order is part of it (Q5's ORDER BY ... LIMIT 10)
 */
record BenchQuery(String name, String sql, boolean ordered) {

    /** Q3's desks (ReferenceQueries.Q3_DESKS). */
    static final String Q3_DESKS = "'DESK-03', 'DESK-17', 'DESK-42'";

    /** The queries, Q3's between {@code firstDay} and {@code lastDay} (ISO dates, inclusive). */
    static List<BenchQuery> all(String firstDay, String lastDay) {
        String q3Filter = " WHERE trade_date BETWEEN DATE '" + firstDay + "' AND DATE '" + lastDay + "' AND desk IN ("
                + Q3_DESKS + ")";
        String q2 = "SELECT desk, SUM(pnl * rate_to_usd) FROM trades JOIN fx USING (currency)";
        String pre = "SELECT desk, SUM(s * rate_to_usd) FROM (SELECT desk, currency, SUM(pnl) AS s FROM trades%s"
                + " GROUP BY desk, currency) t JOIN fx USING (currency) GROUP BY desk";
        return List.of(
                new BenchQuery("Q1", "SELECT currency, SUM(pnl) FROM trades GROUP BY currency", false),
                new BenchQuery("Q2", q2 + " GROUP BY desk", false),
                new BenchQuery("Q2-pre", pre.formatted(""), false),
                new BenchQuery("Q3", q2 + q3Filter + " GROUP BY desk", false),
                new BenchQuery("Q3-pre", pre.formatted(q3Filter), false),
                new BenchQuery(
                        "Q4",
                        "SELECT book, trade_date, SUM(pnl), COUNT(*) FROM trades GROUP BY book, trade_date",
                        false),
                new BenchQuery(
                        "Q5",
                        "SELECT counterparty, SUM(notional), AVG(pnl) FROM trades GROUP BY counterparty"
                                + " ORDER BY 2 DESC LIMIT 10",
                        true));
    }
}
