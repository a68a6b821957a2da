/**
 * The bench's migration section (issue 13): how fast partitions move between nodes by the copy path a cube uses when
 * it follows the machine, and what a move does to query latency. Depends on the engine's public API only.
 */
package io.numacube.bench.migration;
