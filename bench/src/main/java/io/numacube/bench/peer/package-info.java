/**
 * The peer comparison: the reference queries Q1–Q6, result tables in an engine-neutral form, their comparison
 * (exact for keys and counts, relative tolerance for floating-point aggregates), the bytes each query reads, and
 * the DuckDB side (in-process JDBC). DuckDB is used here and in tests only, never by the engine.
 */
package io.numacube.bench.peer;
