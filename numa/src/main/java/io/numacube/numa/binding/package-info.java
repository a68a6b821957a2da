/** What this process may use: allowed CPUs and memory nodes, memory policy, cgroup cpuset, cgroup memory limit
 *  ({@link io.numacube.numa.binding.CgroupMemoryLimitReader}), automatic balancing.
 *  Depends on {@code topology} and the {@code kernel} interface. */
package io.numacube.numa.binding;
