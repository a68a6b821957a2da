package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The tight loops over dictionary-code columns, one copy per code width so the JIT sees a constant layout and no
 * per-row branch on the width. Positions are rows within a morsel slice; {@code sel == null} means the dense range
 * {@code [b, b + n)}. Stateless.
 */
final class CodeKernels {

    static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private CodeKernels() {}

    static int code(MemorySegment s, CodeWidth w, int row) {
        return switch (w) {
            case BYTE -> s.get(BYTE, row) & 0xFF;
            case SHORT -> s.getAtIndex(SHORT, row) & 0xFFFF;
            case INT -> s.getAtIndex(INT, row);
        };
    }

    /** {@code out[k] = table[code of row k]}, the rows as the class comment says: one loop per width and per {@code sel} or none, so no access in the loop is more than a load. */
    static void gather(MemorySegment s, CodeWidth w, int b, int n, int[] sel, long[] table, long[] out) {
        switch (w) {
            case BYTE -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.get(BYTE, b + k) & 0xFF];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.get(BYTE, sel[k]) & 0xFF];
                    }
                }
            }
            case SHORT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.getAtIndex(SHORT, b + k) & 0xFFFF];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.getAtIndex(SHORT, sel[k]) & 0xFFFF];
                    }
                }
            }
            case INT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.getAtIndex(INT, b + k)];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.getAtIndex(INT, sel[k])];
                    }
                }
            }
        }
    }

    /** {@link #gather(MemorySegment, CodeWidth, int, int, int[], long[], long[])} of doubles. */
    static void gather(MemorySegment s, CodeWidth w, int b, int n, int[] sel, double[] table, double[] out) {
        switch (w) {
            case BYTE -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.get(BYTE, b + k) & 0xFF];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.get(BYTE, sel[k]) & 0xFF];
                    }
                }
            }
            case SHORT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.getAtIndex(SHORT, b + k) & 0xFFFF];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.getAtIndex(SHORT, sel[k]) & 0xFFFF];
                    }
                }
            }
            case INT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.getAtIndex(INT, b + k)];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.getAtIndex(INT, sel[k])];
                    }
                }
            }
        }
    }

    /** {@link #gather(MemorySegment, CodeWidth, int, int, int[], long[], long[])} of booleans. */
    static void gather(MemorySegment s, CodeWidth w, int b, int n, int[] sel, boolean[] table, boolean[] out) {
        switch (w) {
            case BYTE -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.get(BYTE, b + k) & 0xFF];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.get(BYTE, sel[k]) & 0xFF];
                    }
                }
            }
            case SHORT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.getAtIndex(SHORT, b + k) & 0xFFFF];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.getAtIndex(SHORT, sel[k]) & 0xFFFF];
                    }
                }
            }
            case INT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.getAtIndex(INT, b + k)];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[s.getAtIndex(INT, sel[k])];
                    }
                }
            }
        }
    }

    /** {@code out[k] |= table[code of row k]}, as {@link #gather(MemorySegment, CodeWidth, int, int, int[], long[], long[])}. */
    static void orGather(MemorySegment s, CodeWidth w, int b, int n, int[] sel, boolean[] table, boolean[] out) {
        switch (w) {
            case BYTE -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] |= table[s.get(BYTE, b + k) & 0xFF];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] |= table[s.get(BYTE, sel[k]) & 0xFF];
                    }
                }
            }
            case SHORT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] |= table[s.getAtIndex(SHORT, b + k) & 0xFFFF];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] |= table[s.getAtIndex(SHORT, sel[k]) & 0xFFFF];
                    }
                }
            }
            case INT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] |= table[s.getAtIndex(INT, b + k)];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] |= table[s.getAtIndex(INT, sel[k])];
                    }
                }
            }
        }
    }

    /** {@code a[g[k]]} becomes the least (greatest, unless {@code min}) of itself and the code of row {@code k}. */
    static void minMaxCodes(MemorySegment s, CodeWidth w, int b, int n, int[] sel, int[] g, long[] a, boolean min) {
        switch (w) {
            case BYTE -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        int code = s.get(BYTE, b + k) & 0xFF;
                        a[g[k]] = min ? Math.min(a[g[k]], code) : Math.max(a[g[k]], code);
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        int code = s.get(BYTE, sel[k]) & 0xFF;
                        a[g[k]] = min ? Math.min(a[g[k]], code) : Math.max(a[g[k]], code);
                    }
                }
            }
            case SHORT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        int code = s.getAtIndex(SHORT, b + k) & 0xFFFF;
                        a[g[k]] = min ? Math.min(a[g[k]], code) : Math.max(a[g[k]], code);
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        int code = s.getAtIndex(SHORT, sel[k]) & 0xFFFF;
                        a[g[k]] = min ? Math.min(a[g[k]], code) : Math.max(a[g[k]], code);
                    }
                }
            }
            case INT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        int code = s.getAtIndex(INT, b + k);
                        a[g[k]] = min ? Math.min(a[g[k]], code) : Math.max(a[g[k]], code);
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        int code = s.getAtIndex(INT, sel[k]);
                        a[g[k]] = min ? Math.min(a[g[k]], code) : Math.max(a[g[k]], code);
                    }
                }
            }
        }
    }

    /** {@code out[k] = table[rowOfCode[code of row k] + 1]}: a joined row's value (entry 0 where no row joins). */
    static void gatherByRow(
            MemorySegment s, CodeWidth w, int b, int n, int[] sel, int[] rowOfCode, long[] table, long[] out) {
        switch (w) {
            case BYTE -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[rowOfCode[s.get(BYTE, b + k) & 0xFF] + 1];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[rowOfCode[s.get(BYTE, sel[k]) & 0xFF] + 1];
                    }
                }
            }
            case SHORT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[rowOfCode[s.getAtIndex(SHORT, b + k) & 0xFFFF] + 1];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[rowOfCode[s.getAtIndex(SHORT, sel[k]) & 0xFFFF] + 1];
                    }
                }
            }
            case INT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[rowOfCode[s.getAtIndex(INT, b + k)] + 1];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[rowOfCode[s.getAtIndex(INT, sel[k])] + 1];
                    }
                }
            }
        }
    }

    /** {@link #gatherByRow(MemorySegment, CodeWidth, int, int, int[], int[], long[], long[])} of doubles. */
    static void gatherByRow(
            MemorySegment s, CodeWidth w, int b, int n, int[] sel, int[] rowOfCode, double[] table, double[] out) {
        switch (w) {
            case BYTE -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[rowOfCode[s.get(BYTE, b + k) & 0xFF] + 1];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[rowOfCode[s.get(BYTE, sel[k]) & 0xFF] + 1];
                    }
                }
            }
            case SHORT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[rowOfCode[s.getAtIndex(SHORT, b + k) & 0xFFFF] + 1];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[rowOfCode[s.getAtIndex(SHORT, sel[k]) & 0xFFFF] + 1];
                    }
                }
            }
            case INT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[rowOfCode[s.getAtIndex(INT, b + k)] + 1];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] = table[rowOfCode[s.getAtIndex(INT, sel[k])] + 1];
                    }
                }
            }
        }
    }

    /** {@code out[k] |= table[rowOfCode[code of row k] + 1]}, as {@link #gatherByRow(MemorySegment, CodeWidth, int, int, int[], int[], long[], long[])}. */
    static void orGatherByRow(
            MemorySegment s, CodeWidth w, int b, int n, int[] sel, int[] rowOfCode, boolean[] table, boolean[] out) {
        switch (w) {
            case BYTE -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] |= table[rowOfCode[s.get(BYTE, b + k) & 0xFF] + 1];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] |= table[rowOfCode[s.get(BYTE, sel[k]) & 0xFF] + 1];
                    }
                }
            }
            case SHORT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] |= table[rowOfCode[s.getAtIndex(SHORT, b + k) & 0xFFFF] + 1];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] |= table[rowOfCode[s.getAtIndex(SHORT, sel[k]) & 0xFFFF] + 1];
                    }
                }
            }
            case INT -> {
                if (sel == null) {
                    for (int k = 0; k < n; k++) {
                        out[k] |= table[rowOfCode[s.getAtIndex(INT, b + k)] + 1];
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        out[k] |= table[rowOfCode[s.getAtIndex(INT, sel[k])] + 1];
                    }
                }
            }
        }
    }

    /** Writes the rows of {@code [b, b+n)} whose code passes {@code mask} into {@code sel}; returns their count. */
    static int selectDense(MemorySegment s, CodeWidth w, int b, int n, boolean[] mask, int[] sel) {
        int cnt = 0;
        switch (w) {
            case BYTE -> {
                for (int r = b, end = b + n; r < end; r++) {
                    sel[cnt] = r;
                    cnt += mask[s.get(BYTE, r) & 0xFF] ? 1 : 0;
                }
            }
            case SHORT -> {
                for (int r = b, end = b + n; r < end; r++) {
                    sel[cnt] = r;
                    cnt += mask[s.getAtIndex(SHORT, r) & 0xFFFF] ? 1 : 0;
                }
            }
            case INT -> {
                for (int r = b, end = b + n; r < end; r++) {
                    sel[cnt] = r;
                    cnt += mask[s.getAtIndex(INT, r)] ? 1 : 0;
                }
            }
        }
        return cnt;
    }

    /** Keeps the selected rows whose code passes {@code mask}; returns the new count. */
    static int refine(MemorySegment s, CodeWidth w, int[] sel, int cnt, boolean[] mask) {
        int out = 0;
        switch (w) {
            case BYTE -> {
                for (int k = 0; k < cnt; k++) {
                    int r = sel[k];
                    sel[out] = r;
                    out += mask[s.get(BYTE, r) & 0xFF] ? 1 : 0;
                }
            }
            case SHORT -> {
                for (int k = 0; k < cnt; k++) {
                    int r = sel[k];
                    sel[out] = r;
                    out += mask[s.getAtIndex(SHORT, r) & 0xFFFF] ? 1 : 0;
                }
            }
            case INT -> {
                for (int k = 0; k < cnt; k++) {
                    int r = sel[k];
                    sel[out] = r;
                    out += mask[s.getAtIndex(INT, r)] ? 1 : 0;
                }
            }
        }
        return out;
    }

    /** {@code gid[k] = code(row k)}: the first key column of a dense group space (its stride is 1). */
    static void setKeyInt(MemorySegment s, CodeWidth w, int b, int n, int[] sel, int[] gid) {
        if (sel == null) {
            switch (w) {
                case BYTE -> {
                    for (int k = 0; k < n; k++) {
                        gid[k] = s.get(BYTE, b + k) & 0xFF;
                    }
                }
                case SHORT -> {
                    for (int k = 0; k < n; k++) {
                        gid[k] = s.getAtIndex(SHORT, b + k) & 0xFFFF;
                    }
                }
                case INT -> {
                    for (int k = 0; k < n; k++) {
                        gid[k] = s.getAtIndex(INT, b + k);
                    }
                }
            }
        } else {
            switch (w) {
                case BYTE -> {
                    for (int k = 0; k < n; k++) {
                        gid[k] = s.get(BYTE, sel[k]) & 0xFF;
                    }
                }
                case SHORT -> {
                    for (int k = 0; k < n; k++) {
                        gid[k] = s.getAtIndex(SHORT, sel[k]) & 0xFFFF;
                    }
                }
                case INT -> {
                    for (int k = 0; k < n; k++) {
                        gid[k] = s.getAtIndex(INT, sel[k]);
                    }
                }
            }
        }
    }

    /** {@code gid[k] += code(row k) * stride} for dense group spaces. */
    static void addKeyInt(MemorySegment s, CodeWidth w, int b, int n, int[] sel, int stride, int[] gid) {
        if (sel == null) {
            switch (w) {
                case BYTE -> {
                    for (int k = 0; k < n; k++) {
                        gid[k] += (s.get(BYTE, b + k) & 0xFF) * stride;
                    }
                }
                case SHORT -> {
                    for (int k = 0; k < n; k++) {
                        gid[k] += (s.getAtIndex(SHORT, b + k) & 0xFFFF) * stride;
                    }
                }
                case INT -> {
                    for (int k = 0; k < n; k++) {
                        gid[k] += s.getAtIndex(INT, b + k) * stride;
                    }
                }
            }
        } else {
            switch (w) {
                case BYTE -> {
                    for (int k = 0; k < n; k++) {
                        gid[k] += (s.get(BYTE, sel[k]) & 0xFF) * stride;
                    }
                }
                case SHORT -> {
                    for (int k = 0; k < n; k++) {
                        gid[k] += (s.getAtIndex(SHORT, sel[k]) & 0xFFFF) * stride;
                    }
                }
                case INT -> {
                    for (int k = 0; k < n; k++) {
                        gid[k] += s.getAtIndex(INT, sel[k]) * stride;
                    }
                }
            }
        }
    }

    /** {@code key[k] += code(row k) * stride} for hashed group spaces. */
    static void addKeyLong(MemorySegment s, CodeWidth w, int b, int n, int[] sel, long stride, long[] key) {
        for (int k = 0; k < n; k++) {
            key[k] += code(s, w, sel == null ? b + k : sel[k]) * stride;
        }
    }

    /** {@code gid[k] = map[code(row k)] * stride}, or {@code +=} when {@code add}: a mapped key of a dense space. */
    static void keyIntMapped(
            MemorySegment s, CodeWidth w, int b, int n, int[] sel, int[] map, int stride, boolean add, int[] gid) {
        for (int k = 0; k < n; k++) {
            int v = map[code(s, w, sel == null ? b + k : sel[k])] * stride;
            gid[k] = add ? gid[k] + v : v;
        }
    }

    /** {@code key[k] += map[code(row k)] * stride}: a mapped key of a hashed space. */
    static void addKeyLongMapped(
            MemorySegment s, CodeWidth w, int b, int n, int[] sel, int[] map, long stride, long[] key) {
        for (int k = 0; k < n; k++) {
            key[k] += map[code(s, w, sel == null ? b + k : sel[k])] * stride;
        }
    }

    /**
     * The index of each row's combination of codes in a key's map: {@code idx[k] = sum(code(col j) * strides[j])}
     * over the key's source columns.
     */
    static void combinedCodes(MorselView v, int[] sources, int[] strides, int b, int n, int[] sel, int[] idx) {
        java.util.Arrays.fill(idx, 0, n, 0);
        for (int j = 0; j < sources.length; j++) {
            MemorySegment s = v.columns[sources[j]];
            CodeWidth w = v.widths[sources[j]];
            int stride = strides[j];
            for (int k = 0; k < n; k++) {
                idx[k] += code(s, w, sel == null ? b + k : sel[k]) * stride;
            }
        }
    }
}
