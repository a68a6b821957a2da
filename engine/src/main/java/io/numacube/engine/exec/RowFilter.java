package io.numacube.engine.exec;

/**
 * The rows a query reads: a row passes when its code passes every {@link CodeMask} and the {@code residual}
 * predicate (if any) holds. Conjuncts that read one dimension (or only lookup columns, which depend on the join key
 * alone) are code masks, evaluated once per dictionary code at planning time and usable against zone maps; the rest
 * is the vectorized residual. Immutable.
 *
 * @param masks         at most one mask per column (conjuncts on one column are ANDed into one), in plan order; a
 *                      mask's index is its bit in the active-mask words of the scheduler (only the first 63 can be
 *                      skipped per morsel)
 * @param residual      the predicate over several columns or measures, or null when every conjunct is a mask
 * @param nothingPasses a constant conjunct is false or NULL: no morsel needs to run
 */
record RowFilter(CodeMask[] masks, BatchPredicate residual, boolean nothingPasses) {

    /**
     * Which codes of one dimension column pass, with prefix counts for zone-map checks.
     *
     * @param column       the fact column whose codes are tested
     * @param passes       {@code passes[code]}: the code's value satisfies the conjuncts on this column; length is
     *                     the dictionary size (at least 1)
     * @param passingBelow {@code passingBelow[c]}: how many codes below {@code c} pass (length {@code passes.length
     *                     + 1}), so the passing codes in {@code [lo, hi]} number {@code passingBelow[hi + 1] -
     *                     passingBelow[lo]}
     * @param few          the passing codes matched a word at a time, when at most {@value FewCodes#MAX_CODES} pass;
     *                     else null
     */
    record CodeMask(int column, boolean[] passes, int[] passingBelow, FewCodes few) {

        /** A mask with its prefix counts and few passing codes computed. */
        static CodeMask of(int column, boolean[] passes) {
            int[] below = new int[passes.length + 1];
            for (int c = 0; c < passes.length; c++) {
                below[c + 1] = below[c] + (passes[c] ? 1 : 0);
            }
            return new CodeMask(column, passes, below, FewCodes.of(passes));
        }

        /** How many codes in {@code [lo, hi]} pass. */
        int passingIn(int lo, int hi) {
            return passingBelow[hi + 1] - passingBelow[lo];
        }
    }
}
