/**
 * The plain-loop baseline: the trades data in off-heap columns and hand-written kernels for Q1–Q6 with no planner,
 * no morsels and no placement — what "a bare Java loop" reaches on this machine, so the engine's overhead shows.
 * Also the kernels the JMH benchmarks measure when the engine does not expose its own.
 */
package io.numacube.bench.baseline;
