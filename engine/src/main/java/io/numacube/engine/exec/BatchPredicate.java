package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.InValues;

/**
 * A row predicate that is not a plain per-dimension code mask (those are applied by {@link CodeKernels}): comparisons of
 * numeric expressions, or AND/OR/NOT mixing several columns. Evaluated a batch at a time into {@code out[k]}.
 * Immutable; shared by every worker.
 */
abstract class BatchPredicate {

    abstract void eval(MorselView v, int b, int n, int[] sel, boolean[] out, BatchScratch s);

    /** The code of a dimension column passes a mask (a sub-predicate on one dimension, evaluated per code). */
    static final class Mask extends BatchPredicate {
        final int column;
        final boolean[] mask;

        Mask(int column, boolean[] mask) {
            this.column = column;
            this.mask = mask;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, boolean[] out, BatchScratch s) {
            CodeKernels.gather(v.columns[column], v.widths[column], b, n, sel, mask, out);
        }
    }

    /**
     * A {@link Mask} whose condition failed for some codes ({@link CodeErrors}): a row of such a code that reaches it
     * raises the error. Not a {@code Mask}, so that no kernel applies it as a plain one before the conditions it
     * follows.
     */
    static final class Failing extends BatchPredicate {
        final Mask mask;
        final io.numacube.numa.base.NumacubeException[] errors;

        Failing(Mask mask, io.numacube.numa.base.NumacubeException[] errors) {
            this.mask = mask;
            this.errors = errors;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, boolean[] out, BatchScratch s) {
            CodeErrors.raise(errors, v.columns[mask.column], v.widths[mask.column], b, n, sel, null);
            mask.eval(v, b, n, sel, out, s);
        }
    }

    /** {@code left op right} over doubles (slots for both sides). */
    static final class Compare extends BatchPredicate {
        final Expr.CompareOp op;
        final BatchExpression left;
        final BatchExpression right;
        final int leftSlot;
        final int rightSlot;

        Compare(Expr.CompareOp op, BatchExpression left, BatchExpression right, int leftSlot, int rightSlot) {
            this.op = op;
            this.left = left;
            this.right = right;
            this.leftSlot = leftSlot;
            this.rightSlot = rightSlot;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, boolean[] out, BatchScratch s) {
            double[] l = s.doubles[leftSlot];
            double[] r = s.doubles[rightSlot];
            left.eval(v, b, n, sel, l, s);
            right.eval(v, b, n, sel, r, s);
            // DuckDB's order of doubles: NaN equals NaN and is above every other value (x != x only for NaN)
            switch (op) {
                case EQ -> {
                    for (int k = 0; k < n; k++) {
                        out[k] = l[k] == r[k] || l[k] != l[k] && r[k] != r[k];
                    }
                }
                case NE -> {
                    for (int k = 0; k < n; k++) {
                        out[k] = l[k] != r[k] && (l[k] == l[k] || r[k] == r[k]);
                    }
                }
                case LT -> {
                    for (int k = 0; k < n; k++) {
                        out[k] = l[k] < r[k] || r[k] != r[k] && l[k] == l[k];
                    }
                }
                case LE -> {
                    for (int k = 0; k < n; k++) {
                        out[k] = l[k] <= r[k] || r[k] != r[k];
                    }
                }
                case GT -> {
                    for (int k = 0; k < n; k++) {
                        out[k] = l[k] > r[k] || l[k] != l[k] && r[k] == r[k];
                    }
                }
                case GE -> {
                    for (int k = 0; k < n; k++) {
                        out[k] = l[k] >= r[k] || l[k] != l[k];
                    }
                }
            }
        }
    }

    /** {@code left op right} over exact BIGINT values (both sides integer-typed; slots for both sides). */
    static final class LongCompare extends BatchPredicate {
        final Expr.CompareOp op;
        final BatchExpression left;
        final BatchExpression right;
        final int leftSlot;
        final int rightSlot;

        LongCompare(Expr.CompareOp op, BatchExpression left, BatchExpression right, int leftSlot, int rightSlot) {
            this.op = op;
            this.left = left;
            this.right = right;
            this.leftSlot = leftSlot;
            this.rightSlot = rightSlot;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, boolean[] out, BatchScratch s) {
            long[] l = s.longs(leftSlot);
            long[] r = s.longs(rightSlot);
            left.evalLong(v, b, n, sel, l, s);
            right.evalLong(v, b, n, sel, r, s);
            for (int k = 0; k < n; k++) {
                out[k] = op.test(Long.compare(l[k], r[k]));
            }
        }
    }

