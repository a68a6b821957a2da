/**
 * Placed off-heap memory: {@link io.numacube.numa.memory.NodeMemory} allocates
 * {@link io.numacube.numa.memory.PlacedSegment}s on chosen nodes (mbind, or first touch by a pinned thread where
 * mbind is refused), {@link io.numacube.numa.memory.PolicyProbe} finds which calls work here, and
 * {@link io.numacube.numa.memory.PageLocator} verifies where pages really are (move_pages, else
 * {@link io.numacube.numa.memory.NumaMaps} of /proc/self/numa_maps) as a {@link io.numacube.numa.memory.PageCensus}.
 * Reaches the kernel only through {@link io.numacube.numa.kernel.NumaKernel}. Depends on {@code io.numacube.numa},
 * {@code kernel}, {@code topology} and {@code exec} (for pinning the touching thread).
 */
package io.numacube.numa.memory;
