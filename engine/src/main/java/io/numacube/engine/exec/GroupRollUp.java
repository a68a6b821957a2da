package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.numa.base.NumacubeException;
import java.util.Arrays;

/**
 * The first half of finalizing: rolls the merged {@link AggregationState}'s groups up into result rows (one per
 * GROUP BY group; several groups roll into one row only when a join key was appended for post-processing, whose
 * {@link FinalAggregate#factorByJoinKeyCode()} is applied here), then computes every aggregate's SQL value. Works per
 * group, never per row. One per query; not thread-safe.
 *
 * <p>Invariant: after {@link #add}, {@code keyOfRow[r]} is the GROUP BY key of row {@code r < rows()}, and the
 * per-aggregate partial values of that row hold every group seen for it.
 */
final class GroupRollUp {

    private final PhysicalPlan plan;
    private final int joinKeyPosition;
    private final LongIntHashMap rowOfKey;
    private int rows;
    private long[] keyOfRow;
    private long[] counts;
    private final double[][] doubles;
    private final long[][] longs;
    private final boolean[][] seen;
    /** Per SUM/AVG aggregate over a BIGINT, the multiples of 2^64 a row's sum lacks (as AggregationState's). */
    private final long[][] carries;
    /** Per aggregate over an argument that may be NULL, the values (non-NULL arguments) rolled into each row; else null. */
    private final long[][] valueCounts;
    /** Per COUNT(DISTINCT ...) aggregate, the distinct values counted per row. */
    private final long[][] distinctCounts;

    /**
     * Per COUNT(DISTINCT ...) aggregate, the (row, code) pairs seen, sized for one per group at the start (each group
     * holds one pair; TPC-H Q16 rolls 118,000 groups up and grew the map ten times over).
     */
    private final LongIntHashMap[] distinctSeen;

    /** The system property that, {@code false}, starts the seen pairs' map small (for an A/B of one process). */
    static final String PRESIZE_PROPERTY = "numacube.presizeDistinct";

    private GroupRollUp(PhysicalPlan plan, int capacity) {
        this.plan = plan;
        GroupKeySpace keys = plan.keys();
        int join = -1;
        for (int i = 0; i < keys.distinctFrom(); i++) {
            if (keys.columns()[i] == plan.postColumn() && keys.plain(i)) {
                join = i;
            }
        }
        joinKeyPosition = join;
        int nAgg = plan.aggregates().length;
        // without a post-processing key every group is one result row: no roll-up map needed
        rowOfKey = keys.appendsJoinKey() ? new LongIntHashMap(256) : null;
        keyOfRow = new long[capacity];
        counts = new long[capacity];
        doubles = new double[nAgg][capacity];
        longs = new long[nAgg][capacity];
        seen = new boolean[nAgg][capacity];
        carries = new long[nAgg][];
        valueCounts = new long[nAgg][];
        distinctCounts = new long[nAgg][];
        distinctSeen = new LongIntHashMap[nAgg];
        for (int a = 0; a < nAgg; a++) {
            if (plan.aggregates()[a].finish() == FinalAggregate.Finish.DISTINCT_VALUES) {
                distinctCounts[a] = new long[capacity];
                distinctSeen[a] =
                        new LongIntHashMap("false".equals(System.getProperty(PRESIZE_PROPERTY)) ? 256 : capacity);
                continue;
            }
            int i = plan.aggregates()[a].finish() == FinalAggregate.Finish.ROW_COUNT
                    ? -1
                    : accumulatorOf(plan.aggregates()[a]);
            if (i >= 0 && plan.accumulators()[i].nullable()) {
                valueCounts[a] = new long[capacity];
            }
        }
        if (keys.logicalKeys() == 0) {
            rows = 1;
            if (rowOfKey != null) {
                rowOfKey.slotOf(0);
            }
        }
    }

    /** Rolls up every group of {@code merged} (null: no morsel ran) and returns the finished aggregate values. */
    static GroupRollUp of(PhysicalPlan plan, AggregationState merged) {
        return of(plan, merged, 0, merged == null ? 0 : merged.groups());
    }

