package io.numacube.engine.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TradesGeneratorTest {

    @Test
    void rowDependsOnlyOnSeedAndIndexNotOnGenerationOrder() {
        TradesGenerator g = new TradesGenerator(42, 10_000);
        TradeRow forward = new TradeRow();
        TradeRow backward = new TradeRow();
        for (long i = 0; i < 100; i++) {
            g.row(i, forward);
            new TradesGenerator(42, 10_000).row(i, backward);
            assertEquals(forward.pnl, backward.pnl);
            assertEquals(forward.desk, backward.desk);
            assertEquals(forward.counterparty, backward.counterparty);
            assertEquals(g.deskOf(i), forward.desk);
            assertEquals(g.currencyOf(i), forward.currency);
        }
    }

    @Test
    void differentSeedsGiveDifferentData() {
        TradeRow a = new TradeRow();
        TradeRow b = new TradeRow();
        int same = 0;
        for (long i = 0; i < 100; i++) {
            new TradesGenerator(1, 100).row(i, a);
            new TradesGenerator(2, 100).row(i, b);
            same += a.pnl == b.pnl ? 1 : 0;
        }
        assertTrue(same < 5, "same pnl in " + same + " of 100 rows");
    }

    @Test
    void valuesStayInTheirDomainsAndCoverThem() {
        long rows = 200_000;
        TradesGenerator g = new TradesGenerator(7, rows);
        TradeRow r = new TradeRow();
        Set<Integer> desks = new HashSet<>();
        Set<Integer> currencies = new HashSet<>();
        int lastDay = 0;
        boolean negative = false;
        double maxAbs = 0;
        for (long i = 0; i < rows; i++) {
            g.row(i, r);
            assertTrue(r.desk >= 0 && r.desk < TradesGenerator.DESKS);
            assertEquals(r.desk, r.book / 20);
            assertTrue(r.counterparty >= 0 && r.counterparty < TradesGenerator.COUNTERPARTIES);
            assertTrue(r.day >= lastDay && r.day < TradesGenerator.DAYS, "dates ascend");
            assertTrue(r.notional >= 10_000 && r.notional <= 10_000_000 && r.notional % 1000 == 0);
            lastDay = r.day;
            desks.add(r.desk);
            currencies.add(r.currency);
            negative |= r.pnl < 0;
            maxAbs = Math.max(maxAbs, Math.abs(r.pnl));
        }
        assertEquals(TradesGenerator.DESKS, desks.size());
        assertEquals(TradesGenerator.CURRENCIES.size(), currencies.size());
        assertEquals(TradesGenerator.DAYS - 1, lastDay);
        assertTrue(negative);
        assertTrue(maxAbs > 250 * 100, "heavy tail: max |pnl| " + maxAbs);
    }

    @Test
    void businessDaysSkipWeekendsAndAscend() {
        int[] days = TradesGenerator.epochDays();
        assertEquals(250, days.length);
        for (int i = 0; i < days.length; i++) {
            DayOfWeek dow = LocalDate.ofEpochDay(days[i]).getDayOfWeek();
            assertNotEquals(DayOfWeek.SATURDAY, dow);
            assertNotEquals(DayOfWeek.SUNDAY, dow);
            assertTrue(i == 0 || days[i] > days[i - 1]);
            assertEquals(LocalDate.ofEpochDay(days[i]).toString(), TradesGenerator.dateText(i));
        }
    }

    @Test
    void q3NamesTheDatesOfDays100And149() {
        assertTrue(ReferenceQueries.Q3.contains("DATE '" + LocalDate.ofEpochDay(TradesGenerator.epochDay(100)) + "'"));
        assertTrue(ReferenceQueries.Q3.contains("DATE '" + LocalDate.ofEpochDay(TradesGenerator.epochDay(149)) + "'"));
    }

    @Test
    void nullPnlFallsInAboutTheAskedShareAndLeavesEveryOtherValueAsItWas() {
        TradesGenerator plain = new TradesGenerator(9, 100_000);
        TradesGenerator nulls = new TradesGenerator(9, 100_000, 0.1);
        TradeRow a = new TradeRow();
        TradeRow b = new TradeRow();
        int nullRows = 0;
        for (long i = 0; i < 100_000; i++) {
            plain.row(i, a);
            nulls.row(i, b);
            assertTrue(!a.pnlNull);
            if (b.pnlNull) {
                nullRows++;
                assertEquals(0.0, b.pnl);
            } else {
                assertEquals(a.pnl, b.pnl);
            }
            assertEquals(a.book, b.book);
            assertEquals(a.currency, b.currency);
            assertEquals(a.notional, b.notional);
        }
        assertTrue(nullRows > 9_500 && nullRows < 10_500, "NULL pnl rows: " + nullRows);
    }

    @Test
    void refusesAShareOfNullsOutsideZeroToOne() {
        io.numacube.numa.base.NumacubeException e = org.junit.jupiter.api.Assertions.assertThrows(
                io.numacube.numa.base.NumacubeException.class, () -> new TradesGenerator(1, 10, 1.5));
        assertEquals("the share of NULL pnl must be between 0 and 1: pnlNullFraction=1.5", e.getMessage());
    }

    @Test
    void everyBookKeepsTheDeskOfItsTradesAndALegalEntityOfItsRegion() {
        TradesGenerator g = new TradesGenerator(3, 50_000);
        TradeRow r = new TradeRow();
        for (long i = 0; i < 50_000; i++) {
            g.row(i, r);
            assertEquals(r.desk, Books.desk(r.book));
        }
        Set<String> pairs = new HashSet<>();
        Set<Integer> traders = new HashSet<>();
        for (int b = 0; b < Books.rows(); b++) {
            String region = Books.REGIONS.get(Books.region(b));
            String entity = Books.LEGAL_ENTITIES.get(Books.legalEntity(b));
            pairs.add(region + "/" + entity);
            traders.add(Books.trader(b));
            assertEquals(Books.desk(b), Books.trader(b) / Books.TRADERS_PER_DESK);
        }
        assertEquals(
                Set.of(
                        "AMER/NCB-CAN",
                        "AMER/NCB-USA",
                        "APAC/NCB-HKG",
                        "APAC/NCB-JPN",
                        "APAC/NCB-SGP",
                        "EMEA/NCB-DEU",
                        "EMEA/NCB-GBR",
                        "EMEA/NCB-IRL"),
                pairs);
        assertEquals(Books.TRADERS, traders.size());
    }
}
