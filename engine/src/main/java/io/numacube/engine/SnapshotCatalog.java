package io.numacube.engine;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.SqlBinder;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.FactTable;
import java.util.Map;
import java.util.Optional;

/**
 * The tables one statement may name, for binding it ({@link SqlBinder.Catalog}): the cube's tables as one snapshot
 * holds them and the statement's temporary tables (its subqueries' rows, information_schema's views), with their
 * schemas, row counts and what their dictionaries tell of repeated and unique values.
 *
 * <p>Invariants: a temporary table hides a cube table of the same name (by {@link CubeTables#key}); the snapshot and
 * the map of temporary tables are read at each call, never copied, so a temporary table placed after this catalog was
 * made is seen. Answers only as long as the snapshot is open and the temporary tables are not freed, which is the
 * statement's run: neither is owned here. Not thread-safe where its map of temporary tables is written meanwhile.
 */
final class SnapshotCatalog implements SqlBinder.Catalog {

    private final CubeTables.Snapshot snapshot;
    private final Map<String, FactTable> temps;

    /**
     * @param snapshot the cube's tables the statement reads
     * @param temps    the statement's temporary tables, by {@link CubeTables#key}
     */
    SnapshotCatalog(CubeTables.Snapshot snapshot, Map<String, FactTable> temps) {
        this.snapshot = snapshot;
        this.temps = temps;
    }

    /** The table named {@code name}: a temporary table of that name, else the snapshot's; null when neither has one. */
    static FactTable table(CubeTables.Snapshot snapshot, String name, Map<String, FactTable> temps) {
        FactTable t = temps.get(CubeTables.key(name));
        return t != null ? t : snapshot.table(name);
    }

    @Override
    public Optional<TableSchema> schema(String name) {
        return Optional.ofNullable(table(snapshot, name, temps)).map(FactTable::schema);
    }

    @Override
    public long rows(String name) {
        FactTable t = table(snapshot, name, temps);
        return t == null ? -1 : t.rowCount();
    }

    @Override
    public boolean repeats(String name, String column) {
        FactTable t = table(snapshot, name, temps);
        int c = t == null ? -1 : t.schema().indexOf(column);
        // deleted rows may hold values no live row has: the dictionary no longer counts the rows' values
        if (c < 0 || !t.schema().column(c).isDimension() || t.deleted().total() > 0) {
            return false;
        }
        // a dictionary without NULL of fewer values than rows: some value is in two rows
        Dictionary d = t.dictionary(c);
        return d.nullCode() < 0 && d.size() < t.rowCount();
    }

    @Override
    public boolean unique(String name, String column) {
        FactTable t = table(snapshot, name, temps);
        int c = t == null ? -1 : t.schema().indexOf(column);
        if (c < 0
                || t.schema().column(c).type() == ColumnType.DOUBLE
                || t.deleted().total() > 0) {
            return false;
        }
        // a plain column is coded here once (kept, as a GROUP BY of it would): its dictionary counts it
        Dictionary d = t.dictionary(t.schema().column(c).isDimension() ? c : t.codedIndex(c));
        return d.nullCode() < 0 && d.size() == t.rowCount();
    }
}
