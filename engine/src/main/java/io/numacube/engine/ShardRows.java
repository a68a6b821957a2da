package io.numacube.engine;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deletes the rows of other shards from a loaded cube ({@link Cube#keepShard}): per table with the shard key column,
 * it reads the key's distinct values, hashes each ({@link Shard#of}) and deletes those of other shards with {@code
 * DELETE ... WHERE key IN (...)}, {@value #VALUES_PER_DELETE} values at a time. Meant for business keys with few
 * distinct values (a desk, a book): a key with millions of distinct values works, slowly. Stateless.
 */
final class ShardRows {

    static final int VALUES_PER_DELETE = 500;

    private ShardRows() {}

    static Map<String, Long> keep(Cube cube, Shard shard) {
        Map<String, Long> deleted = new LinkedHashMap<>();
        for (String table : cube.tables()) {
            TableSchema schema = cube.schema(table);
            int c = shard.keyIndex(schema);
            if (c >= 0) {
                deleted.put(
                        table,
                        keep(
                                cube,
                                shard,
                                table,
                                schema.columns().get(c).name(),
                                schema.columns().get(c).type()));
            }
        }
        return deleted;
    }

    private static long keep(Cube cube, Shard shard, String table, String column, ColumnType type) {
        String from = quoted(table);
        String key = quoted(column);
        QueryResult distinct = cube.query("SELECT DISTINCT " + key + " FROM " + from);
        List<String> others = new ArrayList<>();
        boolean nullElsewhere = false;
        for (int r = 0; r < distinct.rowCount(); r++) {
            if (distinct.isNull(r, 0)) {
                nullElsewhere = shard.index() != 0;
                continue;
            }
            String text = type == ColumnType.STRING ? distinct.getString(r, 0) : Long.toString(distinct.getLong(r, 0));
            if (!shard.owns(text)) {
                others.add(type == ColumnType.STRING ? "'" + text.replace("'", "''") + "'" : text);
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
