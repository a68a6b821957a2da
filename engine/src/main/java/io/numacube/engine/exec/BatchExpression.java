package io.numacube.engine.exec;

import io.numacube.numa.base.NumacubeException;
import java.lang.foreign.MemorySegment;

/**
 * A numeric row expression evaluated a batch at a time: {@code out[k]} for the k-th position of the batch (rows
 * {@code b + k}, or {@code sel[k]} when a selection is given). One virtual call per batch and node, none per row.
 * Nodes are immutable and shared by every worker; scratch arrays come from the caller's {@link BatchScratch}.
 */
abstract class BatchExpression {

    /** The SQLSTATE of a BIGINT overflow (PostgreSQL's numeric_value_out_of_range). */
    static final String NUMERIC_OUT_OF_RANGE = "22003";

    abstract void eval(MorselView v, int b, int n, int[] sel, double[] out, BatchScratch s);

    /**
     * The exact BIGINT evaluation of an integer-typed expression: 64-bit arithmetic, and an error naming the
     * expression when a value leaves the BIGINT range (never a rounded or wrapped-around value). Only nodes of
     * integer type implement it.
     */
    void evalLong(MorselView v, int b, int n, int[] sel, long[] out, BatchScratch s) {
        throw new NumacubeException(
                NumacubeException.Kind.INTERNAL,
                "no exact BIGINT evaluation for " + getClass().getSimpleName());
    }

    /** A DOUBLE measure column. */
    static final class DoubleColumn extends BatchExpression {
        final int column;

        DoubleColumn(int column) {
            this.column = column;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, double[] out, BatchScratch s) {
            MemorySegment seg = v.columns[column];
            if (sel == null) {
                for (int k = 0; k < n; k++) {
                    out[k] = seg.getAtIndex(CodeKernels.DOUBLE, b + k);
                }
            } else {
                for (int k = 0; k < n; k++) {
                    out[k] = seg.getAtIndex(CodeKernels.DOUBLE, sel[k]);
                }
            }
        }
    }

    /** A LONG measure column, as doubles. */
    static final class LongColumn extends BatchExpression {
        final int column;

        LongColumn(int column) {
            this.column = column;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, double[] out, BatchScratch s) {
            MemorySegment seg = v.columns[column];
            for (int k = 0; k < n; k++) {
                out[k] = seg.getAtIndex(CodeKernels.LONG, sel == null ? b + k : sel[k]);
            }
        }

        @Override
        void evalLong(MorselView v, int b, int n, int[] sel, long[] out, BatchScratch s) {
            MemorySegment seg = v.columns[column];
            for (int k = 0; k < n; k++) {
                out[k] = seg.getAtIndex(CodeKernels.LONG, sel == null ? b + k : sel[k]);
            }
        }
    }

    /** A value looked up by the code of a dimension column: INT dimension values, or lookup-table columns by the
     * fact join key's code. */
    static final class ByCode extends BatchExpression {
        final int column;
        final double[] valueOfCode;
        /** The exact values for integer columns, else null. */
        final long[] longOfCode;
        /** Per code, the error computing its value raised ({@link CodeErrors}), or null where none did. */
        final NumacubeException[] errorOfCode;

        ByCode(int column, double[] valueOfCode) {
            this(column, valueOfCode, null);
        }

        ByCode(int column, double[] valueOfCode, long[] longOfCode) {
            this(column, valueOfCode, longOfCode, null);
        }

        ByCode(int column, double[] valueOfCode, long[] longOfCode, NumacubeException[] errorOfCode) {
            this.column = column;
            this.valueOfCode = valueOfCode;
            this.longOfCode = longOfCode;
            this.errorOfCode = errorOfCode;
        }

        @Override
        void evalLong(MorselView v, int b, int n, int[] sel, long[] out, BatchScratch s) {
            if (longOfCode == null) {
                super.evalLong(v, b, n, sel, out, s);
                return;
            }
            if (errorOfCode != null) {
                CodeErrors.raise(errorOfCode, v.columns[column], v.widths[column], b, n, sel, null);
            }
            CodeKernels.gather(v.columns[column], v.widths[column], b, n, sel, longOfCode, out);
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, double[] out, BatchScratch s) {
            if (errorOfCode != null) {
                CodeErrors.raise(errorOfCode, v.columns[column], v.widths[column], b, n, sel, null);
            }
            CodeKernels.gather(v.columns[column], v.widths[column], b, n, sel, valueOfCode, out);
        }
    }

