/**
 * The trades data as the bench feeds it to the peers: the engine's deterministic {@code TradesGenerator} streamed
 * row by row into DuckDB's appender, so that DuckDB, the engine and the bare-loop baseline hold the same rows.
 * Depends on the engine's {@code gen} package only.
 */
package io.numacube.bench.data;
