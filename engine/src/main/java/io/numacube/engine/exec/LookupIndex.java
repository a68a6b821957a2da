package io.numacube.engine.exec;

import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import io.numacube.numa.base.NumacubeException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A joined lookup table read onto the heap for planning, keyed by the fact table's join-key codes: lookup columns
 * are constant per join key, so the planner turns them into values per code (masks, factors, gathered columns).
 * Immutable; used by one planning thread.
 *
 * <p>Invariants: the lookup's join key is unique (checked); {@code rowOfCode[code]} is the lookup row whose key
 * equals the value of fact join-key code {@code code}, or -1 when none does (the inner join drops those rows);
 * {@code values[column][row]} is a String, Long or Double, or null for SQL NULL; a lookup row whose key is NULL
 * matches no fact row (a NULL join key matches nothing, as in SQL), nor does a fact row whose key is NULL.
 *
 * @param rowOfCode the lookup row of each fact join-key code, or -1
 * @param values    the lookup table's values by column, then row
 */
record LookupIndex(int[] rowOfCode, Object[][] values) {

    /** The value of lookup column {@code column} for fact join-key code {@code code}, or null when it has no row. */
    Object valueAt(int column, int code) {
        int row = rowOfCode[code];
        return row < 0 ? null : values[column][row];
    }

    /** The join-key codes that have a lookup row: the inner join's mask. */
    boolean[] existing() {
        boolean[] exists = new boolean[rowOfCode.length];
        for (int c = 0; c < exists.length; c++) {
            exists[c] = rowOfCode[c] >= 0;
        }
        return exists;
    }

    /** Reads the (small) lookup table of {@code query} onto the heap and maps every fact join-key code to its row. */
    static LookupIndex read(LogicalQuery query, FactTable fact, FactTable lookup) {
        long rows = lookup.rowCount();
        if (rows > 10_000_000) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a joined table must be a small lookup" + " table: table="
                            + lookup.schema().name() + " rows=" + rows + " limit=10000000");
        }
        int ncol = lookup.schema().size();
        Object[][] lookupValues = new Object[ncol][(int) rows];
        int r = 0;
        for (Partition p : lookup.partitions()) {
            for (int i = 0; i < p.rows(); i++, r++) {
                for (int c = 0; c < ncol; c++) {
                    ColumnSpec spec = lookup.schema().column(c);
                    lookupValues[c][r] = spec.isDimension()
                            ? QueryCompiler.scalar(lookup.dictionary(c), p.code(c, i))
                            : p.isNull(c, i)
                                    ? null
                                    : spec.type() == ColumnType.DOUBLE
                                            ? (Object) p.doubleValue(c, i)
                                            : (Object) p.longValue(c, i);
                }
            }
        }
        Map<Object, Integer> rowOfKey = new HashMap<>();
        for (int i = 0; i < rows; i++) {
            Object key = lookupValues[query.lookupJoinColumn()][i];
            if (key != null && rowOfKey.put(key, i) != null) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "a lookup table's join key must be "
                                + "unique: table=" + lookup.schema().name() + " column="
                                + lookup.schema()
                                        .column(query.lookupJoinColumn())
                                        .name() + " value=" + key
                                + " — remove the duplicate rows");
            }
        }
        Dictionary d = fact.dictionary(query.factJoinColumn());
        int[] lookupRowOfCode = new int[Math.max(1, d.size())];
        Arrays.fill(lookupRowOfCode, -1);
        for (int code = 0; code < d.size(); code++) {
            Object key = QueryCompiler.scalar(d, code);
            lookupRowOfCode[code] = key == null ? -1 : rowOfKey.getOrDefault(key, -1);
        }
        return new LookupIndex(lookupRowOfCode, lookupValues);
    }
}
