package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import io.numacube.numa.base.NumacubeException;
import java.lang.foreign.MemorySegment;

/**
 * A numeric row expression evaluated a batch at a time: {@code out[k]} for the k-th position of the batch (rows
 * {@code b + k}, or {@code sel[k]} when a selection is given). One virtual call per batch and node, none per row.
 * Nodes are immutable and shared by every worker; scratch arrays come from the caller's {@link Scratch}.
 */
abstract class NumVec {

    /** Per-task temporaries: {@code doubles[slot]} of batch length for intermediate results; {@code longs(slot)}
     * the same for the exact BIGINT path, allocated on first use (the double path never pays for it). */
    static final class Scratch {
        final double[][] doubles;
        final boolean[][] booleans;
        private final long[][] longs;
        private final int[][] rows;
        private final int[][] positions;
        private final int batch;

        Scratch(int doubleSlots, int booleanSlots, int batch) {
            doubles = new double[doubleSlots][batch];
            booleans = new boolean[booleanSlots][batch];
            longs = new long[doubleSlots][];
            rows = new int[booleanSlots][];
            positions = new int[booleanSlots][];
            this.batch = batch;
        }

        /** The rows a junction's later term is evaluated on (by boolean slot), allocated on first use. */
        int[] rows(int slot) {
            int[] a = rows[slot];
            if (a == null) {
                a = new int[batch];
                rows[slot] = a;
            }
            return a;
        }

        /** For each of {@link #rows(int)}, its position in the junction's batch (by boolean slot). */
        int[] positions(int slot) {
            int[] a = positions[slot];
            if (a == null) {
                a = new int[batch];
                positions[slot] = a;
            }
            return a;
        }

        long[] longs(int slot) {
            long[] a = longs[slot];
            if (a == null) {
                a = new long[batch];
                longs[slot] = a;
            }
            return a;
        }
    }

    abstract void eval(MorselView v, int b, int n, int[] sel, double[] out, Scratch s);

    /**
     * The exact BIGINT evaluation of an integer-typed expression: 64-bit arithmetic, and an error naming the
     * expression when a value leaves the BIGINT range (never a rounded or wrapped-around value). Only nodes of
     * integer type implement it.
     */
    void evalLong(MorselView v, int b, int n, int[] sel, long[] out, Scratch s) {
        throw new NumacubeException(
                NumacubeException.Kind.INTERNAL,
                "no exact BIGINT evaluation for " + getClass().getSimpleName());
    }

    /** A DOUBLE measure column. */
    static final class DoubleColumn extends NumVec {
        final int column;

        DoubleColumn(int column) {
            this.column = column;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, double[] out, Scratch s) {
            MemorySegment seg = v.columns[column];
            if (sel == null) {
                for (int k = 0; k < n; k++) {
                    out[k] = seg.getAtIndex(Codes.DOUBLE, b + k);
                }
            } else {
                for (int k = 0; k < n; k++) {
                    out[k] = seg.getAtIndex(Codes.DOUBLE, sel[k]);
                }
            }
        }
    }

    /** A LONG measure column, as doubles. */
    static final class LongColumn extends NumVec {
        final int column;

        LongColumn(int column) {
            this.column = column;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, double[] out, Scratch s) {
            MemorySegment seg = v.columns[column];
            for (int k = 0; k < n; k++) {
                out[k] = seg.getAtIndex(Codes.LONG, sel == null ? b + k : sel[k]);
            }
        }

        @Override
        void evalLong(MorselView v, int b, int n, int[] sel, long[] out, Scratch s) {
            MemorySegment seg = v.columns[column];
            for (int k = 0; k < n; k++) {
                out[k] = seg.getAtIndex(Codes.LONG, sel == null ? b + k : sel[k]);
            }
        }
    }

    /** A value looked up by the code of a dimension column: INT dimension values, or lookup-table columns by the
     * fact join key's code. */
    static final class ByCode extends NumVec {
        final int column;
        final double[] valueOfCode;
        /** The exact values for integer columns, else null. */
        final long[] longOfCode;

        ByCode(int column, double[] valueOfCode) {
            this(column, valueOfCode, null);
        }

        ByCode(int column, double[] valueOfCode, long[] longOfCode) {
            this.column = column;
            this.valueOfCode = valueOfCode;
            this.longOfCode = longOfCode;
        }

        @Override
        void evalLong(MorselView v, int b, int n, int[] sel, long[] out, Scratch s) {
            if (longOfCode == null) {
                super.evalLong(v, b, n, sel, out, s);
            }
            MemorySegment seg = v.columns[column];
            CodeWidth w = v.widths[column];
            for (int k = 0; k < n; k++) {
                out[k] = longOfCode[Codes.code(seg, w, sel == null ? b + k : sel[k])];
            }
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, double[] out, Scratch s) {
            MemorySegment seg = v.columns[column];
            CodeWidth w = v.widths[column];
            for (int k = 0; k < n; k++) {
                out[k] = valueOfCode[Codes.code(seg, w, sel == null ? b + k : sel[k])];
            }
        }
    }

    static final class Constant extends NumVec {
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
        void evalLong(MorselView v, int b, int n, int[] sel, long[] out, Scratch s) {
            java.util.Arrays.fill(out, 0, n, longValue);
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, double[] out, Scratch s) {
            java.util.Arrays.fill(out, 0, n, value);
        }
    }

    static final class Negate extends NumVec {
        final NumVec operand;

        Negate(NumVec operand) {
            this.operand = operand;
        }

        @Override
        void eval(MorselView v, int b, int n, int[] sel, double[] out, Scratch s) {
            operand.eval(v, b, n, sel, out, s);
            for (int k = 0; k < n; k++) {
                out[k] = -out[k];
            }
        }

        @Override
        void evalLong(MorselView v, int b, int n, int[] sel, long[] out, Scratch s) {
            operand.evalLong(v, b, n, sel, out, s);
            for (int k = 0; k < n; k++) {
                if (out[k] == Long.MIN_VALUE) {
                    throw new NumacubeException(
                            NumacubeException.Kind.INVALID_INPUT, "BIGINT overflow in -(" + out[k] + ")");
                }
                out[k] = -out[k];
            }
        }
    }

    /** {@code left op right}; the right side is computed into scratch slot {@code slot}. */
    static final class Arith extends NumVec {
        final char op;
        final NumVec left;
        final NumVec right;
        final int slot;
        /** The SQL text, for overflow errors. */
        final String text;

        Arith(char op, NumVec left, NumVec right, int slot) {
            this(op, left, right, slot, "?");
        }

        Arith(char op, NumVec left, NumVec right, int slot, String text) {
            this.op = op;
            this.left = left;
            this.right = right;
            this.slot = slot;
            this.text = text;
        }

        @Override
        void evalLong(MorselView v, int b, int n, int[] sel, long[] out, Scratch s) {
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
        void eval(MorselView v, int b, int n, int[] sel, double[] out, Scratch s) {
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

    /** The error for a BIGINT operation whose exact result leaves 64 bits (DuckDB raises one too). */
    static NumacubeException overflow(String text, char op, long x, long y) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                "BIGINT overflow in " + text + ": " + x
                        + " " + op + " " + y
                        + " leaves -9223372036854775808..9223372036854775807 — compute it as DOUBLE"
                        + " (multiply by 1.0)");
    }
}