    /**
     * Rolls up the groups {@code [from, to)} of {@code merged}, in group order: the rows {@link #of} gives for them,
     * when every group is a row of its own ({@link #rowPerGroup}). Read only of {@code merged}, so ranges may be
     * rolled up side by side.
     */
    static GroupRollUp of(PhysicalPlan plan, AggregationState merged, int from, int to) {
        GroupRollUp r = new GroupRollUp(plan, Math.max(16, Math.min(to - from, 1 << 20)));
        GroupValues values = merged == null ? null : merged.values();
        for (int g = from; g < to; g++) {
            if (values.rowCounts[g] != 0) {
                r.add(merged, values, g);
            }
        }
        return r;
    }

    /**
     * Whether every group of {@code plan} is one result row of its own, found by no state shared between groups: a
     * GROUP BY without a post-processing join key and without COUNT(DISTINCT ...) (whose seen pairs are one map).
     * Then the rows of consecutive ranges of groups, laid end to end, are the rows of all of them.
     */
    static boolean rowPerGroup(PhysicalPlan plan) {
        if (plan.keys().appendsJoinKey() || plan.keys().logicalKeys() == 0) {
            return false;
        }
        for (FinalAggregate a : plan.aggregates()) {
            if (a.finish() == FinalAggregate.Finish.DISTINCT_VALUES) {
                return false;
            }
        }
        return true;
    }

    int rows() {
        return rowOfKey != null ? rowOfKey.size() : rows;
    }

    /** The GROUP BY key of each row ({@link GroupKeySpace}'s logical key). */
    long[] keyOfRow() {
        return keyOfRow;
    }

    private void add(AggregationState merged, GroupValues values, int g) {
        GroupKeySpace keys = plan.keys();
        long k = merged.keyOf(g);
        long logical = keys.logicalKey(k);
        int row = rowOfKey != null ? rowOfKey.slotOf(logical) : keys.logicalKeys() == 0 ? 0 : rows++;
        if (row >= keyOfRow.length) {
            grow(Math.max(keyOfRow.length * 2, row + 1));
        }
        keyOfRow[row] = logical;
        counts[row] += values.rowCounts[g];
        FinalAggregate[] aggs = plan.aggregates();
        for (int a = 0; a < aggs.length; a++) {
            if (valueCounts[a] != null) {
                valueCounts[a][row] += values.valueCount(accumulatorOf(aggs[a]), g);
            }
            switch (aggs[a].finish()) {
                case DISTINCT_VALUES -> addDistinct(a, row, keys, k, aggs[a].sum());
                case ROW_COUNT -> {}
                case FROM_ACCUMULATORS -> addDirect(aggs[a], values, g, a, row);
                case SCALED_BY_LOOKUP -> addScaled(aggs[a], values, g, a, row, keys.code(k, joinKeyPosition));
            }
        }
    }

    private void grow(int capacity) {
        keyOfRow = Arrays.copyOf(keyOfRow, capacity);
        counts = Arrays.copyOf(counts, capacity);
        for (int a = 0; a < doubles.length; a++) {
            doubles[a] = Arrays.copyOf(doubles[a], capacity);
            longs[a] = Arrays.copyOf(longs[a], capacity);
            seen[a] = Arrays.copyOf(seen[a], capacity);
            if (valueCounts[a] != null) {
                valueCounts[a] = Arrays.copyOf(valueCounts[a], capacity);
            }
            if (distinctCounts[a] != null) {
                distinctCounts[a] = Arrays.copyOf(distinctCounts[a], capacity);
            }
            if (carries[a] != null) {
                carries[a] = Arrays.copyOf(carries[a], capacity);
            }
        }
    }

    /** Counts the code of distinct key {@code d} in group key {@code k} once per row, unless it stands for NULL. */
    private void addDistinct(int a, int row, GroupKeySpace keys, long k, int d) {
        int position = keys.distinctFrom() + d;
        int code = keys.code(k, position);
        if (keys.dictionaries()[position].isNull(code)) {
            return;
        }
        LongIntHashMap seen = distinctSeen[a];
        int before = seen.size();
        seen.slotOf((long) row * keys.cardinalities()[position] + code);
        if (seen.size() > before) {
            distinctCounts[a][row]++;
        }
    }

    /** The accumulator whose NULLs an aggregate's value count follows: its sum, or its min (scaled MIN/MAX). */
    private static int accumulatorOf(FinalAggregate p) {
        return p.finish() == FinalAggregate.Finish.SCALED_BY_LOOKUP && p.sum() < 0 ? p.min() : p.accumulator();
    }

