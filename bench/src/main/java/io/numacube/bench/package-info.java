/**
 * The {@code numacube bench} harness: a memory-bandwidth probe, the peer comparison against DuckDB on the reference
 * queries Q1–Q6 and Q1 over NULL pnl, placement policies against concurrent query streams, core/node scaling (Gustafson and Amdahl) and
 * run-to-run stability. Entry point: {@link io.numacube.bench.BenchRunner}. May depend on the engine, the runtime,
 * DuckDB, XChart, Jackson and JMH; nothing in the engine or the runtime depends on it.
 */
package io.numacube.bench;
