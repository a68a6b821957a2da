package io.numacube.spark;

import java.time.Duration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/** Makes the columnar reader of a shard's partition; rows are never read one by one. Immutable, serializable. */
record ShardReaderFactory(StructType schema, Duration timeout, int batchRows) implements PartitionReaderFactory {

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return true;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        return new ShardBatchReader((ShardPartition) partition, schema, timeout, batchRows);
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        throw new UnsupportedOperationException("numacube scans are columnar: supportColumnarReads is true");
    }
}
