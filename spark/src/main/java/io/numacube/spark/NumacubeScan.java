package io.numacube.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/**
 * A planned scan: one Spark partition per shard of a sharded table (each preferring its shard's host), one for a
 * table every shard holds whole (the first shard answers it). Each partition pins the table's version its shard has
 * when the scan's partitions are planned, so an answer for another version (a write landed on a shard while the
 * query ran) fails the task instead of mixing versions ({@link ShardBatchReader}). A split scan ({@link ScanSplit}) has
 * one partition per range of each shard's rows instead. Immutable.
 */
final class NumacubeScan implements Scan, Batch {

    private final ReadOptions options;
    private final TableLayout layout;
    private final PushedQuery query;
    private final StructType schema;
    private final ScanSplit split;

    NumacubeScan(ReadOptions options, TableLayout layout, PushedQuery query, StructType schema, ScanSplit split) {
        this.options = options;
        this.layout = layout;
        this.query = query;
        this.schema = schema;
        this.split = split;
    }

    @Override
    public StructType readSchema() {
        return schema;
    }

    /**
     * What {@code explain()} shows of the scan: the shards, the SQL each runs and what was pushed (the filters as the
     * shards' conditions, where Spark's own text would show a date as its days).
     */
    @Override
    public String description() {
        return "numacube " + layout.table() + " over "
                + (layout.sharded()
                        ? layout.count() + " shards by " + layout.shardKey()
                        : "1 of " + layout.count() + " servers (held whole on each)")
                + ", PushedFilters: " + query.where()
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
                + (split == null ? "" : ", Split: " + split.describe())
                + ", SQL: " + query.sql();
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    /**
     * One partition per shard, or per range of a shard's rows for a split scan ({@link ScanSplit}), each pinned to the
     * version its shard has now (described afresh, so that a DataFrame or view made before a write reads the data
     * after it, as JDBC's would; every range of a shard pins the same version, so the ranges add up to one version).
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
        List<InputPartition> out = new ArrayList<>();
        for (ShardTable s : shards) {
            for (PushedQuery range : ranges(s)) {
                out.add(new ShardPartition(
                        s.address(),
                        s.shardIndex() < 0 ? null : s.shardIndex() + "/" + s.shardCount(),
                        layout.table(),
                        s.version(),
                        range.sql(),
                        layout.sharded() ? new String[] {s.address().host()} : allHosts));
            }
        }
        return out.toArray(new InputPartition[0]);
    }

    /** The queries of one shard's partitions: the scan's, or one per range of a split scan. */
    private List<PushedQuery> ranges(ShardTable shard) {
        if (split == null) {
            return List.of(query);
        }
        Long min = null;
        Long max = null;
        if (split.lower() == null) {
            ShardClient client = new ShardClient(shard.address(), options.timeout());
            try (ColumnarAnswer bounds = client.query(split.boundsSql(layout.table()), 1)) {
                ColumnarAnswer.Batch b = bounds.next();
                if (b != null && b.rowCount() == 1 && !b.columns().getFirst().isNull(0)) {
                    min = b.columns().get(0).longs()[0];
                    max = b.columns().get(1).longs()[0];
                }
            } catch (RuntimeException e) {
                throw e instanceof ShardException ? e : client.unreadable(e);
            }
        }
        List<String> conditions = split.conditions(min, max);
        return conditions.isEmpty()
                ? List.of(query)
                : conditions.stream().map(query::where).toList();
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new ShardReaderFactory(schema, options.timeout(), options.batchRows());
    }
}
