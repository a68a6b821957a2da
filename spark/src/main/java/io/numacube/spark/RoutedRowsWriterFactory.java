package io.numacube.spark;

import java.time.Duration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.types.StructType;

/** Makes each task's {@link RoutedRowsWriter}. Immutable, serializable. */
record RoutedRowsWriterFactory(TableLayout layout, StructType schema, Duration timeout) implements DataWriterFactory {

    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
        return new RoutedRowsWriter(layout, schema, timeout, partitionId);
    }
}
