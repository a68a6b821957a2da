/**
 * CSV ingest: an RFC 4180 reader over bytes ({@link io.numacube.engine.ingest.csv.CsvTableReader}) that feeds typed
 * values row by row into a {@link io.numacube.engine.ingest.csv.CsvRowSink}, schema declaration parsing and schema
 * inference ({@link io.numacube.engine.ingest.csv.CsvSchemas}), and the matching writer
 * ({@link io.numacube.engine.ingest.csv.CsvWriter}); {@link io.numacube.engine.ingest.csv.CsvStagingLoader} stages a file
 * into an {@link io.numacube.engine.ingest.TableStaging} for an atomic {@code Cube.loadTable};
 * {@link io.numacube.engine.ingest.csv.CsvInput} opens a source once (pipes too) and decompresses gzip and zstd
 * (zstd-jni, the one outside dependency here). Every malformed input is an error that names
 * {@code file:line:column}, the field and its value; nothing is skipped silently. Depends on
 * {@code io.numacube.engine.schema}, {@code io.numacube.engine.ingest} (the staging) and {@code io.numacube.numa} (for
 * {@link io.numacube.numa.base.NumacubeException}) and zstd-jni only, never on the storage or query layers.
 */
package io.numacube.engine.ingest.csv;
