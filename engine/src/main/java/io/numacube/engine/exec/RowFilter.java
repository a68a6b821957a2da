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
     * Which codes of one dimension column pass, with counts of the passing codes by blocks of {@value #BLOCK} codes
     * for zone-map checks (a count per code cost a dependent pass over every code at each planning, and TPC-H's order
     * key has 1.5M codes at SF 1).
     *
     * @param column      the fact column whose codes are tested
     * @param passes      {@code passes[code]}: the code's value satisfies the conjuncts on this column; length is the
     *                    dictionary size (at least 1)
     * @param blockBelow  {@code blockBelow[b]}: how many codes below {@code b * BLOCK} pass, for {@code b} up to
     *                    {@code passes.length / BLOCK + 1}; the last entry counts every passing code
     * @param few         the passing codes matched a word at a time, when at most {@value FewCodes#MAX_CODES} pass;
     *                    else null
     * @param interval    the passing codes as one interval matched a word at a time, when they are one (a range
     *                    predicate on a sorted dictionary); else null
     */
    record CodeMask(int column, boolean[] passes, int[] blockBelow, FewCodes few, CodeInterval interval) {

        /** Codes per counted block. */
        static final int BLOCK = 64;

        /**
         * A mask with its block counts, few passing codes and interval computed, in one pass over the codes (a mask
         * is made at each planning, and a dictionary may have millions of codes).
         */
        static CodeMask of(int column, boolean[] passes) {
            int blocks = passes.length / BLOCK + 1;
            int[] below = new int[blocks + 1];
            int first = -1;
            int last = -1;
            for (int b = 0; b < blocks; b++) {
                int n = 0;
                for (int c = b * BLOCK, end = Math.min(c + BLOCK, passes.length); c < end; c++) {
                    n += passes[c] ? 1 : 0;
                }
                if (n > 0) {
                    first = first < 0 ? b * BLOCK : first;
                    last = b;
                }
                below[b + 1] = below[b] + n;
            }
            CodeInterval interval =
                    first < 0 ? null : CodeInterval.spanning(passes, first, last * BLOCK, below[blocks]);
            return new CodeMask(column, passes, below, FewCodes.of(passes), interval);
        }

        /**
         * The test of 64 rows at a time that serves codes of width {@code w}, or null: the interval where the codes
         * are one (a subtraction per side), else the few codes.
         */
        CodeWordMatch words(io.numacube.engine.storage.CodeWidth w) {
            if (interval != null && interval.serves(w)) {
                return interval;
            }
            return few != null && few.serves(w) ? few : null;
        }

        /** How many codes in {@code [lo, hi]} pass. */
        int passingIn(int lo, int hi) {
            return passingBelow(hi + 1) - passingBelow(lo);
        }

        /** How many codes pass in all. */
        int passing() {
            return blockBelow[blockBelow.length - 1];
        }

        /** How many codes below {@code code} pass: its block's count, then at most {@code BLOCK - 1} codes read. */
        private int passingBelow(int code) {
            int b = code / BLOCK;
            int n = blockBelow[b];
            for (int c = b * BLOCK, end = Math.min(code, passes.length); c < end; c++) {
                n += passes[c] ? 1 : 0;
            }
            return n;
        }
    }
}
