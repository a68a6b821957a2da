package io.numacube.engine.storage;

import io.numacube.engine.workers.WorkerPool;

/**
 * Where and how new partitions of a table are built: the placement they get, the data nodes and their fillers, rows
 * per morsel, the memory their blocks come from and the workers that fill them. Immutable.
 *
 * @param placement  the placement of new partitions
 * @param layout     the data nodes and the worker node that fills each
 * @param morselRows rows per morsel
 * @param memory     the memory the blocks come from
 * @param pool       the workers that fill them
 */
public record PlacementTarget(
        Placement placement, TableBuilder.NodeLayout layout, int morselRows, ColumnMemory memory, WorkerPool pool) {}
