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