    /** The post-aggregation step: the join key's accumulated value times its lookup factor, rolled into the row. */
    private void addScaled(FinalAggregate p, GroupValues m, int g, int a, int row, int joinCode) {
        double f = p.factorByJoinKeyCode()[joinCode];
        if (p.kind() == Expr.AggKind.SUM || p.kind() == Expr.AggKind.AVG) {
            doubles[a][row] += f * m.doubleAccumulators[p.sum()][g];
            return;
        }
        double lo = m.doubleAccumulators[p.min()][g];
        double hi = m.doubleAccumulators[p.max()][g];
        double v;
        if (p.kind() == Expr.AggKind.MIN) {
            v = f >= 0 ? f * lo : f * hi;
            doubles[a][row] = seen[a][row] ? AccumulatorKernels.minD(doubles[a][row], v) : v;
        } else {
            v = f >= 0 ? f * hi : f * lo;
            doubles[a][row] = seen[a][row] ? AccumulatorKernels.maxD(doubles[a][row], v) : v;
        }
        seen[a][row] = true;
    }

    private void addDirect(FinalAggregate p, GroupValues m, int g, int a, int row) {
        Accumulator acc = plan.accumulators()[p.accumulator()];
        int i = p.accumulator();
        switch (p.kind()) {
            case SUM, AVG -> {
                if (acc.kind().exact()) {
                    long x = longs[a][row];
                    long v = m.longAccumulators[i][g];
                    long sum = x + v;
                    long carry = (m.wrapped(i, g) ? m.sumCarries[i][g] : 0) + AccumulatorKernels.carryOf(x, v, sum);
                    if (carry != 0) {
                        if (carries[a] == null) {
                            carries[a] = new long[keyOfRow.length];
                        }
                        carries[a][row] += carry;
                    }
                    longs[a][row] = sum;
                } else {
                    doubles[a][row] += m.doubleAccumulators[i][g];
                }
            }
            case MIN, MAX -> {
                boolean min = p.kind() == Expr.AggKind.MIN;
                if (acc.kind().exact()) {
                    long v = m.longAccumulators[i][g];
                    longs[a][row] = !seen[a][row] ? v : min ? Math.min(longs[a][row], v) : Math.max(longs[a][row], v);
                } else {
                    double v = m.doubleAccumulators[i][g];
                    doubles[a][row] = !seen[a][row]
                            ? v
                            : min
                                    ? AccumulatorKernels.minD(doubles[a][row], v)
                                    : AccumulatorKernels.maxD(doubles[a][row], v);
                }
                seen[a][row] = true;
            }
            default -> {}
        }
    }

    /** Every aggregate's SQL value per row. */
    AggregateColumns values() {
        FinalAggregate[] aggs = plan.aggregates();
        int n = rows();
        AggregateColumns values = new AggregateColumns(aggs.length, n);
        for (int a = 0; a < aggs.length; a++) {
            for (int r = 0; r < n; r++) {
                value(aggs[a], a, r, values);
            }
        }
        return values;
    }

    /**
     * {@code sum / count} rounded once from the exact quotient (as DuckDB's AVG of BIGINT, which divides its exact
     * sum): converting the sum to a double first would round a sum beyond 2^53 before dividing it.
     */
    static double exactAverage(long sum, long count) {
        long quotient = sum / count;
        if (Math.abs(quotient) < 1L << 52) {
            return quotient + (double) (sum % count) / count;
        }
        return average(java.math.BigInteger.valueOf(sum), count, 0);
    }

    /**
     * The average of a DECIMAL of {@code scale} digits after the point whose unscaled values sum to {@code sum}: the
     * exact quotient {@code sum / (count * 10^scale)} rounded once, in one division where both are exact doubles.
     * Averaging the unscaled longs and then dividing by 10^scale rounded twice: 62.00 over 3 rows gave
     * 20.666666666666664, not 20.666666666666668, so 1.5 times it was below 31.
     */
    static double exactAverage(long sum, long count, int scale) {
        if (scale == 0) {
            return exactAverage(sum, count);
        }
        if (ColumnSpec.powerOfTen(scale) <= (1L << 53) / count && Math.abs(sum) <= 1L << 53) {
            return (double) sum / (count * ColumnSpec.powerOfTen(scale));
        }
        return average(java.math.BigInteger.valueOf(sum), count, scale);
    }

