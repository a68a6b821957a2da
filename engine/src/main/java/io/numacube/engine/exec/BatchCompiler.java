package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.NumacubeException;
import java.util.List;
import java.util.TreeSet;

/**
 * Compiles row-level expressions of a query into batch kernels: predicates on one dimension into code masks
 * (evaluated once per dictionary code), other predicates into {@link BatchPredicate}s, numeric expressions into
 * {@link BatchExpression}s; lookup columns become values per fact join-key code. Numbers the scratch slots the
 * kernels use ({@link #layout()}). One per query plan; not thread-safe.
 */
final class BatchCompiler {

    private final FactTable fact;
    private final LookupIndex lookup;
    /** The query's workers, which evaluate a mask of many codes by ranges ({@link #evaluateMask}); null: this thread. */
    private final WorkerPool pool;

    private int doubleSlots;
    private int booleanSlots;
    /** The query-time coded columns ({@link FactTable#codedIndex}) the compiled kernels read codes of. */
    private final java.util.TreeSet<Integer> codedReads = new java.util.TreeSet<>();

    /** @param lookup the joined tables' index, or null without joins */
    BatchCompiler(FactTable fact, LookupIndex lookup) {
        this(fact, lookup, null);
    }

    /**
     * @param lookup the joined tables' index, or null without joins
     * @param pool   the query's workers, which evaluate a mask of many codes over a fact column alone by ranges of
     *               codes; null evaluates every mask on this thread
     */
    BatchCompiler(FactTable fact, LookupIndex lookup, WorkerPool pool) {
        this.fact = fact;
        this.lookup = lookup;
        this.pool = pool;
    }

    /** The query-time coded columns the compiled kernels and null masks read codes of (the scan must read them). */
    java.util.Set<Integer> codedReads() {
        return java.util.Collections.unmodifiableSet(codedReads);
    }

    /** {@link NullMask#perCodeSource}, noting a query-time coded column for the scan. */
    private int perCodeSource(Expr e) {
        int source = NullMask.perCodeSource(e, fact, lookup);
        if (source >= 0 && fact.isCodedIndex(source)) {
            codedReads.add(source);
        }
        return source;
    }

    /** The scratch slots numbered so far. */
    ScratchLayout layout() {
        return new ScratchLayout(doubleSlots, booleanSlots);
    }

    /** A new boolean scratch slot (for a junction built outside this compiler). */
    int booleanSlot() {
        return booleanSlots++;
    }

    /** Fact dimension columns an expression depends on (lookup columns count as the join key) and whether it reads
     * measures. */
    record Sources(TreeSet<Integer> dims, boolean measures) {}

    /**
     * The columns under {@code e}. A TIMESTAMP column inside a function, CASE or IS [NOT] DISTINCT FROM ({@code hour(ts)
     * = 5}) is read through
     * its query-time codes ({@link io.numacube.engine.storage.FactTable#codedIndex}), so the function runs once per
     * distinct value; compared directly ({@code ts > TIMESTAMP '...'}) it stays a plain column, compared row by row
     * without coding it.
     */
    Sources sources(Expr e) {
        java.util.Set<Expr> inFunction = new java.util.HashSet<>();
        Expr.walk(e, x -> {
            if (x instanceof Expr.Call || x instanceof Expr.Case || x instanceof Expr.IsDistinct) {
                Expr.walk(x, y -> {
                    if (y instanceof Expr.Column c && c.type() == ColumnType.TIMESTAMP) {
                        inFunction.add(y);
                    }
                });
            }
        });
        TreeSet<Integer> dims = new TreeSet<>();
        boolean[] measures = {false};
        Expr.walk(e, x -> {
            if (x instanceof Expr.Column c) {
                if (c.side() == Expr.Side.LOOKUP) {
                    dims.add(lookup.factColumnOf(c.index()));
                } else if (c.type().isDimension()) {
                    dims.add(c.index());
                } else if (inFunction.contains(c)) {
                    dims.add(fact.codedIndex(c.index()));
                } else {
                    measures[0] = true;
                }
            }
        });
        return new Sources(dims, measures[0]);
    }

