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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The joined dimension tables of a query, read onto the heap for planning and keyed by fact codes: every dimension
 * table hangs, directly or through other dimensions (a snowflake), from one coded fact column, its root; for each
 * code of that column the index knows the dimension row the code joins to (a plain BIGINT key, such as an order id of
 * millions of values, is read through its query-time codes, {@link FactTable#codedIndex}). So every dimension attribute is a
 * function of one fact column's codes, and the planner turns it into values per code (masks, factors, group keys,
 * gathered columns); no dimension row is looked up per fact row. Immutable; used by one planning thread.
 *
 * <p>Invariants: every dimension key is unique in its table (checked, naming the table, the value and both rows);
 * {@code rowOfCode[j][code]} is the row of join {@code j}'s table for code {@code code} of its root column, or -1 when
 * none matches (a NULL key matches nothing); {@code values[j][column][row]} is a String, Long, Double or null.
 */
final class LookupIndex {

    /** Most rows of a dimension table read onto the heap. */
    static final long MAX_ROWS = 10_000_000;

    private final LogicalQuery query;
    private final int[] root;
    private final int[][] rowOfCode;
    private final Object[][][] values;

    private LookupIndex(LogicalQuery query, int[] root, int[][] rowOfCode, Object[][][] values) {
        this.query = query;
        this.root = root;
        this.rowOfCode = rowOfCode;
        this.values = values;
    }

    /** The fact column whose codes LOOKUP column {@code column} is a function of. */
    int factColumnOf(int column) {
        return root[query.joinOf(column)];
    }

    /** The number of codes of that fact column. */
    int codes(int column) {
        return rowOfCode[query.joinOf(column)].length;
    }

    /** The value of LOOKUP column {@code column} for code {@code code} of its fact column, or null (none or NULL). */
    Object valueAt(int column, int code) {
        int j = query.joinOf(column);
        int row = rowOfCode[j][code];
        return row < 0 ? null : values[j][column - query.joins().get(j).firstColumn()][row];
    }

    /**
     * Per fact column with an INNER join hanging from it, the codes whose rows survive every such join: the inner
     * joins' masks.
     */
    Map<Integer, boolean[]> innerMasks() {
        Map<Integer, boolean[]> masks = new TreeMap<>();
        for (int j = 0; j < rowOfCode.length; j++) {
            if (query.joins().get(j).left()) {
                continue;
            }
            int[] rows = rowOfCode[j];
            boolean[] m = masks.computeIfAbsent(root[j], k -> filled(rows.length));
            for (int code = 0; code < rows.length; code++) {
                m[code] &= rows[code] >= 0;
            }
        }
        return masks;
    }

    /** Whether rows with code {@code code} of fact column {@code column} survive the inner joins. */
    boolean reachable(int column, int code) {
        for (int j = 0; j < rowOfCode.length; j++) {
            if (root[j] == column && !query.joins().get(j).left() && rowOfCode[j][code] < 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean[] filled(int n) {
        boolean[] m = new boolean[n];
        Arrays.fill(m, true);
        return m;
    }

    /** Reads the query's dimension tables (in join order) and maps every root code to each one's row. */
    static LookupIndex read(LogicalQuery query, FactTable fact, List<FactTable> dims) {
        int n = query.joins().size();
        int[] root = new int[n];
        int[][] rowOfCode = new int[n][];
        Object[][][] values = new Object[n][][];
        for (int j = 0; j < n; j++) {
            LogicalQuery.Join join = query.joins().get(j);
            FactTable dim = dims.get(j);
            values[j] = readValues(dim);
            Map<Object, Integer> rowOfKey = keys(dim, values[j][join.keyColumn()], join.keyColumn());
            if (join.parent() < 0) {
                int key = join.parentColumn();
                root[j] = fact.schema().column(key).isDimension() ? key : fact.codedIndex(key);
                Dictionary d = fact.dictionary(root[j]);
                rowOfCode[j] = new int[Math.max(1, d.size())];
                Arrays.fill(rowOfCode[j], -1);
                for (int code = 0; code < d.size(); code++) {
                    rowOfCode[j][code] = rowOf(rowOfKey, QueryCompiler.scalar(d, code));
                }
            } else {
                int p = join.parent();
                root[j] = root[p];
                rowOfCode[j] = new int[rowOfCode[p].length];
                for (int code = 0; code < rowOfCode[j].length; code++) {
                    int parentRow = rowOfCode[p][code];
                    Object key = parentRow < 0 ? null : values[p][join.parentColumn()][parentRow];
                    rowOfCode[j][code] = rowOf(rowOfKey, key);
                }
            }
        }
        return new LookupIndex(query, root, rowOfCode, values);
    }

    private static int rowOf(Map<Object, Integer> rowOfKey, Object key) {
        return key == null ? -1 : rowOfKey.getOrDefault(key, -1);
    }

    /** A dimension table's values by column, then row. */
    private static Object[][] readValues(FactTable dim) {
        long rows = dim.rowCount();
        if (rows > MAX_ROWS) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a joined table must be a dimension table of at most " + MAX_ROWS + " rows: table="
                            + dim.schema().name() + " rows=" + rows);
        }
        int ncol = dim.schema().size();
        Object[][] out = new Object[ncol][(int) rows];
        int r = 0;
        for (Partition p : dim.partitions()) {
            for (int i = 0; i < p.rows(); i++, r++) {
                for (int c = 0; c < ncol; c++) {
                    ColumnSpec spec = dim.schema().column(c);
                    out[c][r] = spec.isDimension()
                            ? QueryCompiler.scalar(dim.dictionary(c), p.code(c, i))
                            : p.isNull(c, i)
                                    ? null
                                    : spec.type() == ColumnType.DOUBLE
                                            ? (Object) p.doubleValue(c, i)
                                            : (Object) p.longValue(c, i);
                }
            }
        }
        return out;
    }

    /** The row of each key value; a duplicate key is an error naming the table, the value and both rows. */
    private static Map<Object, Integer> keys(FactTable dim, Object[] keyValues, int keyColumn) {
        Map<Object, Integer> rowOfKey = new HashMap<>();
        for (int i = 0; i < keyValues.length; i++) {
            Object key = keyValues[i];
            Integer before = key == null ? null : rowOfKey.put(key, i);
            if (before != null) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "a dimension table's join key must be unique: table="
                                + dim.schema().name() + " column="
                                + dim.schema().column(keyColumn).name() + " value=" + key + " rows="
                                + (before + 1) + "," + (i + 1)
                                + " — remove the duplicate rows (a many-to-many join is not the cube's job)");
            }
        }
        return rowOfKey;
    }
}
