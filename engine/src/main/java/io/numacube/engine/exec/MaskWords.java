package io.numacube.engine.exec;

import io.numacube.engine.storage.CodeWidth;
import java.lang.foreign.MemorySegment;

/**
 * The active code masks of a morsel that match 64 rows at a time ({@link CodeWordMatch}: an interval of codes, or a
 * few codes), applied together in one pass: per 64 rows, the AND of their words, the mask passing the smallest share
 * of its codes first and the others skipped once no row is left; then only the rows passing all of them are written to
 * the selection vector. TPC-H Q6's three masks (a date range, a discount range, a quantity bound; about 2% of the rows
 * pass all three) then cost a few word operations per eight rows each, in place of a selection by one mask and a
 * lookup per selected row by each of the others, each writing its survivors again.
 *
 * <p>The rows selected, and their (ascending) order, are those that selecting by the masks one after another gives:
 * a row is selected exactly when its code passes every mask applied. The masks this does not apply (those with no word
 * test at the morsel's code width) are left to the caller ({@link #applied}). Not thread-safe: owned by one {@link
 * AggregationState}, which calls {@link #prepare} for a batch before {@link #select}.
 */
final class MaskWords {

    private final RowFilter.CodeMask[] masks;
    /** The plan indexes of the masks with a word test at some width, the smallest share of passing codes first. */
    private final int[] order;

    private final boolean[] applied;
    private final CodeWordMatch[] matches;
    private final MemorySegment[] segments;
    private final CodeWidth[] widths;
    private final boolean[][] passes;
    private int used;

    private MaskWords(RowFilter.CodeMask[] masks, int[] order) {
        this.masks = masks;
        this.order = order;
        this.applied = new boolean[masks.length];
        this.matches = new CodeWordMatch[order.length];
        this.segments = new MemorySegment[order.length];
        this.widths = new CodeWidth[order.length];
        this.passes = new boolean[order.length][];
    }

    /** The word selection of {@code masks}, or null where none of them has a word test. */
    static MaskWords of(RowFilter.CodeMask[] masks) {
        int[] order = java.util.stream.IntStream.range(0, masks.length)
                .filter(i -> masks[i].few() != null || masks[i].interval() != null)
                .boxed()
                .sorted(java.util.Comparator.comparingDouble(i -> share(masks[i])))
                .mapToInt(Integer::intValue)
                .toArray();
        return order.length == 0 ? null : new MaskWords(masks, order);
    }

    private static double share(RowFilter.CodeMask m) {
        return (double) m.passing() / m.passes().length;
    }

    /**
     * Chooses the masks active in {@code activeMasks} (bit {@code i} for mask {@code i < 63}; masks from 63 on are
     * always active) whose word test serves their column's width in {@code view}; returns how many, or 0 where they
     * would pass more than {@value #MAX_SHARE} of the rows, counting each mask's share of passing codes as its share of
     * rows (writing most rows one set bit at a time costs more than a lookup per row: the caller then selects as
     * before).
     */
    int prepare(MorselView view, long activeMasks) {
        java.util.Arrays.fill(applied, false);
        used = 0;
        double share = 1;
        for (int i : order) {
            boolean active = i >= 63 || (activeMasks & (1L << i)) != 0;
            int col = masks[i].column();
            CodeWordMatch m = active ? masks[i].words(view.widths[col]) : null;
            if (m != null) {
                applied[i] = true;
                matches[used] = m;
                segments[used] = view.columns[col];
                widths[used] = view.widths[col];
                passes[used] = masks[i].passes();
                used++;
                share *= share(masks[i]);
            }
        }
        if (share > MAX_SHARE) {
            java.util.Arrays.fill(applied, false);
            used = 0;
        }
        return used;
    }

    /** The largest estimated share of rows passing for which the masks are applied by words. */
    static final double MAX_SHARE = 0.5;

    /** Whether the last {@link #prepare} chose mask {@code i} (so {@link #select} applies it). */
    boolean applied(int i) {
        return applied[i];
    }

    /**
     * Writes the rows of {@code [b, b + n)} that pass every mask chosen by {@link #prepare} (at least one) into {@code
     * sel}, ascending; returns their count.
     */
    int select(int b, int n, int[] sel) {
        // the first three in locals: the JIT then keeps their segments' checks out of the loop
        CodeWordMatch m0 = matches[0];
        CodeWordMatch m1 = matches[Math.min(1, used - 1)];
        CodeWordMatch m2 = matches[Math.min(2, used - 1)];
        MemorySegment s0 = segments[0];
        MemorySegment s1 = segments[Math.min(1, used - 1)];
        MemorySegment s2 = segments[Math.min(2, used - 1)];
        CodeWidth w0 = widths[0];
        CodeWidth w1 = widths[Math.min(1, used - 1)];
        CodeWidth w2 = widths[Math.min(2, used - 1)];
        int cnt = 0;
        int r = b;
        int end = b + n;
        for (; r + 64 <= end; r += 64) {
            long bits = m0.word(s0, w0, r);
            if (used > 1 && bits != 0) {
                bits &= m1.word(s1, w1, r);
            }
            if (used > 2 && bits != 0) {
                bits &= m2.word(s2, w2, r);
            }
            for (int i = 3; i < used && bits != 0; i++) {
                bits &= matches[i].word(segments[i], widths[i], r);
            }
            cnt = FewCodes.expand(bits, r, sel, cnt);
        }
        for (; r < end; r++) {
            boolean pass = true;
            for (int i = 0; i < used; i++) {
                pass &= passes[i][CodeKernels.code(segments[i], widths[i], r)];
            }
            sel[cnt] = r;
            cnt += pass ? 1 : 0;
        }
        return cnt;
    }
}
