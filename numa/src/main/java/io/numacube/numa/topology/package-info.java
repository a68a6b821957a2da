/** What the machine is: NUMA nodes, their CPUs, memory and distances, read from sysfs/procfs under an injectable
 *  root. Immutable value types only; no native calls. Depends on nothing else in numacube. */
package io.numacube.numa.topology;
