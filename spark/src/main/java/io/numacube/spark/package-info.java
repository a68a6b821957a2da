/**
 * numacube under Apache Spark: a DataSource V2 connector ({@code spark.read.format("numacube")}) and a catalog of
 * the shards' tables ({@link io.numacube.spark.NumacubeCatalog}, for {@code spark.sql}) over the shards of
 * {@code numacube serve --shard I/N}, talking to each over HTTP. Reads are one Spark partition per shard, with
 * required columns, filters, aggregates, LIMIT and top-N pushed down as SQL and the answers read as columnar batches
 * as they arrive ({@link io.numacube.spark.ColumnarAnswer}); appends are routed to their shard by the shard key's hash
 * ({@link io.numacube.spark.ShardHash}). A leaf module: nothing in numacube depends on it, and it depends on no
 * numacube module (only on the HTTP protocol), so that its jar is all a Spark job needs.
 */
package io.numacube.spark;
