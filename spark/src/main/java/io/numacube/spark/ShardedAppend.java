package io.numacube.spark;

import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;

/**
 * {@code df.write.format("numacube").mode("append")}: each Spark task sends its rows to their shards
 * ({@link RoutedRowsWriter}), each shard's share as atomic batches of the server's append API. Only appends: the
 * table's columns are the shards' own. A task's batches are sent when the task commits; batches sent by tasks that
 * committed stay when the job later fails (as with JDBC): numacube has no transaction across servers. Immutable.
 */
final class ShardedAppend implements WriteBuilder, Write, BatchWrite {

    private final ReadOptions options;
    private final TableLayout layout;
    private final StructType schema;

    ShardedAppend(ReadOptions options, TableLayout layout, StructType schema) {
        this.options = options;
        this.layout = layout;
        this.schema = schema;
    }

    @Override
    public Write build() {
        return this;
    }

    @Override
    public BatchWrite toBatch() {
        return this;
    }

    @Override
    public String description() {
        return "numacube append to " + layout.table() + " over " + layout.count() + " shards";
    }

    @Override
    public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
        return new RoutedRowsWriterFactory(layout, schema, options.timeout());
    }

    @Override
    public void commit(WriterCommitMessage[] messages) {
        // every task's batches were applied by their shards when the task committed
    }

    @Override
    public void abort(WriterCommitMessage[] messages) {
        // batches of committed tasks are applied and stay (no transaction spans servers); others were never sent
    }
}
