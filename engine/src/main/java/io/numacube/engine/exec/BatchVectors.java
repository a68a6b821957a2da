package io.numacube.engine.exec;

/**
 * A worker's batch vectors: the selection, group ids and keys of the batch being folded, the values of an
 * argument, the residual predicate's output and the expression scratch. Reused batch after batch and shared by
 * the states of the blocks one worker runs one after another; never by two threads.
 *
 * <p>Invariants: every vector holds {@link AggregationState#BATCH} entries; {@code groupKeys} is null for dense keys
 * and {@code passes} where the plan has no residual predicate. The vectors hold nothing between batches.
 */
record BatchVectors(
        MorselView view,
        int[] selection,
        int[] groupIds,
        long[] groupKeys,
        double[] values,
        long[] exactValues,
        boolean[] passes,
        boolean[] isNull,
        boolean[] filterPass,
        int[] valueRows,
        int[] valueGroups,
        BatchScratch scratch) {

    /** Fresh vectors sized for {@code plan}'s batches. */
    static BatchVectors of(PhysicalPlan plan) {
        int n = AggregationState.BATCH;
        return new BatchVectors(
                new MorselView(plan.fact().columnSlots()),
                new int[n],
                new int[n],
                plan.keys().dense() ? null : new long[n],
                new double[n],
                new long[n],
                plan.filter().residual() == null ? null : new boolean[n],
                new boolean[n],
                new boolean[n],
                new int[n],
                new int[n],
                new BatchScratch(plan.scratch().doubleSlots(), plan.scratch().booleanSlots(), n));
    }
}
