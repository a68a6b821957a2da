package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import io.numacube.numa.base.NumacubeException;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a row expression is NULL. SQL arithmetic and comparisons are NULL when an operand is, so an expression of
 * columns, literals and operators is NULL in a row exactly when one of the columns it reads is: a measure whose null
 * bit is set, a dimension whose code is its dictionary's NULL code, or a dimension-table attribute that is NULL (or
 * has no joined row) for the row's code of the fact column it hangs from. Immutable; shared by every worker.
 *
 * <p>Invariant: {@code bitColumns} are fact measures that may hold NULL; {@code codeColumns[i]} is a fact dimension
 * (or the join key) and {@code nullOfCode[i][code]} is true for its codes whose value makes the expression NULL;
 * {@code rowColumns[i]} is the fact column an inner join hangs from, {@code rowOfCode[i]} its codes' joined rows and
 * {@code nullOfRow[i][row + 1]} true for the rows whose columns make the expression NULL (entry 0, no row, false:
 * the inner join drops those codes before any row expression is evaluated; {@link LookupIndex#byRow}). A mask
 * with no columns ({@link #isEmpty()}) never marks a row: the expression cannot be NULL. {@code errorOfCode[i]}, where
 * not null, holds per code of {@code codeColumns[i]} the error computing the expression's value raised ({@link
 * CodeErrors}; such a code is not NULL): a row of that code that reaches the expression raises it.
 */
final class NullMask {

    static final NullMask NONE = new NullMask(
            new int[0],
            new int[0],
            new boolean[0][],
            new NumacubeException[0][],
            new int[0],
            new int[0][],
            new boolean[0][]);

    private final int[] bitColumns;
    private final int[] codeColumns;
    private final boolean[][] nullOfCode;
    private final NumacubeException[][] errorOfCode;
    private final int[] rowColumns;
    private final int[][] rowOfCode;
    private final boolean[][] nullOfRow;

    private NullMask(
            int[] bitColumns,
            int[] codeColumns,
            boolean[][] nullOfCode,
            NumacubeException[][] errorOfCode,
            int[] rowColumns,
            int[][] rowOfCode,
            boolean[][] nullOfRow) {
        this.bitColumns = bitColumns;
        this.codeColumns = codeColumns;
        this.nullOfCode = nullOfCode;
        this.errorOfCode = errorOfCode;
        this.rowColumns = rowColumns;
        this.rowOfCode = rowOfCode;
        this.nullOfRow = nullOfRow;
    }

    /**
     * The mask of {@code e}'s columns.
     *
     * @param lookup the joined tables' index, or null without joins
     */
    static NullMask of(Expr e, FactTable fact, LookupIndex lookup) {
        if (e == null) {
            return NONE;
        }
        java.util.TreeSet<Integer> bits = new java.util.TreeSet<>();
        Map<Integer, boolean[]> codes = new TreeMap<>();
        Map<Integer, NumacubeException[]> errors = new TreeMap<>();
        Map<Integer, boolean[]> rows = new TreeMap<>();
        new Collector(fact, lookup, bits, codes, errors, rows).add(e);
        codes.entrySet().removeIf(c -> !any(c.getValue()) && !errors.containsKey(c.getKey()));
        rows.values().removeIf(m -> !any(m));
        if (bits.isEmpty() && codes.isEmpty() && rows.isEmpty()) {
            return NONE;
        }
        return new NullMask(
                bits.stream().mapToInt(Integer::intValue).toArray(),
                codes.keySet().stream().mapToInt(Integer::intValue).toArray(),
                codes.values().toArray(boolean[][]::new),
                codes.keySet().stream().map(errors::get).toArray(NumacubeException[][]::new),
                rows.keySet().stream().mapToInt(j -> lookup.joinRoot(j)).toArray(),
                rows.keySet().stream().map(j -> lookup.rowsOf(j)).toArray(int[][]::new),
                rows.values().toArray(boolean[][]::new));
    }

    /**
     * Walks an expression: arithmetic and comparisons are NULL where an operand is; a column is NULL where its value
     * is; a function or CASE of one dimension (or of lookup columns) is evaluated per code, since it may turn NULL into
     * a value ({@code coalesce}) or a value into NULL (a CASE without ELSE).
     */
    private record Collector(
            FactTable fact,
            LookupIndex lookup,
            java.util.Set<Integer> bits,
            Map<Integer, boolean[]> codes,
            Map<Integer, NumacubeException[]> errors,
            Map<Integer, boolean[]> rows) {

        void add(Expr e) {
            switch (e) {
                case Expr.Literal l -> {}
                case Expr.Column c -> column(c);
                case Expr.Arith a -> {
                    add(a.left());
                    add(a.right());
                }
                case Expr.Neg n -> add(n.operand());
                case Expr.Compare c -> {
                    add(c.left());
                    add(c.right());
                }
                case Expr.In in -> add(in.operand());
                case Expr.Between b -> {
                    add(b.operand());
                    add(b.low());
                    add(b.high());
                }
                case Expr.Call c when isCoalesceWithConstant(c) -> {}
                default -> perCode(e);
            }
        }

        private void column(Expr.Column c) {
            if (c.side() == Expr.Side.LOOKUP && lookup.byRow(c.index())) {
                boolean[] m = rows.computeIfAbsent(
                        lookup.joinOf(c.index()), k -> new boolean[lookup.rowsOfTable(c.index()) + 1]);
                boolean[] isNull = lookup.nullsByRow(c.index());
                for (int row = 0; row < m.length; row++) {
                    m[row] |= isNull[row];
                }
            } else if (c.side() == Expr.Side.LOOKUP) {
                // a code without a row is NULL too where a LEFT join keeps it (an inner join drops those rows)
                boolean[] m = codes.computeIfAbsent(
                        lookup.factColumnOf(c.index()), k -> new boolean[lookup.codes(c.index())]);
                boolean[] isNull = lookup.nullsOf(c.index());
                for (int code = 0; code < m.length; code++) {
                    m[code] |= isNull[code];
                }
            } else if (c.type().isDimension()) {
                Dictionary d = fact.dictionary(c.index());
                if (d.nullCode() >= 0) {
                    codes.computeIfAbsent(c.index(), k -> new boolean[d.size()])[d.nullCode()] = true;
                }
            } else if (fact.mayBeNull(c.index())) {
                bits.add(c.index());
            }
        }

        /**
         * An expression of one column (a dimension, lookup columns, or a plain column through its query-time codes):
         * NULL for the codes where its value is.
         */
        private void perCode(Expr e) {
            int source = perCodeSource(e, fact, lookup);
            if (source == -2) {
                return;
            }
            if (source < 0) {
                throw new io.numacube.numa.base.NumacubeException(
                        io.numacube.numa.base.NumacubeException.Kind.INVALID_INPUT,
                        "0A000",
                        "unsupported SQL: " + e.text() + " over several columns, row by row",
                        null,
                        null);
            }
            int col = source;
            Dictionary d = fact.dictionary(col);
            boolean[] m = codes.computeIfAbsent(col, k -> new boolean[Math.max(1, d.size())]);
            String key = "null " + col + " " + e;
            NullsByCode nulls = LookupIndex.memoOf(e, fact, lookup, key, d.size(), () -> nullPerCode(e, col, d));
            for (int code = 0; code < d.size(); code++) {
                m[code] |= nulls.isNull()[code];
            }
            if (nulls.errors() != null) {
                NumacubeException[] all = errors.computeIfAbsent(col, k -> new NumacubeException[m.length]);
                for (int code = 0; code < nulls.errors().length; code++) {
                    all[code] = all[code] != null ? all[code] : nulls.errors()[code];
                }
            }
        }

        /** Per code, whether an expression is NULL there, and the errors computing it raised (null: none). */
        private record NullsByCode(boolean[] isNull, NumacubeException[] errors) {}

        /**
         * Per code of {@code d}'s column {@code col}, whether {@code e} is NULL there: an expression of one joined
         * column is evaluated once per value of that column ({@link LookupIndex#perValue}), others per code.
         */
        private NullsByCode nullPerCode(Expr e, int col, Dictionary d) {
            boolean[] isNull = new boolean[d.size()];
            int only = lookup == null ? -1 : LookupIndex.onlyLookupColumn(e);
            Object[] perValue =
                    only >= 0 && lookup.factColumnOf(only) == col ? lookup.perValue(e, only, d.size()) : null;
            CodeErrors errors = new CodeErrors();
            for (int code = 0; code < d.size(); code++) {
                Object v = errors.evaluate(
                        code,
                        at -> perValue != null && at < perValue.length
                                ? LookupIndex.valueOrThrow(perValue[at])
                                : ScalarEvaluator.eval(e, x -> {
                                    Expr.Column c = (Expr.Column) x;
                                    return c.side() == Expr.Side.LOOKUP
                                            ? lookup.valueAt(c.index(), at)
                                            : scalarOf(d, at);
                                }));
                isNull[code] = v == null;
            }
            return new NullsByCode(isNull, errors.table(d.size()));
        }

        private static Object scalarOf(Dictionary d, int code) {
            return QueryCompiler.scalar(d, code);
        }
    }

    /**
     * The one column whose codes a function or CASE is evaluated per: a dimension, the join key a lookup column hangs
     * from, or a plain column's query-time codes ({@link FactTable#codedIndex}); -1 when it reads several columns, -2
     * when none.
     */
    static int perCodeSource(Expr e, FactTable fact, LookupIndex lookup) {
        int[] source = {-2};
        Expr.walk(e, x -> {
            if (x instanceof Expr.Column c) {
                int s = c.side() == Expr.Side.LOOKUP
                        ? lookup.factColumnOf(c.index())
                        : c.type().isDimension() ? c.index() : fact.codedIndex(c.index());
                source[0] = source[0] == -2 || source[0] == s ? s : -1;
            }
        });
        return source[0];
    }

    /** Whether {@code e} reads a joined table's column (its per-code tables depend on that table, not only the fact). */
    static boolean readsLookup(Expr e) {
        boolean[] lookup = {false};
        Expr.walk(e, x -> lookup[0] |= x instanceof Expr.Column c && c.side() == Expr.Side.LOOKUP);
        return lookup[0];
    }

    /**
     * {@code coalesce(x, literal)} with a non-NULL literal last: never NULL, and computed row by row over measures
     * ({@link BatchExpression.Coalesce}).
     */
    static boolean isCoalesceWithConstant(Expr.Call c) {
        return c.name().equals("coalesce")
                && c.args().size() == 2
                && c.args().get(1) instanceof Expr.Literal l
                && l.value() != null
                && (Expr.isInteger(c.type()) || c.type() == io.numacube.engine.schema.ColumnType.DOUBLE);
    }

    private static boolean any(boolean[] m) {
        for (boolean b : m) {
            if (b) {
                return true;
            }
        }
        return false;
    }

    boolean isEmpty() {
        return bitColumns.length == 0 && codeColumns.length == 0 && rowColumns.length == 0;
    }

    /** The columns whose codes this mask reads (dimensions, join keys, query-time coded columns). */
    int[] codeColumns() {
        return java.util.stream.IntStream.concat(
                        java.util.Arrays.stream(codeColumns), java.util.Arrays.stream(rowColumns))
                .toArray();
    }

    /** Whether a row of this morsel may be NULL (false lets kernels skip {@link #mark}). */
    boolean mayHaveNulls(MorselView v) {
        if (codeColumns.length > 0 || rowColumns.length > 0) {
            return true;
        }
        for (int c : bitColumns) {
            if (v.nulls[c] != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code isNull[k]} = whether the expression is NULL at batch position k (rows {@code b + k} or {@code sel[k]});
     * the error of a row whose value failed is raised ({@link CodeErrors}).
     */
    void mark(MorselView v, int b, int n, int[] sel, boolean[] isNull) {
        mark(v, b, n, sel, isNull, null);
    }

    /**
     * {@link #mark}, raising the error of a failed value only at the positions k that {@code reaches} (where not
     * null) holds: the rows the expression is evaluated for.
     */
    void mark(MorselView v, int b, int n, int[] sel, boolean[] isNull, boolean[] reaches) {
        java.util.Arrays.fill(isNull, 0, n, false);
        for (int c : bitColumns) {
            MemorySegment bits = v.nulls[c];
            if (bits == null) {
                continue;
            }
            long first = v.first;
            for (int k = 0; k < n; k++) {
                isNull[k] |= Partition.isSet(bits, first + (sel == null ? b + k : sel[k]));
            }
        }
        for (int i = 0; i < codeColumns.length; i++) {
            int c = codeColumns[i];
            if (errorOfCode[i] != null) {
                CodeErrors.raise(errorOfCode[i], v.columns[c], v.widths[c], b, n, sel, reaches);
            }
            CodeKernels.orGather(v.columns[c], v.widths[c], b, n, sel, nullOfCode[i], isNull);
        }
        for (int i = 0; i < rowColumns.length; i++) {
            int c = rowColumns[i];
            CodeKernels.orGatherByRow(v.columns[c], v.widths[c], b, n, sel, rowOfCode[i], nullOfRow[i], isNull);
        }
    }
}
