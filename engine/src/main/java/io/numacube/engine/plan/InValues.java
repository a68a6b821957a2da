package io.numacube.engine.plan;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The values of an IN list, prepared for membership tests in O(log n) instead of one comparison per value (a
 * 10,000-value list over a million rows). Membership follows the engine's comparison rules: a BIGINT operand
 * matches BIGINT values exactly and DOUBLE values as a double; DOUBLE operands compare as doubles, where NaN equals
 * NaN and -0.0 equals 0.0 (as DuckDB); strings (and dates, as epoch days) by equality. Immutable.
 */
public final class InValues {

    private final long[] longs;
    private final double[] doubles;
    private final double[] allAsDoubles;
    private final Set<String> strings;

    InValues(List<Expr.Literal> values) {
        long[] ls = new long[values.size()];
        double[] ds = new double[values.size()];
        double[] all = new double[values.size()];
        Set<String> ss = new HashSet<>();
        int nl = 0;
        int nd = 0;
        int na = 0;
        for (Expr.Literal v : values) {
            switch (v.value()) {
                case String s -> ss.add(s);
                case Long x -> {
                    ls[nl++] = x;
                    all[na++] = normal(x.doubleValue());
                }
                case Number x -> {
                    ds[nd++] = normal(x.doubleValue());
                    all[na++] = normal(x.doubleValue());
                }
                default -> throw new IllegalArgumentException("IN value: " + v);
            }
        }
        longs = Arrays.copyOf(ls, nl);
        doubles = Arrays.copyOf(ds, nd);
        allAsDoubles = Arrays.copyOf(all, na);
        Arrays.sort(longs);
        Arrays.sort(doubles);
        Arrays.sort(allAsDoubles);
        strings = Set.copyOf(ss);
    }

    /** -0.0 as 0.0 and every NaN as the one NaN, so that sorted search (Double.compare order) matches SQL equality. */
    public static double normal(double d) {
        return d == 0 ? 0.0 : d != d ? Double.NaN : d;
    }

    /** Whether a BIGINT (or INT, or DATE epoch day) value is in the list. */
    public boolean containsLong(long x) {
        return Arrays.binarySearch(longs, x) >= 0
                || doubles.length > 0 && Arrays.binarySearch(doubles, normal((double) x)) >= 0;
    }

    /** Whether a DOUBLE value is in the list. */
    public boolean containsDouble(double x) {
        return Arrays.binarySearch(allAsDoubles, normal(x)) >= 0;
    }

    /** Whether a non-null scalar (String, Long or Double) is in the list. */
    public boolean contains(Object x) {
        return switch (x) {
            case String s -> strings.contains(s);
            case Long l -> containsLong(l);
            case Number d -> containsDouble(d.doubleValue());
            default -> false;
        };
    }

    /** Whether every value is a BIGINT (integer) literal. */
    public boolean onlyLongs() {
        return doubles.length == 0 && strings.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InValues;
    }

    @Override
    public int hashCode() {
        return 0;
    }
}
