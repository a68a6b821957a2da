package io.numacube.engine;

import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.TableSchema;
import java.util.List;

/**
 * An in-memory cube: named tables stored columnar and off-heap in partitions placed on NUMA nodes, queried with SQL
 * aggregation queries executed morsel by morsel by pinned per-node workers.
 *
 * <p>Life cycle: {@link #open} starts the workers and opens placed memory; {@link #loadTable} and
 * {@link #generateTrades} add or replace tables; {@link #query} runs SQL; {@link #close()} waits for running queries,
 * frees every byte of native memory and stops the workers.
 *
 * <p>Loads are atomic: a new table is built in new partitions and swapped in only when complete, so a failed load
 * (bad data, out of memory) leaves the previous table queryable. A table replaced while queries read it is freed when
 * the last of them finishes.
 *
 * <p>Thread-safe: several threads may query at once (each gets the answer it would get alone) and load while others
 * query.
 */
public final class Cube implements AutoCloseable {

    private Cube() {
    }

    /** Opens an empty cube. */
    public static Cube open(CubeOptions options) {
        throw new UnsupportedOperationException("not yet");
    }

    public CubeOptions options() {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * Places the staged rows as table {@code staging.schema().name()}, replacing a table of that name atomically.
     * Dimension dictionaries are sorted, so codes follow value order.
     */
    public void loadTable(TableStaging staging) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * Generates {@code rows} trades ({@link io.numacube.engine.gen.TradesGenerator}) straight into placed partitions,
     * each filled in parallel by its home node's workers, as table {@code trades}; also loads table {@code fx}.
     */
    public void generateTrades(long rows, long seed, ProgressListener progress) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Runs one SQL query. */
    public QueryResult query(String sql) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Every partition of every table, with its node and a page census of where its memory really is. */
    public List<PartitionInfo> placement() {
        throw new UnsupportedOperationException("not yet");
    }

    /** How evenly {@code table} is spread over partitions and nodes. */
    public TableSkew skew(String table) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The table names, sorted. */
    public List<String> tables() {
        throw new UnsupportedOperationException("not yet");
    }

    public TableSchema schema(String table) {
        throw new UnsupportedOperationException("not yet");
    }

    public long rowCount(String table) {
        throw new UnsupportedOperationException("not yet");
    }

    /** One line: the NUMA path, workers, memory, placement, partitioning. */
    public String describe() {
        throw new UnsupportedOperationException("not yet");
    }

    /** Bytes of native memory the cube holds now (0 after close). */
    public long nativeBytes() {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public void close() {
        throw new UnsupportedOperationException("not yet");
    }
}
