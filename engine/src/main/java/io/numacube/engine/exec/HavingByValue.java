package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import java.util.Arrays;

/**
 * A HAVING condition that reads one aggregate and nothing else (TPC-H Q18's {@code SUM(l_quantity) > 300} over 1.5M
 * groups, a few hundred distinct sums), evaluated once per distinct value of that aggregate and reused for every row
 * that holds the same value (a DOUBLE's same bits, NULL as one value), instead of once per row. The rows kept are
 * those of evaluating it per row, since the condition's value depends on the aggregate's alone; a value whose
 * evaluation fails is not remembered, so an error is raised at the first row that holds it, as per row. Remembers at
 * most {@link #MAX_VALUES} values, then evaluates the others per row. Not thread-safe: one per range of rows.
 */
final class HavingByValue {

    /** The system property that, {@code false}, evaluates HAVING per row (for an A/B of one process). */
    static final String PROPERTY = "numacube.havingByValue";

    /** The most distinct values remembered. */
    static final int MAX_VALUES = 1 << 16;

    private HavingByValue() {}

    /**
     * The aggregate that {@code having} reads when it reads that one alone (no group key, column or other aggregate),
     * and the memo is on; else -1.
     */
    static int onlyAggregate(Expr having) {
        if ("false".equals(System.getProperty(PROPERTY))) {
            return -1;
        }
        int[] agg = {-1};
        boolean[] other = {false};
        Expr.walk(having, x -> {
            switch (x) {
                case Expr.AggRef a -> {
                    other[0] |= agg[0] >= 0 && agg[0] != a.agg();
                    agg[0] = a.agg();
                }
                case Expr.KeyRef k -> other[0] = true;
                case Expr.Column c -> other[0] = true;
                case Expr.Agg g -> other[0] = true;
                default -> {}
            }
        });
        return other[0] ? -1 : agg[0];
    }

    /**
     * The rows of {@code aggs} (of {@code count}) that {@code having}, an expression of aggregate {@code a} alone
     * ({@link #onlyAggregate}), keeps, in row order; null when the aggregate holds strings (then evaluate per row).
     */
    static int[] kept(Expr having, int a, AggregateColumns aggs, int count) {
        if (aggs.strings[a] != null) {
            return null;
        }
        LongIntHashMap seen = new LongIntHashMap(64);
        boolean[] passOfSlot = new boolean[64];
        byte nullPass = -1;
        int[] kept = new int[count];
        int n = 0;
        for (int r = 0; r < count; r++) {
            boolean pass;
            if (aggs.nulls[a][r]) {
                if (nullPass < 0) {
                    nullPass = (byte) (passes(having, aggs, a, r) ? 1 : 0);
                }
                pass = nullPass == 1;
            } else {
                long key = aggs.isLong[a] ? aggs.longs[a][r] : Double.doubleToRawLongBits(aggs.doubles[a][r]);
                int slot = key == Long.MIN_VALUE ? -1 : seen.find(key);
                if (slot >= 0) {
                    pass = passOfSlot[slot];
                } else {
                    pass = passes(having, aggs, a, r);
                    if (key != Long.MIN_VALUE && seen.size() < MAX_VALUES) {
                        slot = seen.slotOf(key);
                        if (slot == passOfSlot.length) {
                            passOfSlot = Arrays.copyOf(passOfSlot, slot * 2);
                        }
                        passOfSlot[slot] = pass;
                    }
                }
            }
            if (pass) {
                kept[n++] = r;
            }
        }
        return Arrays.copyOf(kept, n);
    }

    private static boolean passes(Expr having, AggregateColumns aggs, int a, int r) {
        Object value = aggs.get(a, r);
        return Boolean.TRUE.equals(ScalarEvaluator.eval(having, x -> value));
    }
}
