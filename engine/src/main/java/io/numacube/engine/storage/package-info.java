/**
 * Columnar off-heap storage: sorted dictionaries for dimensions, partitions (one native block each, columns of
 * narrow codes and 8-byte measures, per-morsel zone maps) placed on NUMA nodes by
 * {@link io.numacube.engine.storage.TableBuilder}, and the column memory they come from. Depends on {@code schema},
 * {@code exec.WorkerPool} (to fill partitions on their nodes) and the {@code numa} runtime.
 */
package io.numacube.engine.storage;
