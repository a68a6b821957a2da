package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.NumacubeException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The joined dimension tables of a query, read onto the heap for planning and keyed by fact codes: every dimension
 * table hangs, directly or through other dimensions (a snowflake), from one coded fact column, its root; for each
 * code of that column the index knows the dimension row the code joins to (a plain BIGINT key, such as an order id of
 * millions of values, is read through its query-time codes, {@link FactTable#codedIndex}; a key of several fact
 * columns, such as lineitem's {@code (l_partkey, l_suppkey)} joined to partsupp, through the codes of its pairs of
 * values, {@link FactTable#compositeIndex}). So every dimension attribute is a function of one fact column's codes, and the planner turns it into values per code (masks, factors, group keys,
 * gathered columns); no dimension row is looked up per fact row. Immutable but for what it keeps; used by one planning
 * thread.
 *
 * <p>What it reads and computes is kept for later queries ({@link #memo}): a dimension column by row and its key's
 * rows with the dimension table, the rows per root code and every per-code table computed through the joins with the
 * fact table, under a key that names each joined table by its memo token (never found again once that table is
 * replaced). What is computed through one query's temporary table is kept in the index alone, for that query.
 *
 * <p>Invariants: every dimension key (of one column or several) is unique in its table (checked, naming the table,
 * the value and both rows);
 * {@code rowOfCode[j][code]} is the row of join {@code j}'s table for code {@code code} of its root column, or -1 when
 * none matches (a NULL key matches nothing); {@code values[j][column][row]} is a String, Long, Double or null, read
 * from the table the first time a column is asked for (a query reads the key and the attributes it names, not every
 * column of a wide table such as TPC-H's orders).
 *
 * <p>Given the query's workers, it fills its per-code tables of many codes (values, NULL flags and inner masks, over
 * TPC-H's 1.5M order keys) by ranges of codes on them, each entry as the serial loop sets it.
 */
final class LookupIndex {

    /** Most rows of a dimension table read onto the heap. */
    static final long MAX_ROWS = 10_000_000;

    private final LogicalQuery query;
    private final FactTable fact;
    private final int[] root;
    private final int[][] rowOfCode;
    private final List<FactTable> dims;
    private final RowValues[][] values;
    /** Per join, its path from the fact table, each joined table named by its memo token. */
    private final String[] paths;
    /**
     * A joined table is one query's temporary table: what is computed through it is kept for this query only
     * ({@link #ofThisQuery}), where a predicate that names a joined column twice reads it again.
     */
    private final boolean throughTemporary;
    /** Per join, whether its path from the fact table passes a temporary table. */
    private final boolean[] temporaryPath;
    /** What {@link #keep} computed through a temporary table, by its key; never outlives this index. */
    private final Map<String, Object> ofThisQuery = new java.util.HashMap<>();
    /** {@link #innerMasks}, computed once the rows per code are known. */
    private Map<Integer, boolean[]> innerMasks = Map.of();
    /** The query's workers, which fill per-code tables by ranges of codes ({@link #byCodeRanges}); null: this thread. */
    private final WorkerPool pool;

    private LookupIndex(LogicalQuery query, FactTable fact, List<FactTable> dims, WorkerPool pool) {
        int n = query.joins().size();
        this.pool = pool;
        this.query = query;
        this.fact = fact;
        this.root = new int[n];
        this.rowOfCode = new int[n][];
        this.dims = List.copyOf(dims);
        this.values = new RowValues[n][];
        this.paths = new String[n];
        this.throughTemporary = dims.stream().anyMatch(d -> d.coded().temporary());
        this.temporaryPath = new boolean[n];
        for (int j = 0; j < n; j++) {
            LogicalQuery.Join join = query.joins().get(j);
            temporaryPath[j] = dims.get(j).coded().temporary() || (join.parent() >= 0 && temporaryPath[join.parent()]);
            String from = join.parent() < 0 ? "fact columns " + join.parentColumns() : paths[join.parent()];
            paths[j] = "(" + from + " ." + join.parentColumns() + " = "
                    + dims.get(j).coded().memoToken() + "." + join.keyColumns() + (join.left() ? " left" : " inner")
                    + ")";
        }
    }

    /** Join {@code j}'s column {@code c}, read on first use (kept with its table for later queries). */
    private RowValues column(int j, int c) {
        if (values[j][c] == null) {
            FactTable dim = dims.get(j);
            values[j][c] = dim.coded().memo("rows of column " + c, dim.rowCount(), () -> RowValues.read(dim, c));
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

    /**
     * A per-code table of {@code e} under {@code key}: kept through the joins that {@code e} reads ({@link
     * #memoThrough}) when it reads a joined column, else with the fact table alone.
     */
    static <T> T memoOf(
            Expr e,
            FactTable fact,
            LookupIndex lookup,
            String key,
            long codes,
            java.util.function.Supplier<T> compute) {
        if (readsKeySet(e)) {
            // a key set is one statement's subquery answer: kept, its table would only push useful ones out
            return compute.get();
        }
        return NullMask.readsLookup(e)
                ? lookup.memoThrough(e, key, codes, compute)
                : fact.coded().memo(key, codes, compute);
    }

    /** Whether {@code e} tests a key set ({@link io.numacube.engine.plan.InValues#ofKeys}). */
    static boolean readsKeySet(Expr e) {
        boolean[] found = {false};
        Expr.walk(e, x -> found[0] |= x instanceof Expr.In in && in.set().isKeySet());
        return found[0];
    }

    /**
     * {@link #memo} of a table that is a function of the joins {@code e} reads alone (their rows per code and their
     * columns' values), kept under their paths and first LOOKUP columns (which fix the columns {@code e}'s numbers
     * name): kept with the fact table for later queries when none of those joins passes a temporary table, even where
     * another join of this query does (TPC-H Q21's {@code o_orderstatus = 'F'} over 1.5M order keys, beside the
     * query's EXISTS tables).
     */
    private <T> T memoThrough(Expr e, String what, long codes, java.util.function.Supplier<T> compute) {
        java.util.TreeSet<Integer> joins = new java.util.TreeSet<>();
        Expr.walk(e, x -> {
            if (x instanceof Expr.Column c && c.side() == Expr.Side.LOOKUP) {
                joins.add(query.joinOf(c.index()));
            }
        });
        if ("false".equals(System.getProperty(MEMO_BY_JOINS_PROPERTY))) {
            return memo(what, codes, compute);
        }
        StringBuilder key = new StringBuilder(what).append(" through joins");
        boolean temporary = false;
        for (int j : joins) {
            key.append(' ')
                    .append(query.joins().get(j).firstColumn())
                    .append(':')
                    .append(paths[j]);
            temporary |= temporaryPath[j];
        }
        return keep(key.toString(), codes, compute, temporary);
    }

    /**
     * The system property that, {@code false}, keeps every per-code table through all of a query's joins, as before
     * {@link #memoThrough} (for an A/B of one process).
     */
    static final String MEMO_BY_JOINS_PROPERTY = "numacube.memoByJoins";

    private <T> T keep(String key, long codes, java.util.function.Supplier<T> compute) {
        return keep(key, codes, compute, throughTemporary);
    }

    /** {@link #keep}, kept with the fact table unless {@code temporary}. */
    private <T> T keep(String key, long codes, java.util.function.Supplier<T> compute, boolean temporary) {
        if (!temporary) {
            return fact.coded().memo(key, codes, compute);
        }
        @SuppressWarnings("unchecked")
        T kept = (T) ofThisQuery.get(key);
        if (kept == null) {
            kept = compute.get();
            ofThisQuery.put(key, kept);
        }
        return kept;
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
        int row = rowOfCode[query.joinOf(column)][code];
        return row < 0 ? null : lookupColumn(column).at(row);
    }

    /** LOOKUP column {@code column}'s values by row of its joined table. */
    private RowValues lookupColumn(int column) {
        int j = query.joinOf(column);
        return column(j, column - query.joins().get(j).firstColumn());
    }

    /**
     * Fills, per code of numeric LOOKUP column {@code column}'s fact column, its value as a double and, when {@code
     * longs} is given (an integer column), as a long; 0 where no row joins or the value is NULL. The values {@link
     * #valueAt} gives, without a boxed value per code.
     */
    void numericValues(int column, double[] doubles, long[] longs) {
        int[] rows = rowOfCode[query.joinOf(column)];
        RowValues values = lookupColumn(column);
        boolean integers = values.integers();
        byCodeRanges(doubles.length, (from, to) -> {
            for (int code = from; code < to; code++) {
                int row = rows[code];
                if (row < 0 || values.isNull(row)) {
                    continue;
                }
                if (integers) {
                    long v = values.longAt(row);
                    doubles[code] = v;
                    if (longs != null) {
                        longs[code] = v;
                    }
                } else {
                    doubles[code] = values.doubleAt(row);
                    if (longs != null) {
                        longs[code] = (long) doubles[code];
                    }
                }
            }
            return null;
        });
    }

    /** A joined table of at most this fraction of its root column's codes may be read by row ({@link #byRow}). */
    static final int BY_ROW_CODES_PER_ROW = 8;

    /** The system property that, {@code false}, reads every LOOKUP column per code (for an A/B of one process). */
    static final String BY_ROW_PROPERTY = "numacube.lookupByRow";

    /**
     * Whether LOOKUP column {@code column} is read through its joined row ({@link #rowsOf}, {@link #numericByRow},
     * {@link #nullsByRow}) rather than as a table per code of its fact column: its join is INNER (a code without a
     * row never reaches a row expression: the inner masks drop it), its path passes this query's temporary table
     * (nothing per code would be kept for a later query) and its table has far fewer rows than the fact column has
     * codes (a subquery's 72,110 order keys against 1.5M).
     */
    boolean byRow(int column) {
        int j = query.joinOf(column);
        return temporaryPath[j]
                && !query.joins().get(j).left()
                && (long) lookupColumn(column).rows() * BY_ROW_CODES_PER_ROW <= rowOfCode[j].length
                && !"false".equals(System.getProperty(BY_ROW_PROPERTY));
    }

    /** The fact column join {@code j} hangs from. */
    int joinRoot(int j) {
        return root[j];
    }

    /** The join that LOOKUP column {@code column} belongs to. */
    int joinOf(int column) {
        return query.joinOf(column);
    }

    /** Per code of the fact column join {@code j} hangs from, its row of the joined table or -1. Shared: read only. */
    int[] rowsOf(int j) {
        return rowOfCode[j];
    }

    /**
     * {@link #numericValues} by joined row: entry {@code row + 1} the value of {@code row}, entry 0 (no row) and a
     * NULL's entry 0; {@code longs} (an integer column) may be null. Only where {@link #byRow}.
     */
    void numericByRow(int column, double[] doubles, long[] longs) {
        RowValues values = lookupColumn(column);
        boolean integers = values.integers();
        for (int row = 0; row < values.rows(); row++) {
            if (values.isNull(row)) {
                continue;
            }
            if (integers) {
                long v = values.longAt(row);
                doubles[row + 1] = v;
                if (longs != null) {
                    longs[row + 1] = v;
                }
            } else {
                doubles[row + 1] = values.doubleAt(row);
                if (longs != null) {
                    longs[row + 1] = (long) doubles[row + 1];
                }
            }
        }
    }

    /** The rows of LOOKUP column {@code column}'s table. */
    int rowsOfTable(int column) {
        return lookupColumn(column).rows();
    }

    /**
     * {@link #nullsOf} by joined row: entry {@code row + 1} whether the column is NULL in {@code row}; entry 0 (no
     * row) false, as the inner join drops such codes. Only where {@link #byRow}. Shared: read only.
     */
    boolean[] nullsByRow(int column) {
        return memo("nulls by row of lookup column " + column, rowsOfTable(column), () -> {
            RowValues values = lookupColumn(column);
            boolean[] m = new boolean[values.rows() + 1];
            for (int row = 0; row < values.rows(); row++) {
                m[row + 1] = values.isNull(row);
            }
            return m;
        });
    }

    /** The codes from which a per-code table is filled on the workers by ranges of codes. */
    static final int PARALLEL_CODES = 65_536;

    /** The system property that, {@code false}, fills per-code tables on the planning thread (an A/B of one process). */
    static final String PARALLEL_PROPERTY = "numacube.parallelLookup";

    /**
     * Runs {@code fill} over the codes {@code [0, codes)}: by ranges on the workers when there are many, else at once
     * on this thread. {@code fill} writes the entries of its range alone and reads only what no range writes.
     */
    private void byCodeRanges(int codes, WorkerChunks.Range<Void> fill) {
        if (pool == null
                || codes < PARALLEL_CODES
                || pool.workerCount() < 2
                || "false".equals(System.getProperty(PARALLEL_PROPERTY))) {
            fill.apply(0, codes);
            return;
        }
        WorkerChunks.map(pool, codes, fill);
    }

    /**
     * Per code of LOOKUP column {@code column}'s fact column, whether the column is NULL there for a row that survives
     * the inner joins (a code without a row is NULL where a LEFT join keeps it). Shared: read only.
     */
    boolean[] nullsOf(int column) {
        boolean[] reach = innerMasks.get(factColumnOf(column));
        return memo("nulls of lookup column " + column, codes(column), () -> {
            int[] rows = rowOfCode[query.joinOf(column)];
            RowValues values = lookupColumn(column);
            boolean[] m = new boolean[rows.length];
            byCodeRanges(m.length, (from, to) -> {
                for (int code = from; code < to; code++) {
                    int row = rows[code];
                    m[code] = (reach == null || reach[code]) && (row < 0 || values.isNull(row));
                }
                return null;
            });
            return m;
        });
    }

    /**
     * Per fact column with an INNER join hanging from it, the codes whose rows survive every such join: the inner
     * joins' masks. Shared: read only.
     */
    Map<Integer, boolean[]> innerMasks() {
        return innerMasks;
    }

    private Map<Integer, boolean[]> computeInnerMasks() {
        Map<Integer, boolean[]> masks = new TreeMap<>();
        for (int j = 0; j < rowOfCode.length; j++) {
            if (query.joins().get(j).left()) {
                continue;
            }
            int[] rows = rowOfCode[j];
            boolean[] m = masks.computeIfAbsent(root[j], k -> filled(rows.length));
            byCodeRanges(rows.length, (from, to) -> {
                for (int code = from; code < to; code++) {
                    m[code] &= rows[code] >= 0;
                }
                return null;
            });
        }
        return masks;
    }

    /** Whether an inner join leaves some code of fact column {@code column} unreachable ({@link #reachable}). */
    boolean narrows(int column) {
        return innerMasks.get(column) != null;
    }

    /** Whether rows with code {@code code} of fact column {@code column} survive the inner joins. */
    boolean reachable(int column, int code) {
        boolean[] m = innerMasks.get(column);
        return m == null || m[code];
    }

    /**
     * The LOOKUP column that {@code e} reads when it reads no other column (fact or lookup), else -1: such an
     * expression is a function of that column's value, evaluated once per distinct value ({@link #perValue}).
     */
    static int onlyLookupColumn(Expr e) {
        java.util.Set<Integer> lookups = new java.util.HashSet<>();
        boolean[] other = {false};
        Expr.walk(e, x -> {
            if (x instanceof Expr.Column c) {
                if (c.side() == Expr.Side.LOOKUP && c.type() != ColumnType.DOUBLE) {
                    lookups.add(c.index());
                } else {
                    other[0] = true;
                }
            }
        });
        return !other[0] && lookups.size() == 1 ? lookups.iterator().next() : -1;
    }

    /**
     * The values of LOOKUP column {@code column}, ascending, NULL last when it has one: its table's dictionary of the
     * column (query-time coded when the column is plain).
     */
    Dictionary valueDictionary(int column) {
        int j = query.joinOf(column);
        FactTable dim = dims.get(j);
        return dim.dictionary(codedColumn(dim, column - query.joins().get(j).firstColumn()));
    }

    /**
     * Per code of LOOKUP column {@code column}'s fact column, the code of the column's value in {@link
     * #valueDictionary}, or -1 where no row joins (the value is NULL). Shared: read only.
     */
    int[] valueCodes(int column) {
        int j = query.joinOf(column);
        FactTable dim = dims.get(j);
        int c = column - query.joins().get(j).firstColumn();
        int coded = codedColumn(dim, c);
        int[] ofRow = coded == c
                ? column(j, c).codes()
                : dim.coded().memo("codes by row " + coded, dim.rowCount(), () -> codesByRow(dim, coded));
        int[] rows = rowOfCode[j];
        return memo("value codes of lookup column " + column, rows.length, () -> {
            int[] out = new int[rows.length];
            for (int code = 0; code < rows.length; code++) {
                out[code] = rows[code] < 0 ? -1 : ofRow[rows[code]];
            }
            return out;
        });
    }

    /**
     * {@code e}, an expression of LOOKUP column {@code column} alone ({@link #onlyLookupColumn}), per code of the
     * column's fact column, for its first {@code codes} codes: evaluated once per distinct value that a code reaches,
     * in code order; a value whose computation failed is a {@link Failed} (see {@link #valueOrThrow}).
     */
    Object[] perValue(Expr e, int column, int codes) {
        if (perRowOfTemporary(column)) {
            return perRow(e, column, codes);
        }
        Dictionary d = valueDictionary(column);
        int[] valueCodes = valueCodes(column);
        int noRow = d.size();
        Object[] ofValue = new Object[noRow + 1];
        boolean[] done = new boolean[noRow + 1];
        Object[] out = new Object[valueCodes.length];
        for (int code = 0; code < Math.min(codes, out.length); code++) {
            int v = valueCodes[code] < 0 ? noRow : valueCodes[code];
            if (!done[v]) {
                Object value = v == noRow ? null : QueryCompiler.scalar(d, v);
                ofValue[v] = failedOrValue(() -> ScalarEvaluator.eval(e, x -> value));
                done[v] = true;
            }
            out[code] = ofValue[v];
        }
        return out;
    }

    /**
     * The system property that, {@code false}, evaluates an expression of a temporary table's plain column once per
     * distinct value, coding the column first, as for any table (an A/B of one process).
     */
    static final String PLAIN_PER_ROW_PROPERTY = "numacube.plainPerRow";

    /**
     * Whether {@link #perValue} evaluates per joined row instead: LOOKUP column {@code column} is a plain column (not
     * coded) of a table that lives for one statement (a subquery's), whose coding would be built for this one use
     * (TPC-H Q15's {@code total_revenue = (SELECT max ...)} over the view's 10,000 rows, at every run).
     */
    private boolean perRowOfTemporary(int column) {
        int j = query.joinOf(column);
        FactTable dim = dims.get(j);
        return dim.coded().temporary()
                && !dim.schema()
                        .column(column - query.joins().get(j).firstColumn())
                        .isDimension()
                && !"false".equals(System.getProperty(PLAIN_PER_ROW_PROPERTY));
    }

    /**
     * {@link #perValue} of a plain LOOKUP column, evaluated once per joined row that a code reaches, in code order, on
     * the row's value as {@link #valueAt} reads it (the value the column's dictionary holds for it): every code gets
     * the value, or the {@link Failed} error, that {@link #perValue} gives it.
     */
    private Object[] perRow(Expr e, int column, int codes) {
        int[] rows = rowOfCode[query.joinOf(column)];
        RowValues values = lookupColumn(column);
        Object[] ofRow = new Object[values.rows() + 1];
        boolean[] done = new boolean[values.rows() + 1];
        int noRow = values.rows();
        Object[] out = new Object[rows.length];
        for (int code = 0; code < Math.min(codes, out.length); code++) {
            int row = rows[code] < 0 ? noRow : rows[code];
            if (!done[row]) {
                Object value = row == noRow ? null : values.at(row);
                ofRow[row] = failedOrValue(() -> ScalarEvaluator.eval(e, x -> value));
                done[row] = true;
            }
            out[code] = ofRow[row];
        }
        return out;
    }

    /** A value of {@link #perValue} whose computation raised {@code error} ({@link CodeErrors}). */
    record Failed(io.numacube.numa.base.NumacubeException error) {}

    private static Object failedOrValue(java.util.function.Supplier<Object> value) {
        try {
            return value.get();
        } catch (io.numacube.numa.base.NumacubeException e) {
            if (!CodeErrors.isValueError(e)) {
                throw e;
            }
            return new Failed(e);
        }
    }

    /** A value of {@link #perValue}, or the error computing it raised. */
    static Object valueOrThrow(Object value) {
        if (value instanceof Failed f) {
            throw f.error();
        }
        return value;
    }

    /**
     * A group key that is an expression of LOOKUP column {@code column} alone: the key of the column's values (and of
     * NULL, for codes that join no row), evaluated for the values that reachable codes reach, then mapped per code of
     * the fact column's first {@code codes} codes; an unreachable code (or one beyond them) maps to 0, a failed
     * value's codes to {@link DerivedKey#FAILED}.
     */
    DerivedKey derivedKeyPerValue(Expr key, int column, int codes) {
        Dictionary d = valueDictionary(column);
        int[] valueCodes = valueCodes(column);
        boolean[] reach = innerMasks.get(factColumnOf(column));
        int noRow = d.size();
        boolean[] used = new boolean[noRow + 1];
        for (int code = 0; code < Math.min(codes, valueCodes.length); code++) {
            if (reach == null || reach[code]) {
                used[valueCodes[code] < 0 ? noRow : valueCodes[code]] = true;
            }
        }
        boolean bare = key instanceof Expr.Column c && c.side() == Expr.Side.LOOKUP && c.index() == column;
        DerivedKey byValue = DerivedKey.of(key, noRow + 1, v -> {
            if (!used[v]) {
                return DerivedKey.ABSENT;
            }
            Object value = v == noRow ? null : QueryCompiler.scalar(d, v);
            return bare ? value : ScalarEvaluator.eval(key, x -> value);
        });
        int[] map = new int[valueCodes.length];
        Map<Integer, io.numacube.numa.base.NumacubeException> errors = new java.util.HashMap<>();
        for (int code = 0; code < Math.min(codes, map.length); code++) {
            if (reach != null && !reach[code]) {
                continue;
            }
            int v = valueCodes[code] < 0 ? noRow : valueCodes[code];
            map[code] = byValue.codeOfSourceCode()[v];
            if (map[code] == DerivedKey.FAILED) {
                errors.put(code, byValue.errors().get(v));
            }
        }
        return new DerivedKey(byValue.dictionary(), map, Map.copyOf(errors));
    }

    private static int codedColumn(FactTable dim, int c) {
        return dim.schema().column(c).isDimension() ? c : dim.codedIndex(c);
    }

    /** A query-time coded column's code per row of {@code dim}, rows numbered across partitions. */
    private static int[] codesByRow(FactTable dim, int column) {
        int[] out = new int[(int) dim.rowCount()];
        int r = 0;
        for (Partition p : dim.partitions()) {
            long[] deleted = dim.deleted().of(p.id());
            for (int i = 0; i < p.rows(); i++) {
                if (deleted == null || !io.numacube.engine.storage.DeletedRows.isSet(deleted, i)) {
                    out[r++] = dim.code(p, column, i);
                }
            }
        }
        return out;
    }

    private long maxCodes() {
        long most = 0;
        for (int[] rows : rowOfCode) {
            most = Math.max(most, rows.length);
        }
        return most;
    }

    private static boolean[] filled(int n) {
        boolean[] m = new boolean[n];
        Arrays.fill(m, true);
        return m;
    }

    /** Reads the query's dimension tables (in join order) and maps every root code to each one's row. */
    static LookupIndex read(LogicalQuery query, FactTable fact, List<FactTable> dims) {
        return read(query, fact, dims, null);
    }

    /**
     * {@link #read}, with per-code tables of many codes filled by ranges of codes on {@code pool}'s workers (null:
     * on this thread): each code's entry is what the serial loop gives it.
     */
    static LookupIndex read(LogicalQuery query, FactTable fact, List<FactTable> dims, WorkerPool pool) {
        LookupIndex index = new LookupIndex(query, fact, dims, pool);
        for (int j = 0; j < query.joins().size(); j++) {
            LogicalQuery.Join join = query.joins().get(j);
            FactTable dim = dims.get(j);
            checkSize(dim);
            index.values[j] = new RowValues[dim.schema().size()];
            if (join.parent() < 0) {
                index.root[j] = rootOf(fact, join.parentColumns());
            } else {
                index.root[j] = index.root[join.parent()];
            }
            int rootCodes = Math.max(1, fact.dictionary(index.root[j]).size());
            int joined = j;
            index.rowOfCode[j] = index.keep(
                    "rows of code " + index.paths[j],
                    rootCodes,
                    () -> index.rowsOfCode(joined),
                    index.temporaryPath[j]);
        }
        index.innerMasks = index.memo("inner masks", index.maxCodes(), index::computeInnerMasks);
        return index;
    }

    /**
     * The fact column slot a join on {@code columns} hangs from: the one column's codes, or for a key of several
     * columns their {@link FactTable#compositeIndex} (nested: {@code ((a, b), c)}).
     */
    private static int rootOf(FactTable fact, List<Integer> columns) {
        int root = codedColumn(fact, columns.get(0));
        for (int i = 1; i < columns.size(); i++) {
            root = fact.compositeIndex(root, codedColumn(fact, columns.get(i)));
        }
        return root;
    }

    /** For each code of join {@code j}'s root column, the row of its table it joins to, or -1. */
    private int[] rowsOfCode(int j) {
        LogicalQuery.Join join = query.joins().get(j);
        FactTable dim = dims.get(j);
        KeyRows rowOfKey = keyRows(j);
        int[] rows;
        if (join.parent() < 0) {
            Dictionary d = fact.dictionary(root[j]);
            rows = new int[Math.max(1, d.size())];
            Arrays.fill(rows, -1);
            int keys = join.keyColumns().size();
            boolean integers = d.type() != ColumnType.STRING && d.type() != ColumnType.DOUBLE;
            boolean fewKeys = dim.rowCount() * FEW_KEYS_PER_CODE < d.size();
            if (keys == 1 && integers && d.searchable() && fewKeys) {
                RowValues dimKeys = column(j, join.keyColumns().get(0));
                if (dimKeys.integers()) {
                    fillFromKeys(rows, d, dimKeys, rowOfKey);
                    return rows;
                }
            }
            CompositeCodes composite = keys > 1 ? CompositeCodes.of(fact, root[j], keys) : null;
            if (composite != null && fewKeys && composite.fillFromKeys(rows, columns(j, join.keyColumns()))) {
                return rows;
            }
            for (int code = 0; code < d.size(); code++) {
                rows[code] = keys > 1
                        ? rowOfKey.rowOf(composite.key(code))
                        : integers && !d.isNull(code)
                                ? rowOfKey.rowOf(d.longValue(code))
                                : rowOfKey.rowOf(QueryCompiler.scalar(d, code));
            }
        } else {
            int p = join.parent();
            rows = new int[rowOfCode[p].length];
            int[] rowOfParentRow = rowsOfParentRows(j, rowOfKey);
            if (rowOfParentRow != null) {
                int[] parentRows = rowOfCode[p];
                byCodeRanges(rows.length, (from, to) -> {
                    for (int code = from; code < to; code++) {
                        rows[code] = parentRows[code] < 0 ? -1 : rowOfParentRow[parentRows[code]];
                    }
                    return null;
                });
                return rows;
            }
            List<RowValues> parentKeys = columns(p, join.parentColumns());
            for (int code = 0; code < rows.length; code++) {
                int parentRow = rowOfCode[p][code];
                rows[code] = parentRow < 0 ? -1 : rowOfKey.rowOf(parentKeys, parentRow);
            }
        }
        return rows;
    }

    /** Join {@code j}'s table's row of each key (its key columns'), built once and kept with that table. */
    private KeyRows keyRows(int j) {
        LogicalQuery.Join join = query.joins().get(j);
        FactTable dim = dims.get(j);
        return dim.coded()
                .memo(
                        "key rows " + join.keyColumns(),
                        dim.rowCount(),
                        () -> KeyRows.of(dim, columns(j, join.keyColumns()), join.keyColumns()));
    }

    /**
     * The system property that, {@code false}, joins a small table hanging from another joined table code by code of
     * the root column, as before {@link #rowsOfParentRows} (for an A/B of one process).
     */
    static final String SMALL_CHILD_PROPERTY = "numacube.smallChildJoin";

    /**
     * For join {@code j}, a table of few rows (a decorrelated subquery's groups: TPC-H Q17's 200 parts of one brand)
     * hanging from its parent join by the parent's own key column ({@code p_partkey = __scalar.__k}, part joined on
     * {@code p_partkey}), the row of {@code j}'s table for each row of the parent's table, or -1; null where {@code j}
     * is not of that shape. Found from {@code j}'s rows: each of its keys is looked up among the parent's keys, and
     * kept where {@code rowOfKey} (j's own key rows) gives that row back for the parent row, so each entry is the
     * row the code-by-code lookup of the parent row's key finds, in time of the two tables' rows instead of the root
     * column's codes.
     */
    private int[] rowsOfParentRows(int j, KeyRows rowOfKey) {
        LogicalQuery.Join join = query.joins().get(j);
        int p = join.parent();
        LogicalQuery.Join parent = query.joins().get(p);
        if (join.keyColumns().size() != 1
                || !join.parentColumns().equals(parent.keyColumns())
                || dims.get(j).rowCount() * FEW_KEYS_PER_CODE >= rowOfCode[p].length
                || "false".equals(System.getProperty(SMALL_CHILD_PROPERTY))) {
            return null;
        }
        RowValues keys = column(j, join.keyColumns().get(0));
        RowValues parentKeys = column(p, parent.keyColumns().get(0));
        // integer keys of either side are equal by their longs (KeyRows), so each side finds what the other does
        if (!keys.integers() || !parentKeys.integers()) {
            return null;
        }
        KeyRows parentRowOfKey = keyRows(p);
        int[] out = new int[parentKeys.rows()];
        Arrays.fill(out, -1);
        for (int r = 0; r < keys.rows(); r++) {
            int parentRow = keys.isNull(r) ? -1 : parentRowOfKey.rowOf(keys, r);
            if (parentRow >= 0 && rowOfKey.rowOf(parentKeys, parentRow) == r) {
                out[parentRow] = r;
            }
        }
        return out;
    }

    /**
     * A joined table of fewer rows than this fraction of the fact key's codes is joined from its side: each of its
     * keys is looked up among the fact key's codes, instead of each code among its keys (a subquery's few hundred
     * thousand keys against TPC-H's 1.5M order keys).
     */
    static final int FEW_KEYS_PER_CODE = 4;

    /**
     * Sets {@code rows[code]} for each code of {@code d} whose value is a key of {@code keys}, to the row {@code
     * rowOfKey} gives that key: the same rows the per-code loop finds, in time of the joined table's rows.
     */
    private void fillFromKeys(int[] rows, Dictionary d, RowValues keys, KeyRows rowOfKey) {
        long[] values = new long[keys.rows()];
        int[] rowOfValue = new int[keys.rows()];
        int n = 0;
        for (int r = 0; r < keys.rows(); r++) {
            if (!keys.isNull(r)) {
                values[n] = keys.longAt(r);
                rowOfValue[n++] = r;
            }
        }
        sortPairs(values, rowOfValue, n);
        // a key's code and row depend on that key alone, and a code is written by one key at most (keys are unique)
        byCodeRanges(n, (from, to) -> {
            int[] codes = new int[to - from];
            d.codesOfAscending(values, from, to, codes);
            for (int i = from; i < to; i++) {
                int r = rowOfValue[i];
                int code = codes[i - from];
                if (code >= 0 && rowOfKey.rowOf(values[i]) == r) {
                    rows[code] = r;
                }
            }
            return null;
        });
    }

    /**
     * Sorts {@code values[0..n)} ascending with {@code rows} moved along: nothing to do when they ascend already (a
     * subquery's grouped keys often do); packed into one long each and sorted by the JDK where the values' range
     * leaves room for the row numbers, else pairwise.
     */
    static void sortPairs(long[] values, int[] rows, int n) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        boolean ascending = true;
        for (int i = 0; i < n; i++) {
            ascending &= i == 0 || values[i - 1] <= values[i];
            min = Math.min(min, values[i]);
            max = Math.max(max, values[i]);
        }
        if (ascending) {
            return;
        }
        int rowBits = 64 - Long.numberOfLeadingZeros(Math.max(1, n - 1));
        long span = max - min;
        if (span < 0 || span >= 1L << (63 - rowBits)) {
            io.numacube.engine.schema.PairQuicksort.sort(values, rows, 0, n);
            return;
        }
        long[] packed = new long[n];
        for (int i = 0; i < n; i++) {
            packed[i] = (values[i] - min) << rowBits | i;
        }
        Arrays.sort(packed);
        int[] moved = new int[n];
        long mask = (1L << rowBits) - 1;
        for (int i = 0; i < n; i++) {
            int from = (int) (packed[i] & mask);
            moved[i] = rows[from];
            values[i] = (packed[i] >>> rowBits) + min;
        }
        System.arraycopy(moved, 0, rows, 0, n);
    }

    private List<RowValues> columns(int j, List<Integer> columns) {
        return columns.stream().map(c -> column(j, c)).toList();
    }

    private static void checkSize(FactTable dim) {
        if (dim.rowCount() > MAX_ROWS) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a joined table must be a dimension table of at most " + MAX_ROWS + " rows: table="
                            + dim.schema().name() + " rows=" + dim.rowCount());
        }
    }
}
