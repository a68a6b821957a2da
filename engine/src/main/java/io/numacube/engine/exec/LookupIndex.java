package io.numacube.engine.exec;

import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import io.numacube.numa.base.NumacubeException;
import java.util.Arrays;
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
 * <p>What it reads and computes is kept for later queries ({@link #memo}): a dimension column by row and its key's
 * rows with the dimension table, the rows per root code and every per-code table computed through the joins with the
 * fact table, under a key that names each joined table by its memo token (never found again once that table is
 * replaced). Nothing is kept through one query's temporary table.
 *
 * <p>Invariants: every dimension key is unique in its table (checked, naming the table, the value and both rows);
 * {@code rowOfCode[j][code]} is the row of join {@code j}'s table for code {@code code} of its root column, or -1 when
 * none matches (a NULL key matches nothing); {@code values[j][column][row]} is a String, Long, Double or null, read
 * from the table the first time a column is asked for (a query reads the key and the attributes it names, not every
 * column of a wide table such as TPC-H's orders).
 */
final class LookupIndex {

    /** Most rows of a dimension table read onto the heap. */
    static final long MAX_ROWS = 10_000_000;

    private final LogicalQuery query;
    private final FactTable fact;
    private final int[] root;
    private final int[][] rowOfCode;
    private final List<FactTable> dims;
    private final Object[][][] values;
    /** Per join, its path from the fact table, each joined table named by its memo token. */
    private final String[] paths;
    /** A joined table is one query's temporary table: what is computed through it is not kept. */
    private final boolean throughTemporary;

    private LookupIndex(LogicalQuery query, FactTable fact, List<FactTable> dims) {
        int n = query.joins().size();
        this.query = query;
        this.fact = fact;
        this.root = new int[n];
        this.rowOfCode = new int[n][];
        this.dims = List.copyOf(dims);
        this.values = new Object[n][][];
        this.paths = new String[n];
        this.throughTemporary = dims.stream().anyMatch(d -> d.coded().temporary());
        for (int j = 0; j < n; j++) {
            LogicalQuery.Join join = query.joins().get(j);
            String from = join.parent() < 0 ? "fact column " + join.parentColumn() : paths[join.parent()];
            paths[j] = "(" + from + " ." + join.parentColumn() + " = "
                    + dims.get(j).coded().memoToken() + "." + join.keyColumn() + (join.left() ? " left" : " inner")
                    + ")";
        }
    }

    /** Join {@code j}'s column {@code c}, read on first use (kept with its table for later queries). */
    private Object[] column(int j, int c) {
        if (values[j][c] == null) {
            FactTable dim = dims.get(j);
            values[j][c] = dim.coded().memo("rows of column " + c, dim.rowCount(), () -> readColumn(dim, c));
        }
        return values[j][c];
    }

    /**
     * A table per code of a fact column computed through this query's joins (a mask, a derived key, values), kept
     * for later queries with the same joins of the same tables: {@code what} must name what it is computed from, its
     * lookup columns numbered as in this query.
     */
    <T> T memo(String what, long codes, java.util.function.Supplier<T> compute) {
        return keep(what + " through " + String.join(" ", paths), codes, compute);
    }

    private <T> T keep(String key, long codes, java.util.function.Supplier<T> compute) {
        return throughTemporary ? compute.get() : fact.coded().memo(key, codes, compute);
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
        return row < 0 ? null : column(j, column - query.joins().get(j).firstColumn())[row];
    }

    /**
     * Per code of LOOKUP column {@code column}'s fact column, whether the column is NULL there for a row that survives
     * the inner joins (a code without a row is NULL where a LEFT join keeps it). Shared: read only.
     */
    boolean[] nullsOf(int column) {
        int factColumn = factColumnOf(column);
        return memo("nulls of lookup column " + column, codes(column), () -> {
            boolean[] m = new boolean[codes(column)];
            for (int code = 0; code < m.length; code++) {
                m[code] = reachable(factColumn, code) && valueAt(column, code) == null;
            }
            return m;
        });
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
        LookupIndex index = new LookupIndex(query, fact, dims);
        for (int j = 0; j < query.joins().size(); j++) {
            LogicalQuery.Join join = query.joins().get(j);
            FactTable dim = dims.get(j);
            checkSize(dim);
            index.values[j] = new Object[dim.schema().size()][];
            if (join.parent() < 0) {
                int key = join.parentColumn();
                index.root[j] = fact.schema().column(key).isDimension() ? key : fact.codedIndex(key);
            } else {
                index.root[j] = index.root[join.parent()];
            }
            int rootCodes = Math.max(1, fact.dictionary(index.root[j]).size());
            int joined = j;
            index.rowOfCode[j] =
                    index.keep("rows of code " + index.paths[j], rootCodes, () -> index.rowsOfCode(joined));
        }
        return index;
    }

    /** For each code of join {@code j}'s root column, the row of its table it joins to, or -1. */
    private int[] rowsOfCode(int j) {
        LogicalQuery.Join join = query.joins().get(j);
        FactTable dim = dims.get(j);
        KeyRows rowOfKey = dim.coded()
                .memo(
                        "key rows " + join.keyColumn(),
                        dim.rowCount(),
                        () -> KeyRows.of(dim, column(j, join.keyColumn()), join.keyColumn()));
        int[] rows;
        if (join.parent() < 0) {
            Dictionary d = fact.dictionary(root[j]);
            rows = new int[Math.max(1, d.size())];
            Arrays.fill(rows, -1);
            for (int code = 0; code < d.size(); code++) {
                rows[code] = rowOfKey.rowOf(QueryCompiler.scalar(d, code));
            }
        } else {
            int p = join.parent();
            rows = new int[rowOfCode[p].length];
            Object[] parentKeys = column(p, join.parentColumn());
            for (int code = 0; code < rows.length; code++) {
                int parentRow = rowOfCode[p][code];
                rows[code] = parentRow < 0 ? -1 : rowOfKey.rowOf(parentKeys[parentRow]);
            }
        }
        return rows;
    }

    private static void checkSize(FactTable dim) {
        if (dim.rowCount() > MAX_ROWS) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a joined table must be a dimension table of at most " + MAX_ROWS + " rows: table="
                            + dim.schema().name() + " rows=" + dim.rowCount());
        }
    }

    /** One column of a dimension table, by row: a String, Long, Double or null. */
    private static Object[] readColumn(FactTable dim, int c) {
        Object[] out = new Object[(int) dim.rowCount()];
        ColumnSpec spec = dim.schema().column(c);
        Dictionary d = spec.isDimension() ? dim.dictionary(c) : null;
        Object[] byCode = d == null ? null : new Object[Math.max(1, d.size())];
        if (byCode != null) {
            for (int code = 0; code < d.size(); code++) {
                byCode[code] = QueryCompiler.scalar(d, code);
            }
        }
        int r = 0;
        for (Partition p : dim.partitions()) {
            for (int i = 0; i < p.rows(); i++, r++) {
                out[r] = byCode != null
                        ? byCode[p.code(c, i)]
                        : p.isNull(c, i)
                                ? null
                                : spec.type() == ColumnType.DOUBLE
                                        ? (Object) p.doubleValue(c, i)
                                        : (Object) p.longValue(c, i);
            }
        }
        return out;
    }
}
