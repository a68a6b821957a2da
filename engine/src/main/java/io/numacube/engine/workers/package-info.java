/**
 * The engine's worker pools grouped by node ({@link io.numacube.engine.workers.WorkerPool}: node-pinned workers of
 * the {@code numa} runtime, or plain threads for simulated nodes). {@code storage} uses them to fill partitions on
 * their nodes, {@code exec} to run morsels. Depends on the {@code numa} runtime only.
 */
package io.numacube.engine.workers;