    /**
     * A LOOKUP column's value read through its joined row: the row of the fact column's code ({@code rowOfCode}, -1
     * for none), then the value at {@code row + 1} of {@code valueOfRow} (entry 0 for none). The values of {@link
     * ByCode} over a lookup column, without a table per code where the joined table has far fewer rows than codes.
     */
    static final class ByRow extends BatchExpression {
        final int column;
        final int[] rowOfCode;
        final double[] valueOfRow;
        /** The exact values for integer columns, else null. */
        final long[] longOfRow;

        ByRow(int column, int[] rowOfCode, double[] valueOfRow, long[] longOfRow) {
            this.column = column;
            this.rowOfCode = rowOfCode;
            this.valueOfRow = valueOfRow;
            this.longOfRow = longOfRow;
        }

        @Override
        void evalLong(MorselView v, int b, int n, int[] sel, long[] out, BatchScratch s) {
            if (longOfRow == null) {
                super.evalLong(v, b, n, sel, out, s);
                return;
            }
            CodeKernels.gatherByRow(v.columns[column], v.widths[column], b, n, sel, rowOfCode, longOfRow, out);
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, double[] out, BatchScratch s) {
            CodeKernels.gatherByRow(v.columns[column], v.widths[column], b, n, sel, rowOfCode, valueOfRow, out);
        }
    }

    static final class Constant extends BatchExpression {
        final double value;
        final long longValue;

        Constant(double value) {
            this.value = value;
            this.longValue = (long) value;
        }

        /** An exact BIGINT constant (its double is the nearest double). */
        Constant(long value) {
            this.value = value;
            this.longValue = value;
        }

        @Override
        void evalLong(MorselView v, int b, int n, int[] sel, long[] out, BatchScratch s) {
            java.util.Arrays.fill(out, 0, n, longValue);
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, double[] out, BatchScratch s) {
            java.util.Arrays.fill(out, 0, n, value);
        }
    }

    static final class Negate extends BatchExpression {
        final BatchExpression operand;

        Negate(BatchExpression operand) {
            this.operand = operand;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, double[] out, BatchScratch s) {
            operand.eval(v, b, n, sel, out, s);
            for (int k = 0; k < n; k++) {
                out[k] = -out[k];
            }
        }

        @Override
        void evalLong(MorselView v, int b, int n, int[] sel, long[] out, BatchScratch s) {
            operand.evalLong(v, b, n, sel, out, s);
            for (int k = 0; k < n; k++) {
                if (out[k] == Long.MIN_VALUE) {
                    throw new NumacubeException(
                            NumacubeException.Kind.INVALID_INPUT,
                            NUMERIC_OUT_OF_RANGE,
                            "BIGINT overflow in -(" + out[k] + ")",
                            null,
                            null);
                }
                out[k] = -out[k];
            }
        }
    }

    /** {@code left op right}; the right side is computed into scratch slot {@code slot}. */
    static final class Arith extends BatchExpression {
        final char op;
        final BatchExpression left;
        final BatchExpression right;
        final int slot;
        /** The SQL text, for overflow errors. */
        final String text;

        Arith(char op, BatchExpression left, BatchExpression right, int slot) {
            this(op, left, right, slot, "?");
        }

        Arith(char op, BatchExpression left, BatchExpression right, int slot, String text) {
            this.op = op;
            this.left = left;
            this.right = right;
            this.slot = slot;
            this.text = text;
        }

        @Override
        void evalLong(MorselView v, int b, int n, int[] sel, long[] out, BatchScratch s) {
            left.evalLong(v, b, n, sel, out, s);
            long[] r = s.longs(slot);
            right.evalLong(v, b, n, sel, r, s);
            int k = 0;
            try {
                switch (op) {
                    case '+' -> {
                        for (; k < n; k++) {
                            out[k] = Math.addExact(out[k], r[k]);
                        }
                    }
                    case '-' -> {
                        for (; k < n; k++) {
                            out[k] = Math.subtractExact(out[k], r[k]);
                        }
                    }
                    case '*' -> {
                        for (; k < n; k++) {
                            out[k] = Math.multiplyExact(out[k], r[k]);
                        }
                    }
                    default ->
                        throw new NumacubeException(
                                NumacubeException.Kind.INTERNAL, "no exact BIGINT evaluation of " + op);
                }
            } catch (ArithmeticException e) {
                throw overflow(text, op, out[k], r[k]);
            }
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, double[] out, BatchScratch s) {
            left.eval(v, b, n, sel, out, s);
            double[] r = s.doubles[slot];
            right.eval(v, b, n, sel, r, s);
            switch (op) {
                case '+' -> {
                    for (int k = 0; k < n; k++) {
                        out[k] += r[k];
                    }
                }
                case '-' -> {
                    for (int k = 0; k < n; k++) {
                        out[k] -= r[k];
                    }
                }
                case '*' -> {
                    for (int k = 0; k < n; k++) {
                        out[k] *= r[k];
                    }
                }
                default -> {
                    for (int k = 0; k < n; k++) {
                        out[k] /= r[k];
                    }
                }
            }
        }
    }

