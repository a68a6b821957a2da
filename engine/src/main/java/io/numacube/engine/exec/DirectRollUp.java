package io.numacube.engine.exec;

/**
 * The rolled-up rows of the plainest GROUP BY, read straight from the merged state: every group is a result row of
 * its own ({@link GroupRollUp#rowPerGroup}) in a dense key space, and every aggregate is a row count or a SUM of
 * doubles over an argument that is never NULL (so no group's value is NULL and its count is its row count). Each
 * group with rows is a row, in group order; its key codes are decoded from its index by counting the mixed-radix
 * digits up (no division per key); its values are its accumulators: a sum as {@link GroupRollUp} rolls it up ({@code
 * 0.0 + sum}, so a sum of -0.0 finishes as 0.0 there and here), a count as it is. These are the rows, codes and
 * values the general roll-up gives, without its per-row arrays and per-aggregate dispatch.
 *
 * <p>Stateless; reads the merged state only. {@value #PROPERTY}{@code =false} turns it off (for an A/B of one
 * process).
 */
final class DirectRollUp {

    /** The system property that, {@code false}, rolls every query up through {@link GroupRollUp}. */
    static final String PROPERTY = "numacube.directRollUp";

    private DirectRollUp() {}

    /** Whether the merged state of {@code plan} rolls up directly (see the class comment). */
    static boolean serves(PhysicalPlan plan, AggregationState merged) {
        if (merged == null
                || !plan.keys().dense()
                || !GroupRollUp.rowPerGroup(plan)
                || "false".equals(System.getProperty(PROPERTY))) {
            return false;
        }
        for (FinalAggregate a : plan.aggregates()) {
            boolean count = a.finish() == FinalAggregate.Finish.ROW_COUNT;
            boolean sum = a.finish() == FinalAggregate.Finish.FROM_ACCUMULATORS
                    && a.kind() == io.numacube.engine.plan.Expr.AggKind.SUM
                    && !a.longResult()
                    && plan.accumulators()[a.sum()].kind() == Accumulator.Kind.SUM_DOUBLE
                    && !plan.accumulators()[a.sum()].nullable();
            if (!count && !sum) {
                return false;
            }
        }
        return true;
    }

    /** The groups {@code [from, to)} of {@code merged} with rows, in group order: the result rows. */
    static int[] groupsWithRows(AggregationState merged, int from, int to) {
        long[] counts = merged.values().rowCounts;
        int rows = 0;
        for (int g = from; g < to; g++) {
            rows += counts[g] != 0 ? 1 : 0;
        }
        int[] groups = new int[rows];
        int at = 0;
        for (int g = from; g < to && at < rows; g++) {
            if (counts[g] != 0) {
                groups[at++] = g;
            }
        }
        return groups;
    }

    /** The GROUP BY codes of each of {@code groups} (ascending), {@code logicalKeys} per row. */
    static int[] keyCodes(GroupKeySpace keys, int[] groups) {
        int per = keys.logicalKeys();
        if (per == 1 && !keys.dependent(0)) {
            int[] codes = new int[groups.length];
            for (int r = 0; r < groups.length; r++) {
                codes[r] = keys.code(groups[r], 0);
            }
            return codes;
        }
        int[] codes = new int[groups.length * per];
        for (int i = 0; i < per; i++) {
            if (keys.dependent(i)) {
                for (int r = 0; r < groups.length; r++) {
                    codes[r * per + i] = keys.code(groups[r], i);
                }
            }
        }
        int[] digits = new int[per];
        int at = 0;
        for (int r = 0; r < groups.length; r++) {
            int g = groups[r];
            while (at < g) {
                at = next(keys, digits, at, g);
            }
            for (int i = 0; i < per; i++) {
                if (!keys.dependent(i)) {
                    codes[r * per + i] = digits[i];
                }
            }
        }
        return codes;
    }

    /**
     * Moves {@code digits} from group {@code at} towards {@code target}: one step when the next group is near, else a
     * jump decoded by division. Returns the group the digits now stand for.
     */
    private static int next(GroupKeySpace keys, int[] digits, int at, int target) {
        if (target - at > 64) {
            for (int i = 0; i < digits.length; i++) {
                digits[i] = keys.dependent(i) ? 0 : keys.code(target, i);
            }
            return target;
        }
        for (int i = 0; i < digits.length; i++) {
            if (keys.dependent(i)) {
                continue;
            }
            if (++digits[i] < keys.cardinalities()[i]) {
                break;
            }
            digits[i] = 0;
        }
        return at + 1;
    }

    /** The finished aggregates of each of {@code groups}, as {@link GroupRollUp#values()} gives them. */
    static AggregateColumns values(PhysicalPlan plan, AggregationState merged, int[] groups) {
        FinalAggregate[] aggs = plan.aggregates();
        AggregateColumns out = new AggregateColumns(aggs.length, groups.length);
        for (int a = 0; a < aggs.length; a++) {
            if (aggs[a].finish() == FinalAggregate.Finish.ROW_COUNT) {
                long[] counts = merged.values().rowCounts;
                long[] to = out.longs[a];
                for (int r = 0; r < groups.length; r++) {
                    to[r] = counts[groups[r]];
                }
                out.isLong[a] = true;
            } else {
                double[] sums = merged.values().doubleAccumulators[aggs[a].sum()];
                double[] to = out.doubles[a];
                for (int r = 0; r < groups.length; r++) {
                    to[r] = 0.0 + sums[groups[r]];
                }
            }
        }
        return out;
    }
}
