/**
 * Parquet tables: {@link io.numacube.engine.ingest.parquet.ParquetStagingLoader} reads a flat Parquet file (through
 * the pure-Java hardwood reader: snappy, zstd, gzip, lz4 or no compression) into a {@link
 * io.numacube.engine.ingest.TableStaging}, and {@link io.numacube.engine.ingest.parquet.ParquetColumn} maps each
 * Parquet column to a numacube type or refuses it by name. Depends on ingest and schema only.
 */
package io.numacube.engine.ingest.parquet;
