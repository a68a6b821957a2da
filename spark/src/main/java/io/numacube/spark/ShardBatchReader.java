package io.numacube.spark;

import java.time.Duration;
import java.util.Objects;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads one shard's answer batch by batch: runs the partition's query, checks from the answer's header that it comes
 * from the planned shard and read the planned version of the table, then hands Spark one columnar batch of at most
 * {@code batchRows} rows per {@link #next}, reading the next one only then (so a task holds one batch, not its
 * shard's whole answer; each batch is closed when the next is read). Used by one task's thread.
 */
final class ShardBatchReader implements PartitionReader<ColumnarBatch> {

    private final ShardPartition partition;
    private final StructType schema;
    private final Duration timeout;
    private final int batchRows;
    private ColumnarAnswer answer;
    private ColumnarBatch batch;

    ShardBatchReader(ShardPartition partition, StructType schema, Duration timeout, int batchRows) {
        this.partition = partition;
        this.schema = schema;
        this.timeout = timeout;
        this.batchRows = batchRows;
    }

    @Override
    public boolean next() {
        ShardClient client = new ShardClient(partition.address(), timeout);
        if (answer == null) {
            answer = client.query(partition.sql(), batchRows);
            try {
                check(answer);
            } catch (RuntimeException e) {
                answer.close();
                throw e;
            }
        }
        if (batch != null) {
            batch.close();
            batch = null;
        }
        ColumnarAnswer.Batch b;
        try {
            b = answer.next();
        } catch (RuntimeException e) {
            throw client.unreadable(e);
        }
        if (b == null) {
            return false;
        }
        batch = SparkVectors.batch(b, schema);
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
        if (answer != null) {
            answer.close();
        }
    }
}
