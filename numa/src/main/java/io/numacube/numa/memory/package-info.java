/** Placed off-heap memory: segments on chosen nodes (mbind, or first touch by a pinned thread where mbind is
 *  refused), explicit freeing, and verification of where pages really are (move_pages, /proc/self/numa_maps). */
package io.numacube.numa.memory;