    /**
     * An integer-typed operation read as a DOUBLE: {@link #eval} computes it exactly ({@link #evalLong}, into long
     * scratch slot {@code slot}) and converts each result once; {@link #evalLong} is the operation's own.
     */
    static final class ExactAsDouble extends BatchExpression {
        final BatchExpression exact;
        final int slot;

        ExactAsDouble(BatchExpression exact, int slot) {
            this.exact = exact;
            this.slot = slot;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, double[] out, BatchScratch s) {
            long[] l = s.longs(slot);
            exact.evalLong(v, b, n, sel, l, s);
            for (int k = 0; k < n; k++) {
                out[k] = l[k];
            }
        }

        @Override
        void evalLong(MorselView v, int b, int n, int[] sel, long[] out, BatchScratch s) {
            exact.evalLong(v, b, n, sel, out, s);
        }
    }

    /** {@code coalesce(x, c)}: x where it is not NULL, else the constant c (never NULL). */
    static final class Coalesce extends BatchExpression {
        final BatchExpression value;
        final NullMask nulls;
        final BatchExpression fallback;
        final int booleanSlot;
        final int slot;

        Coalesce(BatchExpression value, NullMask nulls, BatchExpression fallback, int booleanSlot, int slot) {
            this.value = value;
            this.nulls = nulls;
            this.fallback = fallback;
            this.booleanSlot = booleanSlot;
            this.slot = slot;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, double[] out, BatchScratch s) {
            value.eval(v, b, n, sel, out, s);
            if (!nulls.mayHaveNulls(v)) {
                return;
            }
            boolean[] isNull = s.booleans[booleanSlot];
            nulls.mark(v, b, n, sel, isNull);
            double[] f = s.doubles[slot];
            fallback.eval(v, b, n, sel, f, s);
            for (int k = 0; k < n; k++) {
                out[k] = isNull[k] ? f[k] : out[k];
            }
        }

        @Override
        void evalLong(MorselView v, int b, int n, int[] sel, long[] out, BatchScratch s) {
            value.evalLong(v, b, n, sel, out, s);
            if (!nulls.mayHaveNulls(v)) {
                return;
            }
            boolean[] isNull = s.booleans[booleanSlot];
            nulls.mark(v, b, n, sel, isNull);
            long[] f = s.longs(slot);
            fallback.evalLong(v, b, n, sel, f, s);
            for (int k = 0; k < n; k++) {
                out[k] = isNull[k] ? f[k] : out[k];
            }
        }
    }

    /**
     * How an overflow error names {@code a}: its text, or for the binder's conversion of a value to a DECIMAL scale
     * (which prints as the value) what it is; either followed by a note when DECIMAL values are involved.
     */
    static String overflowText(io.numacube.engine.plan.Expr.Arith a) {
        String text = a.implicit() ? a.left().text() + " raised to DECIMAL scale " + a.scale() : a.text();
        return a.scale() > 0
                ? text + " (numacube computes DECIMALs exactly in 64 bits, 18 digits; DuckDB in 128)"
                : text;
    }

    /** The error for a BIGINT operation whose exact result leaves 64 bits (DuckDB raises one too). */
    static NumacubeException overflow(String text, char op, long x, long y) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                NUMERIC_OUT_OF_RANGE,
                "BIGINT overflow in " + text + ": " + x
                        + " " + op + " " + y
                        + " leaves -9223372036854775808..9223372036854775807 — compute it as DOUBLE"
                        + " (CAST a side AS DOUBLE)",
                null,
                null);
    }
}
