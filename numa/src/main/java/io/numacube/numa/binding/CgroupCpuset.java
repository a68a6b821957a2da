package io.numacube.numa.binding;

import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;

/**
 * The effective cpuset of this process's cgroup (v1 or v2). Immutable. The cpuset always wins over a memory policy.
 *
 * @param version 1 or 2
 * @param path    the cgroup path, as in /proc/self/cgroup (e.g. {@code /docker/abc})
 * @param cpus    effective CPUs
 * @param mems    effective memory nodes
 */
public record CgroupCpuset(int version, String path, CpuSet cpus, NodeSet mems) {}