    /**
     * A condition's value per code of one column, and the errors evaluating it raised per code ({@link CodeErrors};
     * null where none did).
     */
    record CodeMask(boolean[] mask, NumacubeException[] errors) {}

    /** Evaluates {@code e} for every code of {@code col}; kept for later queries (shared: read only). */
    CodeMask mask(Expr e, int col) {
        Dictionary d = fact.dictionary(col);
        String key = "mask " + col + " " + e;
        return LookupIndex.memoOf(e, fact, lookup, key, d.size(), () -> evaluateMask(e, col));
    }

    /** The system property that, {@code false}, evaluates every mask on the planning thread (an A/B of one process). */
    static final String PARALLEL_MASK_PROPERTY = "numacube.parallelMask";

    private CodeMask evaluateMask(Expr e, int col) {
        Dictionary d = fact.dictionary(col);
        boolean[] byKeys = KeySetMasks.mask(
                e,
                col,
                d,
                c -> c.side() == Expr.Side.LOOKUP
                        ? -1
                        : c.type().isDimension() ? c.index() : fact.codedIndex(c.index()),
                pool);
        if (byKeys != null) {
            return new CodeMask(byKeys, null);
        }
        boolean[] m = new boolean[Math.max(d.size(), 1)];
        CodeErrors errors = new CodeErrors();
        if (byRanges(e, d.size())) {
            WorkerChunks.map(pool, d.size(), (from, to) -> {
                for (int code = from; code < to; code++) {
                    m[code] = Boolean.TRUE.equals(errors.evaluate(
                            code, c -> ScalarEvaluator.eval(e, x -> factLeafAt((Expr.Column) x, col, c, d))));
                }
                return null;
            });
            return new CodeMask(m, errors.table(d.size()));
        }
        java.util.function.IntFunction<Object> value = valuePerCode(e, col, d.size());
        for (int code = 0; code < d.size(); code++) {
            m[code] = Boolean.TRUE.equals(errors.evaluate(code, value));
        }
        return new CodeMask(m, errors.table(d.size()));
    }

    /**
     * {@code e}'s value for each of the first {@code codes} codes of {@code col} (asked in code order): an expression
     * of one joined column is evaluated once per value of that column ({@link LookupIndex#perValue}), others per code.
     */
    private java.util.function.IntFunction<Object> valuePerCode(Expr e, int col, int codes) {
        int only = lookup == null ? -1 : LookupIndex.onlyLookupColumn(e);
        if (only >= 0 && lookup.factColumnOf(only) == col) {
            Object[] values = lookup.perValue(e, only, codes);
            return code -> LookupIndex.valueOrThrow(values[code]);
        }
        return code -> ScalarEvaluator.eval(e, x -> leafAt((Expr.Column) x, col, code));
    }

    /**
     * {@link #mask}, or null when the condition fails for some dictionary value (an overflow, a logarithm of zero):
     * that value's rows may all be decided by an earlier condition, which PostgreSQL and DuckDB evaluate first, so
     * the caller evaluates it after that condition instead, where a row that reaches it still raises the error.
     */
    boolean[] maskUnlessFailing(Expr e, int col) {
        CodeMask m = mask(e, col);
        return m.errors() == null ? m.mask() : null;
    }

    private Object leafAt(Expr.Column x, int col, int code) {
        if (x.side() == Expr.Side.LOOKUP) {
            return lookup.valueAt(x.index(), code);
        }
        return factLeafAt(x, col, code, fact.dictionary(col));
    }

