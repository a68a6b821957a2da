package io.numacube.bench.peer;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The cube issue's reference queries Q1–Q5 over {@code trades} (and {@code fx}), and issue 10's Q6 (a star join to
 * {@code fx} and {@code books}, the last 30 days), with the fact-table columns each one reads, so that the bytes it
 * must move can be counted at the columns' stored widths.
 *
 * <p>Q3's literals (day 100 and day 149 of the generated calendar, three desks) come from the generated data, so
 * the SQL is produced by {@link #sql(Q3Literals)}; Q6's dates are the generated calendar's last 30 days, the same for
 * every cube ({@code io.numacube.engine.gen.ReferenceQueries#Q6}). The same SQL text runs in numacube and in DuckDB. Immutable.
 */
public enum ReferenceQuery {
    Q1("currency sums", false, Set.of("currency", "pnl")),
    Q2("FX-converted by desk", false, Set.of("desk", "currency", "pnl")),
    Q3("Q2 + date/desk filter", false, Set.of("desk", "currency", "pnl", "trade_date")),
    Q4("book x date, 250k groups", false, Set.of("book", "trade_date", "pnl")),
    Q5("counterparty top-10", true, Set.of("counterparty", "notional", "pnl")),
    Q6("USD region x entity, 30d", false, Set.of("book", "currency", "pnl", "trade_date"));

    private final String title;
    private final boolean ordered;
    private final Set<String> factColumns;

    ReferenceQuery(String title, boolean ordered, Set<String> factColumns) {
        this.title = title;
        this.ordered = ordered;
        this.factColumns = factColumns;
    }

    /**
     * Q3's literals.
     *
     * @param firstDay day 100 of the generated trade dates (0-based), inclusive
     * @param lastDay  day 149, inclusive
     * @param desks    the three desks kept, as they are stored (strings or integers)
     */
    public record Q3Literals(LocalDate firstDay, LocalDate lastDay, List<?> desks) {
        public Q3Literals {
            desks = List.copyOf(desks);
        }
    }

    /** Short human title for tables. */
    public String title() {
        return title;
    }

    /** Whether the answer's row order is part of the answer (ORDER BY ... LIMIT). */
    public boolean ordered() {
        return ordered;
    }

    /** The fact-table columns this query reads (the 20-row fx table is not counted). */
    public Set<String> factColumns() {
        return factColumns;
    }

    /** The SQL text of this query. */
    public String sql(Q3Literals q3) {
        String q2 = "SELECT desk, SUM(pnl * rate_to_usd) FROM trades JOIN fx USING (currency)";
        return switch (this) {
            case Q1 -> "SELECT currency, SUM(pnl) FROM trades GROUP BY currency";
            case Q2 -> q2 + " GROUP BY desk";
            case Q3 ->
                q2 + " WHERE trade_date BETWEEN DATE '" + q3.firstDay() + "' AND DATE '" + q3.lastDay()
                        + "' AND desk IN ("
                        + q3.desks().stream().map(ReferenceQuery::literal).collect(Collectors.joining(", "))
                        + ") GROUP BY desk";
            case Q4 -> "SELECT book, trade_date, SUM(pnl), COUNT(*) FROM trades GROUP BY book, trade_date";
            case Q5 ->
                "SELECT counterparty, SUM(notional), AVG(pnl) FROM trades GROUP BY counterparty"
                        + " ORDER BY 2 DESC LIMIT 10";
            case Q6 -> io.numacube.engine.gen.ReferenceQueries.Q6;
        };
    }

    /**
     * Bytes this query must read from the fact table: {@code rows} times the sum of the stored widths of the
     * columns it reads.
     *
     * @param widthsInBytes stored width per row of every fact-table column, by column name
     * @throws IllegalArgumentException when a column this query reads has no width
     */
    public long bytesRead(long rows, Map<String, Integer> widthsInBytes) {
        long perRow = 0;
        for (String column : factColumns) {
            Integer w = widthsInBytes.get(column);
            if (w == null) {
                throw new IllegalArgumentException("every column a query reads needs a stored width: query=" + name()
                        + " column=" + column + " known=" + widthsInBytes.keySet());
            }
            perRow += w;
        }
        return rows * perRow;
    }

    static String literal(Object v) {
        return v instanceof Number ? v.toString() : "'" + v.toString().replace("'", "''") + "'";
    }
}
