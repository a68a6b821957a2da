package io.numacube.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BenchAnswerTest {

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    @Test
    void answersInAnotherRowOrderAndWithSumsRoundedOtherwiseAreTheSame() {
        BenchAnswer spark = BenchAnswer.of(List.of(row("EUR", 1234.5678901234), row("USD", -0.1 + 0.2)), false);
        BenchAnswer server = BenchAnswer.of(List.of(row("USD", 0.1), row("EUR", 1234.5678901234 * (1 + 1e-12))), false);
        assertEquals(Optional.empty(), spark.differenceFrom(server));
    }

    @Test
    void aSumThatDiffersBeyondTheToleranceIsADifferenceNamingRowAndColumn() {
        BenchAnswer spark = BenchAnswer.of(List.of(row("EUR", 1234.5678), row("USD", 10.0)), false);
        BenchAnswer server = BenchAnswer.of(List.of(row("EUR", 1234.5679), row("USD", 10.0)), false);
        assertEquals(
                Optional.of("row 0 column 2: 1234.5678 vs 1234.5679 (rows [EUR, 1234.5678] vs [EUR, 1234.5679])"),
                spark.differenceFrom(server));
    }

    @Test
    void aMissingRowAnotherKeyOrACountDifferAtAnySize() {
        BenchAnswer two = BenchAnswer.of(List.of(row("A", 1L), row("B", 2L)), false);
        assertEquals(
                Optional.of("row count: 2 vs 1"), two.differenceFrom(BenchAnswer.of(List.of(row("A", 1L)), false)));
        assertTrue(two.differenceFrom(BenchAnswer.of(List.of(row("A", 1L), row("C", 2L)), false))
                .isPresent());
        assertTrue(two.differenceFrom(BenchAnswer.of(List.of(row("A", 1L), row("B", 3L)), false))
                .isPresent());
    }

    @Test
    void spark_sLongsDatesAndDecimalsCompareWithTheServersJsonText() {
        BenchAnswer spark = BenchAnswer.of(
                List.of(row("BOOK-0001", java.sql.Date.valueOf("2025-01-02"), 3.5, 7L, new BigDecimal("2.50"), null)),
                false);
        BenchAnswer server = BenchAnswer.of(List.of(row("BOOK-0001", "2025-01-02", 3.5, "7", 2.5, null)), false);
        assertEquals(Optional.empty(), spark.differenceFrom(server));
    }

    @Test
    void anOrderedAnswerInAnotherOrderDiffers() {
        List<List<Object>> rows = List.of(row("CP-1", 9.0), row("CP-2", 8.0));
        BenchAnswer top = BenchAnswer.of(rows, true);
        assertTrue(top.differenceFrom(BenchAnswer.of(rows.reversed(), true)).isPresent());
        assertEquals(
                Optional.empty(), BenchAnswer.of(rows, false).differenceFrom(BenchAnswer.of(rows.reversed(), false)));
    }

    @Test
    void sumsThatCancelToAboutZeroCompareAbsolutely() {
        BenchAnswer a = BenchAnswer.of(List.of(row("X", 1e-10)), false);
        BenchAnswer b = BenchAnswer.of(List.of(row("X", -3e-9)), false);
        assertEquals(Optional.empty(), a.differenceFrom(b));
        assertTrue(
                a.differenceFrom(BenchAnswer.of(List.of(row("X", 1e-3)), false)).isPresent());
    }
}