    /** {@code sum / (count * 10^scale)}, rounded once to a double from a 34-digit quotient. */
    private static double average(java.math.BigInteger sum, long count, int scale) {
        return new java.math.BigDecimal(sum, scale)
                .divide(java.math.BigDecimal.valueOf(count), java.math.MathContext.DECIMAL128)
                .doubleValue();
    }

    /**
     * A BIGINT SUM or AVG whose running sum left 64 bits: AVG divides the 128-bit sum; SUM is that sum when it fits
     * BIGINT again (DuckDB sums in 128 bits, so SUM of MAX, 1 and -1 is MAX), else an overflow error, since numacube
     * has no HUGEINT result type.
     */
    private Object wideSumValue(FinalAggregate p, Accumulator acc, int a, int r, long count) {
        java.math.BigInteger sum = java.math.BigInteger.valueOf(carries[a][r])
                .shiftLeft(64)
                .add(java.math.BigInteger.valueOf(longs[a][r]));
        if (p.kind() == Expr.AggKind.AVG) {
            return average(sum, count, p.averageScale());
        }
        if (sum.bitLength() > 63) {
            throw sumOverflow(plan, acc);
        }
        return sum.longValue();
    }

    /**
     * Stores the SQL value of aggregate {@code a} for row {@code r} in {@code out}: a long, a double, a String (a
     * dimension's MIN/MAX) or NULL; numbers unboxed.
     */
    private void value(FinalAggregate p, int a, int r, AggregateColumns out) {
        if (p.finish() == FinalAggregate.Finish.DISTINCT_VALUES) {
            out.setLong(a, r, distinctCounts[a][r]);
            return;
        }
        long count = valueCounts[a] != null ? valueCounts[a][r] : counts[r];
        if (p.finish() == FinalAggregate.Finish.ROW_COUNT
                || p.kind() == Expr.AggKind.COUNT
                || p.kind() == Expr.AggKind.COUNT_STAR) {
            out.setLong(a, r, count);
            return;
        }
        if (count == 0) {
            out.set(a, r, null);
            return;
        }
        Accumulator acc =
                p.finish() == FinalAggregate.Finish.FROM_ACCUMULATORS ? plan.accumulators()[p.accumulator()] : null;
        if (acc == null || !acc.kind().exact()) {
            double d = doubles[a][r];
            if (p.kind() == Expr.AggKind.AVG) {
                out.setDouble(a, r, d / ((double) count * ColumnSpec.powerOfTen(p.averageScale())));
            } else if (p.longResult()) {
                out.setLong(a, r, Math.round(d));
            } else {
                out.setDouble(a, r, d);
            }
        } else if (carries[a] != null && carries[a][r] != 0) {
            out.set(a, r, wideSumValue(p, acc, a, r, count));
        } else if (p.kind() == Expr.AggKind.AVG) {
            out.setDouble(a, r, exactAverage(longs[a][r], count, p.averageScale()));
        } else if (acc.ranks() != null) {
            out.set(a, r, QueryCompiler.scalar(acc.ranks(), (int) longs[a][r]));
        } else if (acc.overCodes()) {
            out.set(a, r, QueryCompiler.scalar(plan.fact().dictionary(acc.column()), (int) longs[a][r]));
        } else {
            out.setLong(a, r, longs[a][r]);
        }
    }

    /** A SUM over a BIGINT column or expression that no longer fits 64 bits. */
    private static NumacubeException sumOverflow(PhysicalPlan plan, Accumulator acc) {
        return acc.text() != null ? sumOverflow(acc.text()) : sumOverflow(plan, acc.column());
    }

    /** A SUM over a BIGINT column that no longer fits 64 bits: an error, never a wrapped-around answer. */
    private static NumacubeException sumOverflow(PhysicalPlan plan, int column) {
        return sumOverflow(column >= 0 ? plan.fact().schema().column(column).name() : "a BIGINT expression");
    }

    /** The overflow error of a SUM over {@code name} (a column or an integer expression's text). */
    private static NumacubeException sumOverflow(String name) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                BatchExpression.NUMERIC_OUT_OF_RANGE,
                "SUM(" + name + ") overflows BIGINT "
                        + "(the sum leaves -9223372036854775808..9223372036854775807) — sum it as DOUBLE instead: "
                        + "SUM(CAST(" + name + " AS DOUBLE))",
                null,
                null);
    }
}
