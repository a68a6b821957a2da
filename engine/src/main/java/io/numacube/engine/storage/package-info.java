/**
 * Columnar off-heap storage: sorted dictionaries for dimensions, partitions (one native block each, columns of
 * narrow codes and 8-byte measures, per-morsel zone maps) placed on NUMA nodes by
 * {@link io.numacube.engine.storage.TableBuilder}, the column memory they come from, and how a load lays them out
 * ({@link io.numacube.engine.storage.Placement}, {@link io.numacube.engine.storage.Partitioning},
 * {@link io.numacube.engine.storage.ProgressListener}), and how a partition moves to another node by copy
 * ({@link io.numacube.engine.storage.PartitionMover}). Depends on {@code schema}, {@code workers} (to fill
 * partitions on their nodes) and the {@code numa} runtime.
 */
package io.numacube.engine.storage;