    /** {@code operand IN (values)} for a numeric operand: exact for integer operands, else as doubles. */
    static final class InList extends BatchPredicate {
        final BatchExpression operand;
        final InValues values;
        final boolean exact;
        final int slot;

        InList(BatchExpression operand, InValues values, boolean exact, int slot) {
            this.operand = operand;
            this.values = values;
            this.exact = exact;
            this.slot = slot;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, boolean[] out, BatchScratch s) {
            if (exact) {
                long[] x = s.longs(slot);
                operand.evalLong(v, b, n, sel, x, s);
                for (int k = 0; k < n; k++) {
                    out[k] = values.containsLong(x[k]);
                }
            } else {
                double[] x = s.doubles[slot];
                operand.eval(v, b, n, sel, x, s);
                for (int k = 0; k < n; k++) {
                    out[k] = values.containsDouble(x[k]);
                }
            }
        }
    }

    /**
     * AND (and == true) or OR of two or more terms; {@code slot} holds a term's result. Each later term is evaluated
     * only on the rows the earlier ones left undecided (true so far for AND, false so far for OR), as DuckDB's
     * selection vectors do: a term that would fail on a row the query never needs (an integer overflow, say) is not
     * evaluated there.
     */
    static final class Junction extends BatchPredicate {
        final boolean and;
        final BatchPredicate[] terms;
        final int slot;

        Junction(boolean and, BatchPredicate[] terms, int slot) {
            this.and = and;
            this.terms = terms;
            this.slot = slot;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, boolean[] out, BatchScratch s) {
            terms[0].eval(v, b, n, sel, out, s);
            boolean[] t = s.booleans[slot];
            int[] rows = s.rows(slot);
            int[] at = s.positions(slot);
            for (int i = 1; i < terms.length; i++) {
                int m = 0;
                for (int k = 0; k < n; k++) {
                    rows[m] = sel == null ? b + k : sel[k];
                    at[m] = k;
                    m += out[k] == and ? 1 : 0;
                }
                if (m == 0) {
                    return;
                }
                terms[i].eval(v, b, m, rows, t, s);
                for (int j = 0; j < m; j++) {
                    out[at[j]] = t[j];
                }
            }
        }
    }

    /**
     * A leaf predicate that is not TRUE where one of its operands is NULL (three-valued logic: a comparison with NULL
     * is NULL, and WHERE keeps only TRUE). Costs nothing on morsels without NULLs in those operands.
     */
    static final class NullGuard extends BatchPredicate {
        final BatchPredicate leaf;
        final NullMask nulls;
        final int slot;

        NullGuard(BatchPredicate leaf, NullMask nulls, int slot) {
            this.leaf = leaf;
            this.nulls = nulls;
            this.slot = slot;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, boolean[] out, BatchScratch s) {
            leaf.eval(v, b, n, sel, out, s);
            if (!nulls.mayHaveNulls(v)) {
                return;
            }
            boolean[] isNull = s.booleans[slot];
            nulls.mark(v, b, n, sel, isNull);
            for (int k = 0; k < n; k++) {
                out[k] &= !isNull[k];
            }
        }
    }

    /** {@code x IS NULL} (or, negated, {@code IS NOT NULL}) for an expression of columns: never NULL itself. */
    static final class IsNull extends BatchPredicate {
        final NullMask nulls;
        final boolean negated;
        final int slot;

        IsNull(NullMask nulls, boolean negated, int slot) {
            this.nulls = nulls;
            this.negated = negated;
            this.slot = slot;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, boolean[] out, BatchScratch s) {
            if (!nulls.mayHaveNulls(v)) {
                java.util.Arrays.fill(out, 0, n, negated);
                return;
            }
            nulls.mark(v, b, n, sel, out);
            if (negated) {
                for (int k = 0; k < n; k++) {
                    out[k] = !out[k];
                }
            }
        }
    }

    static final class Negation extends BatchPredicate {
        final BatchPredicate operand;

        Negation(BatchPredicate operand) {
            this.operand = operand;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, boolean[] out, BatchScratch s) {
            operand.eval(v, b, n, sel, out, s);
            for (int k = 0; k < n; k++) {
                out[k] = !out[k];
            }
        }
    }

    static final class Constant extends BatchPredicate {
        final boolean value;

        Constant(boolean value) {
            this.value = value;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, boolean[] out, BatchScratch s) {
            java.util.Arrays.fill(out, 0, n, value);
        }
    }
}
