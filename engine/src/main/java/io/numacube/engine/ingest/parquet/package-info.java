/**
 * Parquet tables: {@link io.numacube.engine.ingest.parquet.ParquetStagingLoader} reads a flat Parquet file (through
 * the pure-Java hardwood reader: snappy, zstd, gzip, lz4 or no compression) into a {@link
 * io.numacube.engine.ingest.TableStaging}, and {@link io.numacube.engine.ingest.parquet.ParquetColumn} maps each
 * Parquet column to a numacube type or refuses it by name. Row groups are decoded whole into
 * {@link io.numacube.engine.ingest.StagingBlock}s ({@code RowGroupDecoder}), on the calling thread or in parallel on
 * the cube's workers ({@code ParallelRowGroups}), and staged in file order. Depends on ingest, schema, storage's
 * dictionaries and the workers only.
 */
package io.numacube.engine.ingest.parquet;
