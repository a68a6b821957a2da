/**
 * The {@code numacube bench} harness: a memory-bandwidth probe, the peer comparison against DuckDB on the reference
 * queries Q1–Q6 and Q1 over NULL pnl, placement policies against concurrent query streams, core/node scaling
 * (Gustafson and Amdahl), run-to-run stability, loading files, and TPC-H's 22 queries against DuckDB
 * ({@code tpch}, in {@link io.numacube.bench.tpch}). Entry point: {@link io.numacube.bench.BenchRunner}. May depend on
 * the engine, the runtime, DuckDB, Trino's TPC-H generator, XChart, Jackson and JMH; nothing in the engine or the
 * runtime depends on it.
 */
package io.numacube.bench;
