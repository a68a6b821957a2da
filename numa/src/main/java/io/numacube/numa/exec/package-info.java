/**
 * Threads on nodes: {@link io.numacube.numa.exec.ScopedAffinity} (pin the calling thread for a scope, then restore),
 * {@link io.numacube.numa.exec.CpuLocator} (where a thread runs now) and {@link io.numacube.numa.exec.NodeWorkerPool}
 * (platform worker threads pinned per node, reshaped when the bindings change: grown onto a node, shrunk, re-pinned).
 * Reaches the kernel only through
 * {@link io.numacube.numa.kernel.NumaKernel}; without one, pinning is a recorded no-op. Depends on
 * {@code io.numacube.numa}, {@code kernel} and {@code topology} only.
 */
package io.numacube.numa.exec;
