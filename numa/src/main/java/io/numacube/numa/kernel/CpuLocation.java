package io.numacube.numa.kernel;

/** Where a thread ran at the moment getcpu(2) answered. Immutable. */
public record CpuLocation(int cpu, int node) {}
