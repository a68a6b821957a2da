package io.numacube.bench.peer;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The verdict of comparing two answers to the same query: equal, or the first difference found.
 *
 * <p>Rules: same number of columns and rows; strings and integers (keys, counts) exactly equal; DECIMALs exactly
 * equal to each other and to integers (by value: 1.50 equals 1.5 and 2.0 equals 2); doubles within a relative
 * tolerance {@code |a - b| <= tolerance * max(|a|, |b|)} (both NaN counts as equal); a double and any other number are
 * compared as doubles. Unordered answers (no ORDER BY) are sorted by their cells first, so row order does not
 * matter; ordered answers (ORDER BY ... LIMIT) are compared row by row. Immutable.
 *
 * @param equal      whether the answers agree under the rules
 * @param difference the first difference, readable ("row 3 column 2: expected=1.5 actual=1.6"); empty when equal
 */
public record ResultComparison(boolean equal, String difference) {

    /** Relative tolerance for sums and averages of doubles, as the cube issue asks. */
    public static final double SUM_TOLERANCE = 1e-9;

    private static final Comparator<List<Object>> ROW_ORDER = (a, b) -> {
        for (int i = 0; i < a.size(); i++) {
            int c = compareCells(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    };

    /** Compares {@code actual} against {@code expected} under the type's rules. */
    public static ResultComparison compare(
            ResultTable expected, ResultTable actual, boolean ordered, double tolerance) {
        if (expected.columns().size() != actual.columns().size()) {
            return differ("column counts differ: expected=" + expected.columns().size() + " " + expected.columns()
                    + " actual=" + actual.columns().size() + " " + actual.columns());
        }
        if (expected.rowCount() != actual.rowCount()) {
            return differ("row counts differ: expected=" + expected.rowCount() + " actual=" + actual.rowCount());
        }
        List<List<Object>> e = expected.rows();
        List<List<Object>> a = actual.rows();
        if (!ordered) {
            e = new ArrayList<>(e);
            a = new ArrayList<>(a);
            e.sort(ROW_ORDER);
            a.sort(ROW_ORDER);
        }
        for (int r = 0; r < e.size(); r++) {
            for (int c = 0; c < e.get(r).size(); c++) {
                Object x = e.get(r).get(c);
                Object y = a.get(r).get(c);
                if (!cellsEqual(x, y, tolerance)) {
                    return differ("row " + (r + 1) + " column " + (c + 1) + " ("
                            + expected.columns().get(c)
                            + "): expected=" + x + " actual=" + y + "; expected row=" + e.get(r)
                            + " actual row=" + a.get(r));
                }
            }
        }
        return new ResultComparison(true, "");
    }

    static boolean cellsEqual(Object x, Object y, double tolerance) {
        if (x == null || y == null) {
            return x == y;
        }
        if (x instanceof Double || y instanceof Double) {
            if (!(x instanceof Number nx) || !(y instanceof Number ny)) {
                return false;
            }
            double a = nx.doubleValue();
            double b = ny.doubleValue();
            if (Double.isNaN(a) || Double.isNaN(b)) {
                return Double.isNaN(a) && Double.isNaN(b);
            }
            return a == b || Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b));
        }
        if (x instanceof BigDecimal || y instanceof BigDecimal) {
            return x instanceof Number nx && y instanceof Number ny && exact(nx).compareTo(exact(ny)) == 0;
        }
        return Objects.equals(x, y);
    }

    private static BigDecimal exact(Number n) {
        return n instanceof BigDecimal d ? d : BigDecimal.valueOf(n.longValue());
    }

    private static int compareCells(Object x, Object y) {
        if (x == null || y == null) {
            return x == null ? (y == null ? 0 : -1) : 1;
        }
        if (x instanceof Long lx && y instanceof Long ly) {
            return Long.compare(lx, ly);
        }
        if (x instanceof BigDecimal && !(y instanceof Double) || y instanceof BigDecimal && !(x instanceof Double)) {
            if (x instanceof Number nx && y instanceof Number ny) {
                return exact(nx).compareTo(exact(ny));
            }
        }
        if (x instanceof Number nx && y instanceof Number ny) {
            return Double.compare(nx.doubleValue(), ny.doubleValue());
        }
        if (x instanceof Number) {
            return -1;
        }
        if (y instanceof Number) {
            return 1;
        }
        return x.toString().compareTo(y.toString());
    }

    private static ResultComparison differ(String why) {
        return new ResultComparison(false, why);
    }
}
