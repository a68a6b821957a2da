package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import java.lang.foreign.MemorySegment;

/**
 * A numeric row expression evaluated a batch at a time: {@code out[k]} for the k-th position of the batch (rows
 * {@code b + k}, or {@code sel[k]} when a selection is given). One virtual call per batch and node, none per row.
 * Nodes are immutable and shared by every worker; scratch arrays come from the caller's {@link Scratch}.
 */
abstract class NumVec {

    /** Per-task temporaries: {@code doubles[slot]} of batch length for intermediate results. */
    static final class Scratch {
        final double[][] doubles;
        final boolean[][] booleans;

        Scratch(int doubleSlots, int booleanSlots, int batch) {
            doubles = new double[doubleSlots][batch];
            booleans = new boolean[booleanSlots][batch];
        }
    }

    abstract void eval(MorselView v, int b, int n, int[] sel, double[] out, Scratch s);

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
    }

    /** A value looked up by the code of a dimension column: INT dimension values, or lookup-table columns by the
     * fact join key's code. */
    static final class ByCode extends NumVec {
        final int column;
        final double[] valueOfCode;

        ByCode(int column, double[] valueOfCode) {
            this.column = column;
            this.valueOfCode = valueOfCode;
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

        Constant(double value) {
            this.value = value;
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
    }

    /** {@code left op right}; the right side is computed into scratch slot {@code slot}. */
    static final class Arith extends NumVec {
        final char op;
        final NumVec left;
        final NumVec right;
        final int slot;

        Arith(char op, NumVec left, NumVec right, int slot) {
            this.op = op;
            this.left = left;
            this.right = right;
            this.slot = slot;
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
}
