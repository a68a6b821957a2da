/**
 * TPC-H as the bench's second workload (issue 16): the eight tables generated once by Trino's Java port of dbgen and
 * cached as CSV and Parquet files ({@link io.numacube.bench.tpch.TpchData}), loaded with the specification's types by
 * numacube and by DuckDB from the same files, the 22 queries as resources ({@link io.numacube.bench.tpch.TpchQuery}),
 * and the section that checks numacube's answers against DuckDB's and times both
 * ({@link io.numacube.bench.tpch.TpchBench}). Depends on the engine, DuckDB and the bench's peer and report packages;
 * nothing depends on it but the bench runner.
 */
package io.numacube.bench.tpch;
