package io.numacube.engine.fuzz;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;

/**
 * Compares a numacube result with DuckDB's rows and says how they differ, or null when they agree: strings and
 * integers exactly, NULL equal to NULL only, doubles equal when both are the same NaN or infinity or differ by at most
 * {@value #RELATIVE} of their magnitude or an absolute tolerance per column (for sums, which two engines add in
 * different orders: see {@link DifferentialRunner}). Without a fixed order, both sides are sorted by their key columns
 * first. Stateless.
 */
final class ResultMatcher {

    static final double RELATIVE = 1e-9;

    private ResultMatcher() {}

    /**
     * @param absolute per output column, the absolute tolerance of a double (called only when the relative one fails)
     * @return null when the results agree, else the first difference
     */
    static String difference(QueryResult ours, List<Object[]> theirs, FuzzQuery q, IntToDoubleFunction absolute) {
        if (ours.rowCount() != theirs.size()) {
            return "row count: numacube=" + ours.rowCount() + " duckdb=" + theirs.size();
        }
        if (ours.columnCount() != q.outputs().size()) {
            return "column count: numacube=" + ours.columnCount() + " expected="
                    + q.outputs().size();
        }
        int[] keys = q.keyColumns();
        List<Integer> order = new ArrayList<>();
        for (int r = 0; r < ours.rowCount(); r++) {
            order.add(r);
        }
        List<Object[]> expected = new ArrayList<>(theirs);
        if (!q.ordered()) {
            // each row's key text once: a comparator that built it per comparison made big results slow
            String[] ourKeys = new String[ours.rowCount()];
            for (int r = 0; r < ourKeys.length; r++) {
                ourKeys[r] = keyText(ours, r, keys);
            }
            order.sort(Comparator.comparing(r -> ourKeys[r]));
            Map<Object[], String> theirKeys = new IdentityHashMap<>();
            for (Object[] row : expected) {
                theirKeys.put(row, keyText(row, keys));
            }
            expected.sort(Comparator.comparing(theirKeys::get));
        }
        for (int i = 0; i < expected.size(); i++) {
            for (int c = 0; c < ours.columnCount(); c++) {
                String d = cellDifference(ours, order.get(i), c, expected.get(i)[c], absolute);
                if (d != null) {
                    return "row " + i + " column " + (c + 1) + " ("
                            + q.outputs().get(c).sql() + "): " + d;
                }
            }
        }
        return null;
    }

    private static String cellDifference(QueryResult ours, int r, int c, Object want, IntToDoubleFunction absolute) {
        boolean gotNull = ours.isNull(r, c);
        if (want == null || gotNull) {
            return want == null && gotNull ? null : "numacube=" + ours.getString(r, c) + " duckdb=" + want;
        }
        ColumnType t = ours.columnTypes().get(c);
        if (want instanceof String s) {
            String got = ours.getString(r, c);
            return s.equals(got) ? null : "numacube=" + quoted(got) + " duckdb=" + quoted(s);
        }
        if (t == ColumnType.DECIMAL && want instanceof BigDecimal b) {
            BigDecimal got = ours.getDecimal(r, c);
            return b.compareTo(got) == 0 ? null : "numacube=" + got.toPlainString() + " duckdb=" + b.toPlainString();
        }
        if (t != ColumnType.DOUBLE && want instanceof BigDecimal b) {
            long got = ours.getLong(r, c);
            return b.compareTo(BigDecimal.valueOf(got)) == 0 ? null : "numacube=" + got + " duckdb=" + b;
        }
        double w = ((Number) want).doubleValue();
        double g = ours.getDouble(r, c);
        if (closeEnough(w, g, () -> absolute.applyAsDouble(c))) {
            return null;
        }
        return "numacube=" + g + " duckdb=" + w + " (numacube type " + t + ")";
    }

    private static boolean closeEnough(double w, double g, java.util.function.DoubleSupplier absolute) {
        if (Double.compare(w, g) == 0 || w == g) {
            return true;
        }
        if (!Double.isFinite(w) || !Double.isFinite(g)) {
            return false;
        }
        double diff = Math.abs(w - g);
        return diff <= RELATIVE * Math.max(Math.abs(w), Math.abs(g)) || diff <= absolute.getAsDouble();
    }

    private static String quoted(String s) {
        return s == null ? "null" : "'" + s + "'";
    }

    /** -0.0 as 0.0: one group, whose sign is the first row's in DuckDB (any row's, with several threads). */
    private static String zero(String s) {
        return "-0.0".equals(s) ? "0.0" : s;
    }

    private static String keyText(QueryResult r, int row, int[] keys) {
        StringBuilder sb = new StringBuilder();
        for (int c : keys) {
            sb.append(zero(r.getString(row, c))).append('\u0001');
        }
        return sb.toString();
    }

    private static String keyText(Object[] row, int[] keys) {
        StringBuilder sb = new StringBuilder();
        for (int c : keys) {
            sb.append(zero(row[c] instanceof BigDecimal b ? b.toPlainString() : String.valueOf(row[c])))
                    .append('\u0001');
        }
        return sb.toString();
    }

    /** The first {@code max} rows of a numacube result, one a line. */
    static String dump(QueryResult r, int max) {
        StringBuilder sb = new StringBuilder();
        for (int row = 0; row < Math.min(max, r.rowCount()); row++) {
            List<String> cells = new ArrayList<>();
            for (int c = 0; c < r.columnCount(); c++) {
                cells.add(r.getString(row, c));
            }
            sb.append("  ").append(cells).append('\n');
        }
        return sb.append("  (").append(r.rowCount()).append(" rows)").toString();
    }

    /** The first {@code max} rows of DuckDB's answer, one a line. */
    static String dump(List<Object[]> rows, int max) {
        StringBuilder sb = new StringBuilder();
        for (Object[] row : rows.subList(0, Math.min(max, rows.size()))) {
            sb.append("  ").append(java.util.Arrays.toString(row)).append('\n');
        }
        return sb.append("  (").append(rows.size()).append(" rows)").toString();
    }
}
