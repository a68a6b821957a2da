package io.numacube.engine;

/**
 * Where one partition of a table lives, as verified from the kernel at the time of the call. Immutable.
 *
 * @param table          the table name
 * @param partitionId    0-based id within the table
 * @param label          what the partition holds ({@code rows 0..999}, {@code desk=DESK-07,DESK-12})
 * @param homeNode       the node whose workers fill it and whose queue its morsels go to
 * @param memoryNode     the node its memory was asked on, or -1 (interleave, OS default)
 * @param rows           rows in the partition
 * @param bytes          bytes of its off-heap columns
 * @param placementApplied how the memory was actually placed ({@code BIND}, {@code FIRST_TOUCH}, {@code OS_DEFAULT},
 *                       ...), with the fallback reason if any
 * @param pagesOnNodePct percentage of its resident pages that are on {@code memoryNode} (or on the home node when
 *                       memoryNode is -1), from a page census; NaN when the census is not possible here
 */
public record PartitionInfo(
        String table,
        int partitionId,
        String label,
        int homeNode,
        int memoryNode,
        long rows,
        long bytes,
        String placementApplied,
        double pagesOnNodePct) {}
