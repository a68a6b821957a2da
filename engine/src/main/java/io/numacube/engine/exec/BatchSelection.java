package io.numacube.engine.exec;

import io.numacube.engine.storage.DeletedRows;

/**
 * Selects the rows of a batch that the WHERE keeps, for an {@link AggregationState}: the active code masks (together
 * 64 rows at a time by {@link MaskWords}, or the one that passes few codes first by {@link FewCodes}, the others
 * refining), then the rows not deleted, then the residual predicate. The order in which masks apply changes which rows
 * are tested, never which pass nor their order.
 *
 * <p>Invariants: a selection it returns is the batch vectors' selection vector, ascending row numbers of the batch,
 * {@link #selected} long; null stands for every row of the batch. Not thread-safe: owned by one state, and it writes
 * the batch vectors it shares with the other states of its worker.
 */
final class BatchSelection {

    private final RowFilter.CodeMask[] masks;
    private final BatchPredicate residual;
    private final BatchVectors vectors;

    BatchSelection(PhysicalPlan plan, BatchVectors vectors) {
        this.masks = plan.filter().masks();
        this.residual = plan.filter().residual();
        this.vectors = vectors;
        this.maskWords =
                fewCodes && !"false".equals(System.getProperty(MASK_WORDS_PROPERTY)) ? MaskWords.of(masks) : null;
    }

    /**
     * The rows of batch {@code [b, b + n)} that pass: the masks whose bit is set in {@code activeMasks}, then where
     * {@code deleted} is not null the rows not deleted (the partition's bits; the morsel starts at partition row
     * {@code first}), then the residual predicate. Null where every row passes; {@link #selected} is their count.
     */
    int[] select(MorselView view, int b, int n, long activeMasks, long[] deleted, int first) {
        int[] sel = applyMasks(view, b, n, activeMasks);
        int cnt = sel == null ? n : selected;
        if (deleted != null && cnt > 0) {
            sel = dropDeleted(deleted, first, b, cnt, sel);
            cnt = selected;
        }
        if (cnt > 0 && residual != null) {
            sel = applyResidual(view, b, cnt, sel);
            cnt = selected;
        }
        selected = cnt;
        return sel;
    }

    /** How many rows the last {@link #select} selected. */
    int selected() {
        return selected;
    }

    /** How many rows the last {@link #applyMasks}, {@link #dropDeleted} or {@link #applyResidual} selected. */
    private int selected;

    /**
     * Applies the active code masks to batch {@code [b, b + n)}: null when no mask is active (every row selected),
     * else the selection vector, {@link #selected} rows long.
     */
    private int[] applyMasks(MorselView view, int b, int n, long activeMasks) {
        int[] sel = null;
        int cnt = n;
        int[] selection = vectors.selection();
        if (maskWords != null && maskWords.prepare(view, activeMasks) > 0) {
            return applyMaskWords(view, b, n, activeMasks);
        }
        int few = fewCodesMask(view, activeMasks);
        if (few >= 0) {
            int col = masks[few].column();
            cnt = masks[few].few().select(view.columns[col], view.widths[col], b, n, selection);
            sel = selection;
        }
        for (int i = 0; i < masks.length && cnt > 0; i++) {
            if (i == few || i < 63 && (activeMasks & (1L << i)) == 0) {
                continue;
            }
            int col = masks[i].column();
            if (sel == null) {
                cnt = CodeKernels.selectDense(view.columns[col], view.widths[col], b, n, masks[i].passes(), selection);
                sel = selection;
            } else {
                cnt = CodeKernels.refine(view.columns[col], view.widths[col], selection, cnt, masks[i].passes());
            }
        }
        selected = cnt;
        return sel;
    }

    /**
     * {@link #applyMasks} where {@link #maskWords} applies some active masks (chosen by its {@code prepare}): they
     * select together, then the other active masks refine their rows.
     */
    private int[] applyMaskWords(MorselView view, int b, int n, long activeMasks) {
        int[] selection = vectors.selection();
        int cnt = maskWords.select(b, n, selection);
        for (int i = 0; i < masks.length && cnt > 0; i++) {
            if (maskWords.applied(i) || i < 63 && (activeMasks & (1L << i)) == 0) {
                continue;
            }
            int col = masks[i].column();
            cnt = CodeKernels.refine(view.columns[col], view.widths[col], selection, cnt, masks[i].passes());
        }
        selected = cnt;
        return selection;
    }

    /**
     * The masks that match 64 rows at a time, applied together ({@link MaskWords}), or null: where no mask has a
     * word test, or where they are off (system property {@value #MASK_WORDS_PROPERTY} {@code false}, read as each
     * block's state is made; then {@link #fewCodesMask} selects as before), only to compare.
     */
    private final MaskWords maskWords;

    /** The system property that turns the joint word-at-a-time selection of masks off ({@code false}), for A/B. */
    static final String MASK_WORDS_PROPERTY = "numacube.maskWords";

    /**
     * The first active mask that passes few codes of a width {@link FewCodes} serves, or -1: it selects first (the
     * others then refine its few rows). The order of the masks changes which rows are tested, never which pass or
     * their order, so the answer is the same.
     */
    private int fewCodesMask(MorselView view, long activeMasks) {
        for (int i = 0; i < masks.length && fewCodes; i++) {
            boolean active = i >= 63 || (activeMasks & (1L << i)) != 0;
            FewCodes few = masks[i].few();
            if (active && few != null && few.serves(view.widths[masks[i].column()])) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether masks that pass few codes select by {@link FewCodes}; off (system property {@value #FEW_CODES_PROPERTY}
     * {@code false}, read as each block's state is made) only to compare.
     */
    private final boolean fewCodes = !"false".equals(System.getProperty(FEW_CODES_PROPERTY));

    /** The system property that turns the word-at-a-time selection of few codes off ({@code false}), for A/B. */
    static final String FEW_CODES_PROPERTY = "numacube.fewCodes";

    /**
     * Keeps the selected rows of the batch that are not deleted ({@code deleted}: the partition's bits; the morsel starts
     * at partition row {@code first}); {@link #selected} is their count.
     */
    private int[] dropDeleted(long[] deleted, int first, int b, int cnt, int[] sel) {
        int[] selection = vectors.selection();
        int c = 0;
        for (int k = 0; k < cnt; k++) {
            int row = sel == null ? b + k : sel[k];
            selection[c] = row;
            c += DeletedRows.isSet(deleted, first + row) ? 0 : 1;
        }
        selected = c;
        return selection;
    }

    /** Keeps the selected rows of the batch for which the residual predicate holds; {@link #selected} is their count. */
    private int[] applyResidual(MorselView view, int b, int cnt, int[] sel) {
        boolean[] pass = vectors.passes();
        int[] selection = vectors.selection();
        residual.eval(view, b, cnt, sel, pass, vectors.scratch());
        int c = 0;
        if (sel == null) {
            for (int k = 0; k < cnt; k++) {
                selection[c] = b + k;
                c += pass[k] ? 1 : 0;
            }
        } else {
            for (int k = 0; k < cnt; k++) {
                selection[c] = selection[k];
                c += pass[k] ? 1 : 0;
            }
        }
        selected = c;
        return selection;
    }

    /** Whether every code mask of the plan passes this morsel whole (by its zone map), so every row is selected. */
    boolean noMaskActive(long activeMasks) {
        int n = masks.length;
        return n == 0 || n < 64 && (activeMasks & (-1L >>> (64 - n))) == 0;
    }
}
