package io.numacube.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReferenceQueryTest {

    private static final Map<String, Integer> WIDTHS = Map.of(
            "trade_id",
            8,
            "desk",
            1,
            "book",
            2,
            "currency",
            1,
            "trade_date",
            2,
            "counterparty",
            2,
            "pnl",
            8,
            "notional",
            8);

    @Test
    void bytesReadIsRowsTimesTheWidthsOfTheColumnsTheQueryTouches() {
        assertEquals(1000L * (1 + 8), ReferenceQuery.Q1.bytesRead(1000, WIDTHS));
        assertEquals(1000L * (1 + 1 + 8), ReferenceQuery.Q2.bytesRead(1000, WIDTHS));
        assertEquals(1000L * (1 + 1 + 8 + 2), ReferenceQuery.Q3.bytesRead(1000, WIDTHS));
        assertEquals(1000L * (2 + 2 + 8), ReferenceQuery.Q4.bytesRead(1000, WIDTHS));
        assertEquals(1000L * (2 + 8 + 8), ReferenceQuery.Q5.bytesRead(1000, WIDTHS));
        assertEquals(1000L * (2 + 1 + 8 + 2), ReferenceQuery.Q6.bytesRead(1000, WIDTHS));
    }

    @Test
    void bytesReadFollowsTheStoredWidths() {
        Map<String, Integer> wide = new java.util.HashMap<>(WIDTHS);
        wide.put("currency", 4);
        assertEquals(100L * (4 + 8), ReferenceQuery.Q1.bytesRead(100, wide));
    }

    @Test
    void bytesReadNeedsAWidthForEveryColumnRead() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> ReferenceQuery.Q5.bytesRead(10, Map.of("pnl", 8)));
        assertTrue(e.getMessage().contains("query=Q5"), e.getMessage());
    }

    @Test
    void q3CarriesItsDateRangeAndDesksAsLiterals() {
        String sql = ReferenceQuery.Q3.sql(new ReferenceQuery.Q3Literals(
                LocalDate.of(2024, 5, 20), LocalDate.of(2024, 7, 29), List.of("DESK-01", "O'Hara", 7)));
        assertTrue(sql.contains("BETWEEN DATE '2024-05-20' AND DATE '2024-07-29'"), sql);
        assertTrue(sql.contains("desk IN ('DESK-01', 'O''Hara', 7)"), sql);
        assertTrue(sql.contains("JOIN fx USING (currency)"), sql);
    }

    @Test
    void q6JoinsFxAndBooksAndKeepsTheLastThirtyDaysOfTheCalendar() {
        String sql = ReferenceQuery.Q6.sql(null);
        assertTrue(sql.contains("JOIN fx USING (currency) JOIN books USING (book)"), sql);
        assertTrue(sql.contains("BETWEEN DATE '2025-11-18' AND DATE '2025-12-17'"), sql);
        assertTrue(sql.contains("GROUP BY region, legal_entity"), sql);
    }

    @Test
    void onlyQ5IsOrdered() {
        for (ReferenceQuery q : ReferenceQuery.values()) {
            assertEquals(q == ReferenceQuery.Q5, q.ordered(), q.name());
        }
    }
}