    /** The value of fact column {@code x}, read through {@code col}'s codes ({@code d}), at {@code code}. */
    private Object factLeafAt(Expr.Column x, int col, int code, Dictionary d) {
        if (x.side() == Expr.Side.LOOKUP || (x.type().isDimension() ? x.index() : fact.codedIndex(x.index())) != col) {
            throw new NumacubeException(
                    NumacubeException.Kind.INTERNAL, "mask over another column: column=" + x.name());
        }
        return QueryCompiler.scalar(d, code);
    }

    /**
     * Whether a mask of {@code e} over {@code codes} codes is evaluated by ranges of codes on the workers: many codes,
     * two workers or more, and {@code e} reads the fact column alone (a joined column's values are read through the
     * lookup index, which fills its tables on first use). Each code's value is its own, and {@link WorkerChunks}
     * throws the failure of the first failing range, the one the serial loop meets first.
     */
    private boolean byRanges(Expr e, int codes) {
        return pool != null
                && codes >= LookupIndex.PARALLEL_CODES
                && pool.workerCount() >= 2
                && !NullMask.readsLookup(e)
                && !"false".equals(System.getProperty(PARALLEL_MASK_PROPERTY));
    }

    /** A row predicate that keeps the rows where {@code e} is TRUE (not FALSE, not NULL). */
    BatchPredicate predicate(Expr e) {
        return predicate(e, false);
    }

    /**
     * The rows where {@code e} (or, when {@code negate}, {@code NOT e}) is TRUE, in three-valued logic: NOT is pushed
     * down to the leaves (De Morgan; a comparison's operator flips, as DuckDB's total order of doubles allows), so
     * AND and OR of "is TRUE" are exact, and a leaf over columns that may be NULL is guarded: it is not TRUE where an
     * operand is NULL. Single-dimension leaves become code masks, evaluated per code in three-valued logic.
     */
    private BatchPredicate predicate(Expr e, boolean negate) {
        Sources s = sources(e);
        Expr positive = negate ? new Expr.Not(e) : e;
        if (!s.measures && s.dims.isEmpty()) {
            return new BatchPredicate.Constant(Boolean.TRUE.equals(ScalarEvaluator.eval(positive, x -> null)));
        }
        if (!s.measures && s.dims.size() == 1) {
            int col = s.dims.first();
            CodeMask m = mask(positive, col);
            BatchPredicate.Mask passes = new BatchPredicate.Mask(col, m.mask());
            return m.errors() == null ? passes : new BatchPredicate.Failing(passes, m.errors());
        }
        return switch (e) {
            case Expr.And a -> junction(!negate, a.terms(), negate);
            case Expr.Or o -> junction(negate, o.terms(), negate);
            case Expr.Not n -> predicate(n.operand(), !negate);
            case Expr.IsNull n
            when Expr.isPredicate(n.operand()) -> conditionIsNull(n.operand(), n.negated() != negate);
            case Expr.IsNull n ->
                new BatchPredicate.IsNull(nullMask(n.operand()), n.negated() != negate, booleanSlots++);
            case Expr.IsDistinct d -> predicate(nullSafe(d.left(), d.right(), d.negated() != negate), false);
            default -> guarded(e, leaf(e, negate));
        };
    }

    /**
     * {@code a IS NOT DISTINCT FROM b} (when {@code same}) or {@code a IS DISTINCT FROM b} as NULL tests and a
     * comparison, each TRUE exactly where the original is: both NULL or equal; one NULL or different (the comparison
     * is never TRUE over a NULL). Only its TRUE rows are meant: the caller never negates it.
     */
    private static Expr nullSafe(Expr a, Expr b, boolean same) {
        if (same) {
            return new Expr.Or(List.of(
                    new Expr.And(List.of(new Expr.IsNull(a, false), new Expr.IsNull(b, false))),
                    new Expr.Compare(Expr.CompareOp.EQ, a, b)));
        }
        return new Expr.Or(List.of(
                new Expr.And(List.of(new Expr.IsNull(a, false), new Expr.IsNull(b, true))),
                new Expr.And(List.of(new Expr.IsNull(a, true), new Expr.IsNull(b, false))),
                new Expr.Compare(Expr.CompareOp.NE, a, b)));
    }

