/**
 * Execution: worker pools grouped by node ({@link io.numacube.engine.exec.WorkerPool}), morsel queues per node with
 * nearest-first stealing, and the aggregation kernels that scan off-heap columns into thread-local partials.
 * Depends on {@code storage} and {@code plan}.
 */
package io.numacube.engine.exec;
