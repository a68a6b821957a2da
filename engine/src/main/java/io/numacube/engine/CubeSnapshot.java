package io.numacube.engine;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.RowVisitor;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.DeletedRows;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;

/**
 * One version of every table of a {@link Cube}, all taken at the same moment ({@link Cube#openSnapshot}), for a reader
 * that is not a query: a checkpoint writing every table out. Appends and loads that publish later versions do not
 * change what it lists or exports, and never wait for it; it holds its versions' partitions (native memory) until
 * {@link #close}, so a superseded version lives as long as the snapshot does.
 *
 * <p>Thread-safe: several threads may export tables of one snapshot at once. An export holds the cube open ({@link
 * Cube#close()} waits for it, as for a query); once the cube is closed an export throws. Close the snapshot when done
 * (closing it again does nothing).
 */
public final class CubeSnapshot implements AutoCloseable {

    private final CubeTables.Snapshot tables;
    private final Lock cubeOpen;
    private final Runnable checkOpen;
    private final AtomicBoolean closed = new AtomicBoolean();

    CubeSnapshot(CubeTables.Snapshot tables, Lock cubeOpen, Runnable checkOpen) {
        this.tables = tables;
        this.cubeOpen = cubeOpen;
        this.checkOpen = checkOpen;
    }

    /** The tables' names as the cube has them, sorted. */
    public List<String> tables() {
        return tables.versions().stream()
                .map(v -> v.table().schema().name())
                .sorted()
                .toList();
    }

    /** The columns of {@code table} as stored (a BIGINT column with few distinct values is INT). */
    public TableSchema schema(String table) {
        return table(table).schema();
    }

    /** The version of {@code table} this snapshot holds ({@link Cube#version}). */
    public long version(String table) {
        table(table);
        return tables.version(table).number();
    }

    public long rowCount(String table) {
        return table(table).rowCount();
    }

    /**
     * Hands every row of {@code table} to {@code visitor}, partition after partition, and returns how many it handed
     * over: the rows this version holds, not those a DELETE or an upsert removed. The order of rows is the order of the
     * partitions, not the order they were loaded or appended in.
     *
     * @throws IOException what the visitor threw; the export stops there
     */
    public long export(String table, RowVisitor visitor) throws IOException {
        cubeOpen.lock();
        try {
            checkOpen.run();
            if (closed.get()) {
                throw new IllegalStateException("the snapshot is closed: table=" + table);
            }
            return exportOpen(table(table), visitor);
        } finally {
            cubeOpen.unlock();
        }
    }

    private static long exportOpen(FactTable t, RowVisitor visitor) throws IOException {
        TableSchema schema = t.schema();
        Dictionary[] dictionaries = t.dictionaries();
        long rows = 0;
        for (Partition p : t.partitions()) {
            long[] deleted = t.deleted().of(p.id());
            for (int r = 0; r < p.rows(); r++) {
                if (deleted != null && DeletedRows.isSet(deleted, r)) {
                    continue;
                }
                for (int c = 0; c < schema.size(); c++) {
                    visit(schema, dictionaries[c], p, c, r, visitor);
                }
                visitor.endRow();
                rows++;
            }
        }
        return rows;
    }

    private static void visit(TableSchema schema, Dictionary dictionary, Partition p, int c, int r, RowVisitor visitor)
            throws IOException {
        if (dictionary != null) {
            int code = p.code(c, r);
            if (dictionary.isNull(code)) {
                visitor.nullValue(c);
            } else if (dictionary.type() == ColumnType.STRING) {
                visitor.stringValue(c, dictionary.string(code));
            } else {
                visitor.longValue(c, dictionary.longValue(code));
            }
        } else if (p.isNull(c, r)) {
            visitor.nullValue(c);
        } else if (schema.column(c).type() == ColumnType.DOUBLE) {
            visitor.doubleValue(c, p.doubleValue(c, r));
        } else {
            visitor.longValue(c, p.longValue(c, r));
        }
    }

    private FactTable table(String name) {
        java.util.Objects.requireNonNull(name, "table name must not be null");
        FactTable t = tables.table(name);
        if (t == null) {
            throw new NumacubeException(
                    NumacubeException.Kind.BIND,
                    "42P01",
                    "no such table in the snapshot: table=" + name + " tables=" + tables(),
                    null,
                    null);
        }
        return t;
    }

    /** Gives the snapshot's versions back; a superseded one is freed once nothing else reads it. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            tables.close();
        }
    }
}
