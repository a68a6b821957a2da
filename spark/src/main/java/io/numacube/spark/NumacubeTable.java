package io.numacube.spark;

import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * One numacube table over its shards, as described when Spark resolved it ({@link TableLayout}): batch reads
 * ({@link NumacubeScanBuilder}, split by a column where the read's options ask: {@link ScanSplit}) and appends
 * ({@link ShardedAppend}). Immutable.
 */
final class NumacubeTable implements SupportsRead, SupportsWrite {

    private final ReadOptions options;
    private final TableLayout layout;

    NumacubeTable(ReadOptions options, TableLayout layout) {
        this.options = options;
        this.layout = layout;
    }

    @Override
    public String name() {
        return "numacube." + layout.table();
    }

    @Override
    public StructType schema() {
        return layout.schema();
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap read) {
        return new NumacubeScanBuilder(options, layout, ScanSplit.of(read, layout.schema()));
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
        return new ShardedAppend(options, layout, info.schema());
    }
}
