/**
 * Execution on the worker pools of {@code workers}: the physical plan compiled from a {@code plan.LogicalQuery},
 * morsel queues per node with nearest-first stealing, the aggregation kernels that scan off-heap columns into
 * per-block partial states, their merge in a fixed order, and the final output ({@code result}). Depends on
 * {@code plan}, {@code storage}, {@code workers}, {@code result} and {@code schema}.
 */
package io.numacube.engine.exec;