    /**
     * {@code p IS NULL} for a condition p: neither p nor NOT p is TRUE (both are exact two-valued tests after the NOT
     * push-down); {@code p IS NOT NULL}: one of them is.
     */
    private BatchPredicate conditionIsNull(Expr p, boolean notNull) {
        BatchPredicate isTrue = predicate(p, false);
        BatchPredicate isFalse = predicate(p, true);
        if (notNull) {
            return new BatchPredicate.Junction(false, new BatchPredicate[] {isTrue, isFalse}, booleanSlots++);
        }
        return new BatchPredicate.Junction(
                true,
                new BatchPredicate[] {new BatchPredicate.Negation(isTrue), new BatchPredicate.Negation(isFalse)},
                booleanSlots++);
    }

    private BatchPredicate junction(boolean and, List<Expr> terms, boolean negate) {
        return new BatchPredicate.Junction(
                and, terms.stream().map(t -> predicate(t, negate)).toArray(BatchPredicate[]::new), booleanSlots++);
    }

    /** A leaf that is not TRUE where one of its operands is NULL. */
    private BatchPredicate guarded(Expr e, BatchPredicate leaf) {
        NullMask nulls = nullMask(e);
        return nulls.isEmpty() ? leaf : new BatchPredicate.NullGuard(leaf, nulls, booleanSlots++);
    }

    /** Where the row expression {@code e} is NULL. */
    NullMask nullMask(Expr e) {
        NullMask m = NullMask.of(e, fact, lookup);
        for (int c : m.codeColumns()) {
            if (fact.isCodedIndex(c)) {
                codedReads.add(c);
            }
        }
        return m;
    }

