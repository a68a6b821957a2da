package io.numacube.spark;

import java.time.Duration;
import java.util.Objects;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads one shard's answer as one columnar batch: runs the partition's query, checks that the answer comes from
 * the planned shard and read the planned version of the table, and hands Spark the columns. Used by one task's
 * thread.
 */
final class ShardBatchReader implements PartitionReader<ColumnarBatch> {

    private final ShardPartition partition;
    private final StructType schema;
    private final Duration timeout;
    private ColumnarBatch batch;
    private boolean read;

    ShardBatchReader(ShardPartition partition, StructType schema, Duration timeout) {
        this.partition = partition;
        this.schema = schema;
        this.timeout = timeout;
    }

    @Override
    public boolean next() {
        if (read) {
            return false;
        }
        read = true;
        ColumnarAnswer answer = new ShardClient(partition.address(), timeout).query(partition.sql());
        check(answer);
        batch = SparkVectors.batch(answer, schema);
        return true;
    }

    private void check(ColumnarAnswer answer) {
        if (!Objects.equals(answer.shard(), partition.shard())) {
            throw new ShardException("numacube shard " + partition.address() + " answered as shard " + answer.shard()
                    + ", the query was planned with it as shard " + partition.shard()
                    + " — a server was restarted with another --shard; rerun the query");
        }
        Long version = answer.versions().entrySet().stream()
                .filter(e -> e.getKey().equalsIgnoreCase(partition.table()))
                .map(java.util.Map.Entry::getValue)
                .findFirst()
                .orElse(null);
        if (version == null || version != partition.version()) {
            throw new ShardException("numacube shard " + partition.address() + " answered for table "
                    + partition.table() + " version " + version + ", the query was planned at version "
                    + partition.version() + " (its peers answer for the versions they had then) — the table"
                    + " changed during the query; rerun it");
        }
    }

    @Override
    public ColumnarBatch get() {
        return batch;
    }

    @Override
    public void close() {
        if (batch != null) {
            batch.close();
        }
    }
}
