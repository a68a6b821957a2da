/**
 * The cube's public API: {@link io.numacube.engine.Cube} (open, load, generate, query, placement, close), its options
 * and reports (partitions, the machine's nodes: {@link io.numacube.engine.MachineNode}; its results are in {@code
 * result}, its load options in {@code storage}). It sits on top:
 * {@code sql} (parse, bind) -> {@code plan} (logical plans) <- {@code exec} (morsels, kernels, merge) ->
 * {@code storage} (placed columnar partitions; {@code ingest} fills them) -> {@code workers} -> {@code schema} ->
 * the {@code numa} runtime. No package below depends on this one; the CLI and bench do. The allowed dependencies
 * are one table, checked by the cli module's {@code PackageLayersTest}.
 */
package io.numacube.engine;