    private BatchPredicate leaf(Expr e, boolean negate) {
        return switch (e) {
            case Expr.Compare c -> compare(negate ? c.op().negated() : c.op(), c.left(), c.right());
            case Expr.In in
            when numericType(in.operand().type()) -> {
                // one sorted-array search per row, not one comparison per listed value
                BatchPredicate any = new BatchPredicate.InList(
                        numeric(in.operand()),
                        in.set(),
                        Expr.isInteger(in.operand().type()),
                        doubleSlots++);
                yield in.negated() != negate ? new BatchPredicate.Negation(any) : any;
            }
            case Expr.In in -> {
                BatchPredicate[] terms = in.values().stream()
                        .map(v -> compare(Expr.CompareOp.EQ, in.operand(), v))
                        .toArray(BatchPredicate[]::new);
                BatchPredicate any =
                        terms.length == 1 ? terms[0] : new BatchPredicate.Junction(false, terms, booleanSlots++);
                yield in.negated() != negate ? new BatchPredicate.Negation(any) : any;
            }
            case Expr.Between b -> {
                BatchPredicate inside = new BatchPredicate.Junction(
                        true,
                        new BatchPredicate[] {
                            compare(Expr.CompareOp.GE, b.operand(), b.low()),
                            compare(Expr.CompareOp.LE, b.operand(), b.high())
                        },
                        booleanSlots++);
                yield b.negated() != negate ? new BatchPredicate.Negation(inside) : inside;
            }
            default ->
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "0A000",
                        "unsupported SQL: " + e.text() + " row by row over measures or several columns",
                        null,
                        null);
        };
    }

    private BatchPredicate compare(Expr.CompareOp op, Expr l, Expr r) {
        // DATEs (days), BOOLEANs (0 and 1) and TIMESTAMPs (microseconds) compare as their 64-bit values
        boolean sameLongs = l.type() == r.type()
                && (l.type() == ColumnType.TIMESTAMP || l.type() == ColumnType.DATE || l.type() == ColumnType.BOOLEAN);
        if (l instanceof Expr.Column lc && r instanceof Expr.Column rc && isFactText(lc) && isFactText(rc)) {
            TextRanks ranks = TextRanks.of(fact.dictionary(lc.index()), fact.dictionary(rc.index()));
            return new BatchPredicate.LongCompare(
                    op,
                    new BatchExpression.ByCode(lc.index(), TextRanks.doubles(ranks.left()), ranks.left()),
                    new BatchExpression.ByCode(rc.index(), TextRanks.doubles(ranks.right()), ranks.right()),
                    doubleSlots++,
                    doubleSlots++);
        }
        if (!sameLongs && (!numericType(l.type()) || !numericType(r.type()))) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "unsupported SQL: a comparison of "
                            + "non-numeric values from several columns: " + l.text() + " " + op + " " + r.text()
                            + " — compare each dimension with literals");
        }
        if (sameLongs || longValued(l.type()) && longValued(r.type())) {
            return new BatchPredicate.LongCompare(op, numeric(l), numeric(r), doubleSlots++, doubleSlots++);
        }
        return new BatchPredicate.Compare(op, numeric(l), numeric(r), doubleSlots++, doubleSlots++);
    }

    /** A text column of the fact table: two of them compare row by row through their ranks ({@link TextRanks}). */
    private static boolean isFactText(Expr.Column c) {
        return c.side() != Expr.Side.LOOKUP && c.type() == ColumnType.STRING;
    }

    private static boolean numericType(ColumnType t) {
        return t == ColumnType.DOUBLE || t == ColumnType.LONG || t == ColumnType.INT;
    }

    /** Types whose values are 64-bit integers: integers, TIMESTAMPs (microseconds), DATEs (days), BOOLEANs (0, 1). */
    private static boolean inLongs(ColumnType t) {
        return longValued(t) || t == ColumnType.DATE || t == ColumnType.BOOLEAN;
    }

    /** Integers, and TIMESTAMPs (microseconds), which compare exactly as 64-bit integers. */
    private static boolean longValued(ColumnType t) {
        return Expr.isInteger(t) || t == ColumnType.TIMESTAMP;
    }

    /**
     * An integer-typed operation computed exactly in 64 bits even where a DOUBLE is wanted ({@code (v - w) / 2},
     * {@code v * 4 > 0.5}): its double value is the exact BIGINT result converted once, and an overflow is an
     * error, as in DuckDB, never a value rounded at each step.
     */
    private BatchExpression exactWhenInteger(Expr e, BatchExpression node) {
        return Expr.isInteger(e.type()) ? new BatchExpression.ExactAsDouble(node, doubleSlots++) : node;
    }

    /** A vectorized numeric expression of fact and lookup columns. */
    BatchExpression numeric(Expr e) {
        if (e instanceof Expr.Call c
                && NullMask.isCoalesceWithConstant(c)
                && sources(c).measures()) {
            Expr first = c.args().get(0);
            return new BatchExpression.Coalesce(
                    numeric(first), nullMask(first), numeric(c.args().getLast()), booleanSlots++, doubleSlots++);
        }
        if (e instanceof Expr.Call || e instanceof Expr.Case) {
            BatchExpression constant = constantCall(e);
            return constant != null ? constant : perCode(e);
        }
        BatchExpression folded = foldedPerCode(e);
        if (folded != null) {
            return folded;
        }
        return switch (e) {
            case Expr.Column c when c.side() == Expr.Side.LOOKUP -> lookupColumn(c);
            case Expr.Column c when c.type() == ColumnType.DOUBLE -> new BatchExpression.DoubleColumn(c.index());
            case Expr.Column c
            when c.type() == ColumnType.LONG || c.type() == ColumnType.TIMESTAMP ->
                new BatchExpression.LongColumn(c.index());
            case Expr.Column c
            when c.type() == ColumnType.INT || c.type() == ColumnType.DATE || c.type() == ColumnType.BOOLEAN -> {
                Dictionary d = fact.dictionary(c.index());
                double[] byCode = new double[Math.max(1, d.size())];
                long[] longs = new long[byCode.length];
                for (int code = 0; code < d.size(); code++) {
                    longs[code] = d.longValue(code);
                    byCode[code] = longs[code];
                }
                yield new BatchExpression.ByCode(c.index(), byCode, longs);
            }
            case Expr.Literal l when l.value() instanceof Long x -> new BatchExpression.Constant((long) x);
            case Expr.Literal l -> new BatchExpression.Constant(l.asDouble());
            case Expr.Neg n -> exactWhenInteger(n, new BatchExpression.Negate(numeric(n.operand())));
            case Expr.Arith a -> {
                BatchExpression left = numeric(a.left());
                BatchExpression right = numeric(a.right());
                yield exactWhenInteger(
                        a,
                        new BatchExpression.Arith(a.op(), left, right, doubleSlots++, BatchExpression.overflowText(a)));
            }
            default ->
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "unsupported SQL: not a numeric row expression: " + e.text());
        };
    }

    /**
     * A function or CASE of one dimension (or of lookup columns): its value per code of that column (the join key
     * for lookup columns), gathered per row like an INT dimension's values; NULL per code is the {@link NullMask}'s
     * business. A plain column's function is computed per value of its query-time codes; a function of several
     * columns is refused.
     */
    private BatchExpression.ByCode perCode(Expr e) {
        int col = perCodeSource(e);
        if (col < 0 || !(inLongs(e.type()) || e.type() == ColumnType.DOUBLE)) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "0A000",
                    "unsupported SQL: " + e.text() + " row by row (a function or CASE is computed per value of one"
                            + " column, not over several columns)",
                    null,
                    null);
        }
        Dictionary d = fact.dictionary(col);
        String key = "values " + col + " " + e;
        ValuesByCode v = LookupIndex.memoOf(e, fact, lookup, key, d.size(), () -> valuesByCode(e, col, d));
        return new BatchExpression.ByCode(col, v.doubles(), v.longs(), v.errors());
    }

    /**
     * A function or CASE of constants only ({@code COALESCE(-3, 0)}), computed once; null where it reads a column or
     * an aggregate, is NULL, or fails (then it is computed as before, so that an error is raised only where DuckDB
     * raises it).
     */
    private static BatchExpression constantCall(Expr e) {
        boolean[] constant = {true};
        Expr.walk(
                e,
                x -> constant[0] &= !(x instanceof Expr.Column
                        || x instanceof Expr.KeyRef
                        || x instanceof Expr.AggRef
                        || x instanceof Expr.Agg));
        if (!constant[0]) {
            return null;
        }
        Object v;
        try {
            v = ScalarEvaluator.eval(e, leaf -> {
                throw new IllegalStateException("not a constant: " + leaf);
            });
        } catch (RuntimeException failed) {
            return null;
        }
        if (e.type() == ColumnType.DOUBLE && v instanceof Number x) {
            return new BatchExpression.Constant(x.doubleValue());
        }
        return longValued(e.type()) && v instanceof Long x ? new BatchExpression.Constant((long) x) : null;
    }

    /** Most codes a per-code table of an arithmetic expression may have ({@link #foldedPerCode}). */
    static final int MAX_FOLDED_CODES = 1 << 16;

    /**
     * {@code e} as one value per code, where it is arithmetic ({@code + - *}, negation) of constants and one
     * dimension column of the fact table of at most {@link #MAX_FOLDED_CODES} values ({@code 1 - l_discount}): one
     * gather per row in place of a pass per operation. Null where it is not such an expression, or where some code's
     * value overflows (a row that reaches that value raises it when computed row by row, as DuckDB does).
     */
    private BatchExpression foldedPerCode(Expr e) {
        if (!(e instanceof Expr.Arith || e instanceof Expr.Neg)
                || !(e.type() == ColumnType.LONG || e.type() == ColumnType.DOUBLE)) {
            return null;
        }
        boolean[] foldable = {true};
        int[] column = {-1};
        Expr.walk(e, x -> {
            switch (x) {
                case Expr.Arith a -> foldable[0] &= a.op() != '/';
                case Expr.Neg n -> {}
                case Expr.Literal l -> {}
                case Expr.Column c -> {
                    foldable[0] &= c.side() != Expr.Side.LOOKUP
                            && c.type().isDimension()
                            && (column[0] < 0 || column[0] == c.index());
                    column[0] = c.index();
                }
                default -> foldable[0] = false;
            }
        });
        if (!foldable[0] || column[0] < 0 || fact.dictionary(column[0]).size() > MAX_FOLDED_CODES) {
            return null;
        }
        BatchExpression.ByCode folded = perCode(e);
        return folded.errorOfCode == null ? folded : null;
    }

    /** A LOOKUP column's value per code of its fact column, 0 for NULL. */
    private ValuesByCode lookupValues(Expr.Column c) {
        double[] byCode = new double[lookup.codes(c.index())];
        long[] longs = inLongs(c.type()) ? new long[byCode.length] : null;
        lookup.numericValues(c.index(), byCode, longs);
        return new ValuesByCode(byCode, longs);
    }

    /** A LOOKUP column's values: by its joined row where {@link LookupIndex#byRow}, else per code of its fact column. */
    private BatchExpression lookupColumn(Expr.Column c) {
        if (lookup.byRow(c.index())) {
            ValuesByCode v = lookup.memo(
                    "values by row of lookup column " + c, lookup.rowsOfTable(c.index()), () -> lookupValuesByRow(c));
            return new BatchExpression.ByRow(
                    lookup.factColumnOf(c.index()), lookup.rowsOf(lookup.joinOf(c.index())), v.doubles(), v.longs());
        }
        ValuesByCode v = lookup.memo("values of lookup column " + c, lookup.codes(c.index()), () -> lookupValues(c));
        return new BatchExpression.ByCode(lookup.factColumnOf(c.index()), v.doubles(), v.longs());
    }

    /** A LOOKUP column's value per joined row, entry {@code row + 1}; entry 0 (no row) and NULL 0. */
    private ValuesByCode lookupValuesByRow(Expr.Column c) {
        double[] byRow = new double[lookup.rowsOfTable(c.index()) + 1];
        long[] longs = inLongs(c.type()) ? new long[byRow.length] : null;
        lookup.numericByRow(c.index(), byRow, longs);
        return new ValuesByCode(byRow, longs);
    }

    /**
     * An expression's value per code, as a double and, for an integer expression, as a long (0 for NULL and for a code
     * whose value failed), and the errors by code ({@link CodeErrors}; null where none failed).
     */
    private record ValuesByCode(double[] doubles, long[] longs, NumacubeException[] errors) {
        ValuesByCode(double[] doubles, long[] longs) {
            this(doubles, longs, null);
        }
    }

    private ValuesByCode valuesByCode(Expr e, int col, Dictionary d) {
        int codes = Math.max(1, d.size());
        double[] byCode = new double[codes];
        long[] longs = inLongs(e.type()) ? new long[codes] : null;
        java.util.function.IntFunction<Object> value = valuePerCode(e, col, d.size());
        CodeErrors errors = new CodeErrors();
        for (int code = 0; code < Math.min(codes, d.size()); code++) {
            Object v = errors.evaluate(code, value);
            boolean number = v instanceof Number;
            byCode[code] = number ? ((Number) v).doubleValue() : 0;
            if (longs != null) {
                longs[code] = number ? ((Number) v).longValue() : 0;
            }
        }
        return new ValuesByCode(byCode, longs, errors.table(codes));
    }
}
