package io.numacube.engine;

import java.util.Map;

/**
 * How evenly a table is spread. A skew of 1.0 is perfectly even; 3.0 means the largest is three times the mean, so
 * the workers of the others wait for it. Immutable.
 *
 * @param table          the table
 * @param partitions     number of partitions
 * @param partitionSkew  largest partition's rows / mean rows per partition (0 for an empty table)
 * @param bytesByNode    bytes of the table homed on each node
 * @param nodeSkew       largest node's bytes / mean bytes per node (0 for an empty table)
 */
public record TableSkew(
        String table, int partitions, double partitionSkew, Map<Integer, Long> bytesByNode, double nodeSkew) {
    public TableSkew {
        bytesByNode = Map.copyOf(bytesByNode);
    }
}
