package io.numacube.engine.ingest;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.DeletedRows;
import io.numacube.engine.storage.DictionaryBuilder;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.GrowingDictionary;
import io.numacube.engine.storage.Partition;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The key of a table that takes upserts ({@code --key trades=trade_id}): a row whose key equals a row already in the
 * table replaces it. For a batch: which of its rows to append (the last row of each key: a later row of the batch wins,
 * as a later batch would) and which rows of the table they replace. A key holding NULL equals no other key (each such
 * row is kept, none is replaced), as a PostgreSQL unique index allows. Keys are values: text, or integers (INT, BIGINT,
 * DATE as its day, BOOLEAN as 0 and 1); DOUBLE columns cannot be keys. Immutable; thread-safe.
 */
public final class UpsertKeys {

    /** A NULL in a table row's key: equal to nothing a batch holds. */
    private static final Object NULL_KEY = new Object();

    private final String table;
    private final int[] columns;

    private UpsertKeys(String table, int[] columns) {
        this.table = table;
        this.columns = columns;
    }

    /**
     * @throws NumacubeException INVALID_INPUT for a column the table lacks or a DOUBLE one
     */
    public static UpsertKeys of(TableSchema schema, List<String> names) {
        if (names.isEmpty()) {
            throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT, "a key needs at least one column");
        }
        int[] columns = new int[names.size()];
        for (int i = 0; i < columns.length; i++) {
            int c = schema.indexOf(names.get(i));
            if (c < 0 || schema.column(c).type() == ColumnType.DOUBLE) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        (c < 0 ? "no such key column" : "a DOUBLE column cannot be a key") + ": table=" + schema.name()
                                + " column=" + names.get(i) + " — the columns are " + schema.declaration());
            }
            columns[i] = c;
        }
        return new UpsertKeys(schema.name(), columns);
    }

    /** The key columns' names. */
    public List<String> names(TableSchema schema) {
        return Arrays.stream(columns).mapToObj(c -> schema.column(c).name()).toList();
    }

    /** The rows of {@code batch} to append, ascending: the last row of each key, and every row with a NULL in it. */
    public int[] lastOfEachKey(TableStaging batch) {
        Map<List<Object>, Integer> last = new HashMap<>();
        boolean[] keep = new boolean[batch.rows()];
        for (int r = 0; r < batch.rows(); r++) {
            List<Object> k = batchKey(batch, r);
            if (k == null) {
                keep[r] = true;
                continue;
            }
            Integer before = last.put(k, r);
            if (before != null) {
                keep[before] = false;
            }
            keep[r] = true;
        }
        return java.util.stream.IntStream.range(0, keep.length)
                .filter(r -> keep[r])
                .toArray();
    }

    /**
     * The rows of {@code table} (not deleted) whose key equals the key of one of {@code rows} of {@code batch}, by
     * partition id; {@code growing[c]} finds a value's code in the table's dictionary of column {@code c}.
     */
    public Map<Integer, int[]> replaced(FactTable table, TableStaging batch, int[] rows, GrowingDictionary[] growing) {
        Set<List<Object>> keys = new HashSet<>();
        for (int r : rows) {
            List<Object> k = batchKey(batch, r);
            if (k != null) {
                keys.add(k);
            }
        }
        Map<Integer, int[]> out = new HashMap<>();
        if (keys.isEmpty()) {
            return out;
        }
        RowFilter first = filter(table, columns[0], keys, growing);
        for (Partition p : table.partitions()) {
            long[] deleted = table.deleted().of(p.id());
            List<Integer> hits = new ArrayList<>();
            for (int r = 0; r < p.rows(); r++) {
                if ((deleted == null || !DeletedRows.isSet(deleted, r))
                        && first.mayMatch(p, r)
                        && (columns.length == 1 || keys.contains(tableKey(table, p, r)))) {
                    hits.add(r);
                }
            }
            if (!hits.isEmpty()) {
                out.put(p.id(), hits.stream().mapToInt(Integer::intValue).toArray());
            }
        }
        return out;
    }

    /** A quick test of one key column: whether a table row's value is one of the batch keys' values there. */
    private interface RowFilter {
        boolean mayMatch(Partition p, int row);
    }

    private RowFilter filter(FactTable table, int c, Set<List<Object>> keys, GrowingDictionary[] growing) {
        if (table.schema().column(c).isDimension()) {
            int size = table.dictionary(c).size();
            boolean[] hit = new boolean[size];
            for (List<Object> k : keys) {
                int code = growing[c].find(k.get(0));
                if (code >= 0 && code < size) {
                    hit[code] = true;
                }
            }
            return (p, r) -> hit[p.code(c, r)];
        }
        Set<Long> values = new HashSet<>();
        keys.forEach(k -> values.add((Long) k.get(0)));
        return (p, r) -> !p.isNull(c, r) && values.contains(p.longValue(c, r));
    }

    /** Row {@code r}'s key in the batch, or null when it holds a NULL. */
    private List<Object> batchKey(TableStaging batch, int r) {
        Object[] k = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            int c = columns[i];
            if (batch.isNull(c, r)) {
                return null;
            }
            DictionaryBuilder d = batch.dictionary(c);
            if (d == null) {
                k[i] = batch.longs(c)[r];
            } else {
                int code = batch.codes(c)[r];
                k[i] = d.type() == ColumnType.STRING ? d.stringAt(code) : (Object) d.longAt(code);
            }
        }
        return List.of(k);
    }

    /** Row {@code r} of {@code p}'s key in the table (its values are never NULL where a batch key equals them). */
    private List<Object> tableKey(FactTable table, Partition p, int r) {
        Object[] k = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            int c = columns[i];
            if (table.schema().column(c).isDimension()) {
                var d = table.dictionary(c);
                int code = p.code(c, r);
                k[i] = code == d.nullCode()
                        ? NULL_KEY
                        : d.type() == ColumnType.STRING ? d.string(code) : (Object) d.longValue(code);
            } else {
                k[i] = p.isNull(c, r) ? NULL_KEY : (Object) p.longValue(c, r);
            }
        }
        return List.of(k);
    }

    @Override
    public String toString() {
        return "UpsertKeys[" + table + " " + Arrays.toString(columns) + "]";
    }
}
