/**
 * Logical plans: bound expressions ({@link io.numacube.engine.plan.Expr}) and the bound aggregation query
 * ({@link io.numacube.engine.plan.LogicalQuery}) that {@code sql} produces and {@code exec} turns into kernels.
 * Depends on {@code schema} only.
 */
package io.numacube.engine.plan;
