package io.numacube.engine;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deletes the rows of other shards from tables placed whole before the cube knew its shard (generated trades, placed
 * without staging; {@link Cube#keepShard}): per such table with the shard key column,
 * it reads the key's distinct values, hashes each ({@link Shard#of}) and deletes those of other shards with {@code
 * DELETE ... WHERE key IN (...)}, {@value #VALUES_PER_DELETE} values at a time. Meant for business keys with few
 * distinct values (a desk, a book); a key with more than {@value #MAX_KEY_VALUES} distinct values in any table is
 * refused before anything is deleted. Stateless.
 */
final class ShardRows {

    static final int VALUES_PER_DELETE = 500;

    /** The most distinct key values a table may have: each 500 of other shards cost a DELETE, a scan of the table. */
    static final int MAX_KEY_VALUES = 50_000;

    /** A table with the key column, and the key's distinct values in it. */
    private record Keyed(String table, ColumnSpec key, QueryResult values) {}

    private ShardRows() {}

    static Map<String, Long> keep(Cube cube, Shard shard, java.util.Set<String> alreadyCut) {
        return keep(cube, shard, MAX_KEY_VALUES, alreadyCut);
    }

    static Map<String, Long> keep(Cube cube, Shard shard, int maxKeyValues) {
        return keep(cube, shard, maxKeyValues, java.util.Set.of());
    }

    /** As the class says, leaving out the tables (by lower-case name) whose rows were cut when they were staged. */
    private static Map<String, Long> keep(Cube cube, Shard shard, int maxKeyValues, java.util.Set<String> alreadyCut) {
        List<Keyed> keyed = new ArrayList<>();
        for (String table : cube.tables()) {
            if (alreadyCut.contains(table.toLowerCase(java.util.Locale.ROOT))) {
                continue;
            }
            TableSchema schema = cube.schema(table);
            int c = shard.keyIndex(schema);
            if (c >= 0) {
                ColumnSpec key = schema.columns().get(c);
                QueryResult values = cube.query("SELECT DISTINCT " + quoted(key.name()) + " FROM " + quoted(table));
                if (values.rowCount() > maxKeyValues) {
                    throw new NumacubeException(
                            NumacubeException.Kind.INVALID_INPUT,
                            "a shard key with this many distinct values is not supported yet: table=" + table
                                    + " column=" + key.name() + " values=" + values.rowCount() + " max="
                                    + maxKeyValues + " — shard by a business key with fewer values (a desk, a book)");
                }
                keyed.add(new Keyed(table, key, values));
            }
        }
        Map<String, Long> deleted = new LinkedHashMap<>();
        for (Keyed k : keyed) {
            deleted.put(k.table(), delete(cube, shard, k));
        }
        return deleted;
    }

    private static long delete(Cube cube, Shard shard, Keyed k) {
        String from = quoted(k.table());
        String key = quoted(k.key().name());
        boolean string = k.key().type() == ColumnType.STRING;
        List<String> others = new ArrayList<>();
        boolean nullElsewhere = false;
        for (int r = 0; r < k.values().rowCount(); r++) {
            if (k.values().isNull(r, 0)) {
                nullElsewhere = shard.index() != 0;
                continue;
            }
            String text = string
                    ? k.values().getString(r, 0)
                    : Long.toString(k.values().getLong(r, 0));
            if (!shard.owns(text)) {
                others.add(string ? "'" + text.replace("'", "''") + "'" : text);
            }
        }
        List<TableWrite> deletes = new ArrayList<>();
        for (int i = 0; i < others.size(); i += VALUES_PER_DELETE) {
            String values = String.join(", ", others.subList(i, Math.min(others.size(), i + VALUES_PER_DELETE)));
            deletes.add(new TableDelete("DELETE FROM " + from + " WHERE " + key + " IN (" + values + ")"));
        }
        if (nullElsewhere) {
            deletes.add(new TableDelete("DELETE FROM " + from + " WHERE " + key + " IS NULL"));
        }
        long rows = 0;
        for (WriteResult w : deletes.isEmpty() ? List.<WriteResult>of() : cube.write(deletes)) {
            rows += w.rows();
        }
        return rows;
    }

    private static String quoted(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
