package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import java.lang.foreign.MemorySegment;

/**
 * The fused kernel of the commonest aggregation: one dictionary-code key column, every row of a dense range
 * {@code [b, b + n)} selected, and one or two sums of bare double columns. Each row's code is read, its group counted
 * and its values added in one pass ({@code counts[code]++; sums[code] += value}), where the general path first writes
 * the codes into a group-id vector and reads them back. One loop per code width, so the JIT sees constant layouts.
 * Two key columns of byte or short codes with one sum ({@link #oneByTwoKeys}) are fused the same way, the group
 * being {@code code0 + code1 * stride1}. Each group's values are added in row order, as the
 * general path adds them.
 * Stateless; the arrays are the caller's thread-local accumulators, indexed by group.
 */
final class FusedKeySums {

    private FusedKeySums() {}

    /** {@code counts[k]++; a[k] += v[r]} for every row r of {@code [b, b + n)}, k the code of row r. */
    static void one(MemorySegment key, CodeWidth w, MemorySegment v, int b, int n, long[] counts, double[] a) {
        int end = b + n;
        switch (w) {
            case BYTE -> {
                for (int r = b; r < end; r++) {
                    int k = key.get(CodeKernels.BYTE, r) & 0xFF;
                    counts[k]++;
                    a[k] += v.getAtIndex(CodeKernels.DOUBLE, r);
                }
            }
            case SHORT -> {
                for (int r = b; r < end; r++) {
                    int k = key.getAtIndex(CodeKernels.SHORT, r) & 0xFFFF;
                    counts[k]++;
                    a[k] += v.getAtIndex(CodeKernels.DOUBLE, r);
                }
            }
            case INT -> {
                for (int r = b; r < end; r++) {
                    int k = key.getAtIndex(CodeKernels.INT, r);
                    counts[k]++;
                    a[k] += v.getAtIndex(CodeKernels.DOUBLE, r);
                }
            }
        }
    }

    /** As {@link #one}, with a second sum: {@code a1[k] += v1[r]}. */
    static void two(
            MemorySegment key,
            CodeWidth w,
            MemorySegment v0,
            MemorySegment v1,
            int b,
            int n,
            long[] counts,
            double[] a0,
            double[] a1) {
        int end = b + n;
        switch (w) {
            case BYTE -> {
                for (int r = b; r < end; r++) {
                    int k = key.get(CodeKernels.BYTE, r) & 0xFF;
                    counts[k]++;
                    a0[k] += v0.getAtIndex(CodeKernels.DOUBLE, r);
                    a1[k] += v1.getAtIndex(CodeKernels.DOUBLE, r);
                }
            }
            case SHORT -> {
                for (int r = b; r < end; r++) {
                    int k = key.getAtIndex(CodeKernels.SHORT, r) & 0xFFFF;
                    counts[k]++;
                    a0[k] += v0.getAtIndex(CodeKernels.DOUBLE, r);
                    a1[k] += v1.getAtIndex(CodeKernels.DOUBLE, r);
                }
            }
            case INT -> {
                for (int r = b; r < end; r++) {
                    int k = key.getAtIndex(CodeKernels.INT, r);
                    counts[k]++;
                    a0[k] += v0.getAtIndex(CodeKernels.DOUBLE, r);
                    a1[k] += v1.getAtIndex(CodeKernels.DOUBLE, r);
                }
            }
        }
    }

    /** Whether {@link #oneByTwoKeys} serves key columns of these widths (bytes and shorts). */
    static boolean servesTwoKeys(CodeWidth w0, CodeWidth w1) {
        return w0 != CodeWidth.INT && w1 != CodeWidth.INT;
    }

    /**
     * {@code counts[g]++; a[g] += v[r]} for every row r of {@code [0, n)}, {@code g = k0[r] + k1[r] * stride1}; the
     * widths must be {@linkplain #servesTwoKeys served}.
     */
    static void oneByTwoKeys(
            MemorySegment k0,
            CodeWidth w0,
            MemorySegment k1,
            CodeWidth w1,
            int stride1,
            MemorySegment v,
            int n,
            long[] counts,
            double[] a) {
        if (w0 == CodeWidth.BYTE && w1 == CodeWidth.BYTE) {
            for (int r = 0; r < n; r++) {
                int g = (k0.get(CodeKernels.BYTE, r) & 0xFF) + (k1.get(CodeKernels.BYTE, r) & 0xFF) * stride1;
                counts[g]++;
                a[g] += v.getAtIndex(CodeKernels.DOUBLE, r);
            }
        } else if (w0 == CodeWidth.SHORT && w1 == CodeWidth.BYTE) {
            for (int r = 0; r < n; r++) {
                int g = (k0.getAtIndex(CodeKernels.SHORT, r) & 0xFFFF) + (k1.get(CodeKernels.BYTE, r) & 0xFF) * stride1;
                counts[g]++;
                a[g] += v.getAtIndex(CodeKernels.DOUBLE, r);
            }
        } else if (w0 == CodeWidth.BYTE) {
            for (int r = 0; r < n; r++) {
                int g = (k0.get(CodeKernels.BYTE, r) & 0xFF) + (k1.getAtIndex(CodeKernels.SHORT, r) & 0xFFFF) * stride1;
                counts[g]++;
                a[g] += v.getAtIndex(CodeKernels.DOUBLE, r);
            }
        } else {
            for (int r = 0; r < n; r++) {
                int g = (k0.getAtIndex(CodeKernels.SHORT, r) & 0xFFFF)
                        + (k1.getAtIndex(CodeKernels.SHORT, r) & 0xFFFF) * stride1;
                counts[g]++;
                a[g] += v.getAtIndex(CodeKernels.DOUBLE, r);
            }
        }
    }
}
