package io.numacube.spark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One engine's answer to a bench query, in a form the three engines' answers compare in: each row's values as text,
 * except floating-point values, which are kept as doubles and compared with a relative tolerance (a sum over two
 * shards, over Parquet row groups or over one server's morsels adds in another order). Rows of an unordered answer
 * are sorted by their text; an ordered answer (ORDER BY ... LIMIT) is compared in its order. Immutable.
 *
 * @param rows the rows, each a list of {@link String} or {@link Double} values (NULL as the text {@code NULL})
 */
record BenchAnswer(List<List<Object>> rows) {

    /** The relative difference two doubles may have and still be the same answer. */
    static final double RELATIVE_TOLERANCE = 1e-9;
    /** The absolute difference below which two doubles are equal (a sum that cancels to about zero). */
    static final double ABSOLUTE_TOLERANCE = 1e-6;

    BenchAnswer {
        rows = rows.stream().map(List::copyOf).toList();
    }

    /** The answer of {@code raw} rows (values as an engine returns them), sorted unless {@code ordered}. */
    static BenchAnswer of(List<List<Object>> raw, boolean ordered) {
        List<List<Object>> rows = new ArrayList<>();
        for (List<Object> r : raw) {
            List<Object> values = new ArrayList<>();
            for (Object v : r) {
                values.add(value(v));
            }
            rows.add(values);
        }
        if (!ordered) {
            rows.sort(Comparator.comparing(BenchAnswer::sortKey));
        }
        return new BenchAnswer(rows);
    }

    private static Object value(Object v) {
        return switch (v) {
            case null -> "NULL";
            case Double d -> d;
            case Float f -> f.doubleValue();
            case java.math.BigDecimal d -> d.doubleValue();
            default -> v.toString();
        };
    }

    private static String sortKey(List<Object> row) {
        StringBuilder key = new StringBuilder();
        for (Object v : row) {
            key.append(v instanceof Double ? "" : v).append('\u0001');
        }
        for (Object v : row) {
            if (v instanceof Double d) {
                key.append(d).append('\u0001');
            }
        }
        return key.toString();
    }

    /**
     * The first difference between this answer and {@code other}, in words naming the row and column, or empty when
     * they are the same answer.
     */
    Optional<String> differenceFrom(BenchAnswer other) {
        if (rows.size() != other.rows.size()) {
            return Optional.of("row count: " + rows.size() + " vs " + other.rows.size());
        }
        for (int i = 0; i < rows.size(); i++) {
            List<Object> a = rows.get(i);
            List<Object> b = other.rows.get(i);
            if (a.size() != b.size()) {
                return Optional.of("row " + i + ": " + a.size() + " columns vs " + b.size());
            }
            for (int c = 0; c < a.size(); c++) {
                if (!same(a.get(c), b.get(c))) {
                    return Optional.of("row " + i + " column " + (c + 1) + ": " + a.get(c) + " vs " + b.get(c)
                            + " (rows " + a + " vs " + b + ")");
                }
            }
        }
        return Optional.empty();
    }

    private static boolean same(Object a, Object b) {
        if (a instanceof Double x && b instanceof Double y) {
            double diff = Math.abs(x - y);
            return x.equals(y)
                    || diff <= ABSOLUTE_TOLERANCE
                    || diff <= RELATIVE_TOLERANCE * Math.max(Math.abs(x), Math.abs(y));
        }
        return a.equals(b);
    }
}
