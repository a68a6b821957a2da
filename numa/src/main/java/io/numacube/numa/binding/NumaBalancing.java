package io.numacube.numa.binding;

/** The kernel's automatic NUMA balancing setting ({@code /proc/sys/kernel/numa_balancing}). */
public enum NumaBalancing {
    OFF,
    ON,
    MEMORY_TIERING,
    UNKNOWN
}
