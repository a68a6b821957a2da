package io.numacube.bench.peer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultComparisonTest {

    private static ResultTable table(List<?>... rows) {
        List<List<Object>> r = java.util.Arrays.stream(rows)
                .map(row -> (List<Object>) new java.util.ArrayList<Object>(row))
                .toList();
        int columns = rows.length == 0 ? 2 : rows[0].size();
        List<String> names = java.util.stream.IntStream.range(0, columns)
                .mapToObj(i -> "c" + i)
                .toList();
        return new ResultTable(names, r);
    }

    private static ResultComparison unordered(ResultTable e, ResultTable a) {
        return ResultComparison.compare(e, a, false, ResultComparison.SUM_TOLERANCE);
    }

    @Test
    void decimalsAreComparedExactlyWhateverTheirScale() {
        java.math.BigDecimal cents = new java.math.BigDecimal("1234567890123.45");
        assertTrue(unordered(
                        table(List.of("a", cents)), table(List.of("a", new java.math.BigDecimal("1234567890123.4500"))))
                .equal());
        assertTrue(unordered(table(List.of("a", new java.math.BigDecimal("2.00"))), table(List.of("a", 2L)))
                .equal());
        // one cent apart is a relative 1e-15, inside the tolerance for doubles, but two DECIMALs must be equal
        assertFalse(
                unordered(table(List.of("a", cents)), table(List.of("a", new java.math.BigDecimal("1234567890123.46"))))
                        .equal());
        assertTrue(unordered(table(List.of("a", cents)), table(List.of("a", cents.doubleValue())))
                .equal());
    }

    @Test
    void sameGroupsInAnotherOrderAreEqualWhenOrderDoesNotMatter() {
        ResultTable e = table(List.of("EUR", 1.5), List.of("USD", 2.5));
        ResultTable a = table(List.of("USD", 2.5), List.of("EUR", 1.5));
        assertTrue(unordered(e, a).equal());
    }

    @Test
    void anotherOrderDiffersWhenOrderIsPartOfTheAnswer() {
        ResultTable e = table(List.of(7L, 9.0), List.of(3L, 8.0));
        ResultTable a = table(List.of(3L, 8.0), List.of(7L, 9.0));
        ResultComparison c = ResultComparison.compare(e, a, true, ResultComparison.SUM_TOLERANCE);
        assertFalse(c.equal());
        assertTrue(c.difference().contains("row 1 column 1"), c.difference());
    }

    @Test
    void sumsWithinRelativeToleranceAreEqual() {
        double x = 123456789.123;
        ResultTable e = table(List.of("A", x));
        ResultTable a = table(List.of("A", x * (1 + 5e-10)));
        assertTrue(unordered(e, a).equal());
    }

    @Test
    void sumsBeyondRelativeToleranceDifferAndTheDifferenceNamesBothValues() {
        ResultTable e = table(List.of("A", 100.0));
        ResultTable a = table(List.of("A", 100.0 * (1 + 1e-8)));
        ResultComparison c = unordered(e, a);
        assertFalse(c.equal());
        assertTrue(c.difference().contains("expected=100.0"), c.difference());
        assertTrue(c.difference().contains("column 2"), c.difference());
    }

    @Test
    void countsMustBeExact() {
        assertFalse(unordered(table(List.of("A", 1000000000001L)), table(List.of("A", 1000000000000L)))
                .equal());
    }

    @Test
    void aMissingGroupIsADifference() {
        ResultComparison c = unordered(table(List.of("A", 1L), List.of("B", 2L)), table(List.of("A", 1L)));
        assertFalse(c.equal());
        assertTrue(c.difference().contains("row counts differ"), c.difference());
    }

    @Test
    void aDifferentKeyIsADifference() {
        assertFalse(unordered(table(List.of("A", 1L), List.of("B", 2L)), table(List.of("A", 1L), List.of("C", 2L)))
                .equal());
    }

    @Test
    void differentColumnCountsDiffer() {
        ResultTable e = new ResultTable(List.of("k", "v"), List.of(List.of("A", 1L)));
        ResultTable a = new ResultTable(List.of("k"), List.of(List.of("A")));
        assertTrue(unordered(e, a).difference().contains("column counts differ"));
    }

    @Test
    void integralTypesOfEveryWidthCompareEqual() {
        ResultTable e = table(List.of((short) 3, BigInteger.valueOf(12)));
        ResultTable a = table(List.of(3, 12L));
        assertTrue(unordered(e, a).equal());
    }

    @Test
    void datesCompareEqualWhateverTheirJavaType() {
        LocalDate d = LocalDate.of(2024, 3, 1);
        ResultTable e = table(List.of(java.sql.Date.valueOf(d), 1L));
        ResultTable a = table(List.of(d, 1L));
        assertTrue(unordered(e, a).equal());
    }

    @Test
    void integerCountAgainstDoubleOfSameValueIsEqual() {
        assertTrue(unordered(table(List.of("A", 4L)), table(List.of("A", 4.0))).equal());
    }

    @Test
    void nullOnlyEqualsNull() {
        List<Object> withNull = new java.util.ArrayList<>();
        withNull.add("A");
        withNull.add(null);
        ResultTable e = new ResultTable(List.of("k", "v"), List.of(withNull));
        assertTrue(unordered(e, e).equal());
        assertFalse(unordered(e, table(List.of("A", 0.0))).equal());
    }
}
