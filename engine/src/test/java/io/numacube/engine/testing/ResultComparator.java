package io.numacube.engine.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Compares a numacube result with DuckDB's rows: exact for keys, counts, longs and exact columns; doubles within a
 * relative tolerance (or an absolute {@value #NEAR_ZERO} for sums that cancel to about zero). Without ORDER BY, both sides are sorted by their key columns first.
 */
public final class ResultComparator {

    /**
     * Differences this small count as equal whatever the relative error: a sum that cancels to about zero keeps the
     * rounding of its summands (around 1e-14 for the tests' values of magnitude 10^2), which no relative tolerance can
     * judge. The tests' values and results are far above it, so elsewhere the relative tolerance decides.
     */
    private static final double NEAR_ZERO = 1e-9;

    private ResultComparator() {}

    /**
     * @param keyColumns leading columns that identify a row (sorted on when {@code ordered} is false)
     * @param exact      per column, whether doubles must match exactly (MIN, MAX of plain values)
     * @param relTol     relative tolerance for other doubles
     */
    public static void assertSame(
            String context,
            QueryResult ours,
            List<Object[]> theirs,
            int keyColumns,
            boolean[] exact,
            boolean ordered,
            double relTol) {
        assertEquals(
                theirs.size(), ours.rowCount(), context + ": row count\nours:\n" + ours + "\ntheirs:\n" + dump(theirs));
        List<Integer> order = new ArrayList<>();
        for (int r = 0; r < ours.rowCount(); r++) {
            order.add(r);
        }
        List<Object[]> expected = new ArrayList<>(theirs);
        if (!ordered) {
            order.sort(Comparator.comparing(r -> keyText(ours, r, keyColumns)));
            expected.sort(Comparator.comparing(row -> keyText(row, keyColumns)));
        }
        for (int i = 0; i < expected.size(); i++) {
            int r = order.get(i);
            Object[] want = expected.get(i);
            for (int c = 0; c < ours.columnCount(); c++) {
                String where =
                        context + ": row " + i + " column " + ours.columnNames().get(c);
                Object w = want[c];
                if (w == null) {
                    assertTrue(ours.isNull(r, c), where + ": expected NULL, got " + ours.getString(r, c));
                    continue;
                }
                if (ours.isNull(r, c)) {
                    fail(where + ": expected " + w + ", got NULL");
                }
                ColumnType t = ours.columnTypes().get(c);
                if (w instanceof String s) {
                    assertEquals(s, ours.getString(r, c), where);
                } else if (w instanceof BigDecimal b) {
                    if (t == ColumnType.DOUBLE) {
                        close(where, b.doubleValue(), ours.getDouble(r, c), exact[c], relTol);
                    } else if (t == ColumnType.DECIMAL) {
                        assertEquals(
                                0,
                                b.compareTo(ours.getDecimal(r, c)),
                                where + ": expected exactly " + b.toPlainString() + ", got "
                                        + ours.getDecimal(r, c).toPlainString());
                    } else {
                        assertEquals(b.longValueExact(), ours.getLong(r, c), where);
                    }
                } else {
                    close(where, (Double) w, ours.getDouble(r, c), exact[c], relTol);
                }
            }
        }
    }

    private static void close(String where, double want, double got, boolean exact, double relTol) {
        if (exact || want == got || Double.isNaN(want) && Double.isNaN(got)) {
            assertEquals(want, got, 0.0, where);
            return;
        }
        double scale = Math.max(Math.abs(want), Math.abs(got));
        assertTrue(
                Math.abs(want - got) <= Math.max(relTol * scale, NEAR_ZERO),
                where + ": expected " + want + " got " + got + " (relative tolerance " + relTol + ", or " + NEAR_ZERO
                        + " near zero)");
    }

    private static String keyText(QueryResult r, int row, int keys) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < keys; c++) {
            sb.append(r.getString(row, c)).append('\u0001');
        }
        return sb.toString();
    }

    private static String keyText(Object[] row, int keys) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < keys; c++) {
            sb.append(row[c] instanceof BigDecimal b ? b.toPlainString() : String.valueOf(row[c]))
                    .append('\u0001');
        }
        return sb.toString();
    }

    public static String dump(List<Object[]> rows) {
        StringBuilder sb = new StringBuilder();
        for (Object[] r : rows.subList(0, Math.min(rows.size(), 30))) {
            sb.append(java.util.Arrays.toString(r)).append('\n');
        }
        return sb.toString();
    }
}
