package io.numacube.spark;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * A planned scan: one Spark partition per shard of a sharded table (each preferring its shard's host), one for a
 * table every shard holds whole (the first shard answers it). Each partition pins the table's version its shard has
 * when the scan's partitions are planned, so an answer for another version (a write landed on a shard while the
 * query ran) fails the task instead of mixing versions ({@link ShardBatchReader}). Immutable.
 */
final class NumacubeScan implements Scan, Batch {

    private final ReadOptions options;
    private final TableLayout layout;
    private final PushedQuery query;
    private final StructType schema;
    private final Filter[] pushed;

    NumacubeScan(ReadOptions options, TableLayout layout, PushedQuery query, StructType schema, Filter[] pushed) {
        this.options = options;
        this.layout = layout;
        this.query = query;
        this.schema = schema;
        this.pushed = pushed.clone();
    }

    @Override
    public StructType readSchema() {
        return schema;
    }

    /** What {@code explain()} shows of the scan: the shards, the SQL each runs and what was pushed. */
    @Override
    public String description() {
        return "numacube " + layout.table() + " over "
                + (layout.sharded()
                        ? layout.count() + " shards by " + layout.shardKey()
                        : "1 of " + layout.count() + " servers (held whole on each)")
                + ", PushedFilters: " + Arrays.toString(pushed)
                + (query.aggregate()
                        ? ", PushedAggregates: "
                                + query.select()
                                        .subList(
                                                query.groupBy().size(),
                                                query.select().size()) + ", PushedGroupBy: " + query.groupBy()
                        : "")
                + (query.limit() < 0
                        ? ""
                        : query.orderBy().isEmpty()
                                ? ", PushedLimit: LIMIT " + query.limit()
                                : ", PushedTopN: ORDER BY " + query.orderBy() + " LIMIT " + query.limit())
                + (query.offset() > 0 ? ", PushedOffset: OFFSET " + query.offset() : "")
                + ", SQL: " + query.sql();
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    /**
     * One partition per shard, each pinned to the version its shard has now (described afresh, so that a DataFrame
     * or view made before a write reads the data after it, as JDBC's would).
     */
    @Override
    public InputPartition[] planInputPartitions() {
        TableLayout now = options.describe();
        if (!now.shards().getFirst().columns().equals(layout.shards().getFirst().columns())) {
            throw new ShardException("numacube: table " + layout.table() + " has other columns than when the query"
                    + " was planned: now " + now.shards().getFirst().columns() + " — read it again");
        }
        List<ShardTable> shards = now.sharded() ? now.shards() : now.shards().subList(0, 1);
        String[] allHosts =
                now.shards().stream().map(s -> s.address().host()).distinct().toArray(String[]::new);
        InputPartition[] out = new InputPartition[shards.size()];
        for (int i = 0; i < out.length; i++) {
            ShardTable s = shards.get(i);
            out[i] = new ShardPartition(
                    s.address(),
                    s.shardIndex() < 0 ? null : s.shardIndex() + "/" + s.shardCount(),
                    layout.table(),
                    s.version(),
                    query.sql(),
                    layout.sharded() ? new String[] {s.address().host()} : allHosts);
        }
        return out;
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new ShardReaderFactory(schema, options.timeout(), options.batchRows());
    }
}
