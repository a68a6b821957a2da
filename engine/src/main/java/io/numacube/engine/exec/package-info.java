/**
 * Execution on the worker pools of {@code workers}. {@code QueryCompiler} turns a {@code plan.LogicalQuery} into a
 * {@code PhysicalPlan} of named parts (row filter, group-key space, accumulators, final aggregates with their
 * post-aggregation steps, scan columns); {@code QueryExecutor} schedules its morsels on per-node queues with
 * nearest-first stealing; each block of morsels is sunk into an {@code AggregationState} (a batch's rows selected by
 * {@code BatchSelection}, keyed by {@code BatchGroupIds}, added by {@code BatchAccumulation} into its {@code
 * GroupValues}) by the batch kernels ({@code CodeKernels}, {@code MaskWords}, {@code BatchExpression}, {@code
 * BatchPredicate}, {@code AccumulatorKernels}, {@code FusedKeySums}), states are combined in a fixed order, and {@code ResultFinalizer} finalizes the {@code result}. Depends on {@code plan}, {@code
 * storage}, {@code workers}, {@code result} and {@code schema}.
 */
package io.numacube.engine.exec;
