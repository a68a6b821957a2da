package io.numacube.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One shard's part of a scan: where to ask, what, and what the answer must say it read. Immutable.
 *
 * @param address   the shard's HTTP address
 * @param shard     the shard's {@code I/N} as planned, or null for a server that holds every row
 * @param table     the table the query reads
 * @param version   the table's version on this shard when the scan was planned
 * @param sql       the query
 * @param hosts     the hosts Spark should prefer to run it on
 */
record ShardPartition(ShardAddress address, String shard, String table, long version, String sql, String[] hosts)
        implements InputPartition {

    @Override
    public String[] preferredLocations() {
        return hosts.clone();
    }
}
