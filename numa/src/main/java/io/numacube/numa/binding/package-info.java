/** What this process may use: allowed CPUs and memory nodes, memory policy, cgroup cpuset, cgroup memory limit
 *  ({@link io.numacube.numa.binding.CgroupMemoryLimitReader}), automatic balancing; and how they change while the
 *  process runs ({@link io.numacube.numa.binding.BindingWatcher}, re-reading them every period).
 *  Depends on {@code topology} and the {@code kernel} interface. */
package io.numacube.numa.binding;
