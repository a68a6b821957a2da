package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Turns a {@link LogicalQuery} over loaded tables into a {@link CompiledQuery}:
 * <ul>
 *   <li>WHERE is split into conjuncts; a conjunct that reads one dimension (or only lookup columns, which depend on
 *       the join key alone) becomes a code mask evaluated once per dictionary code; the rest becomes a vectorized
 *       {@link RowPred}. The inner join adds a mask of the join-key codes that exist in the lookup table.</li>
 *   <li>Aggregates whose argument is {@code F * L} or {@code F / L} or {@code L} (F over fact columns, L over lookup
 *       columns) are planned like an ActivePivot post-processor: aggregate F by (group keys, join key), then apply
 *       L per join-key code and roll up. Other lookup references are gathered per row by join-key code.</li>
 *   <li>Group keys are mixed-radix codes; small spaces use dense arrays, large ones a hash table.</li>
 * </ul>
 * Stateless; thread-safe.
 */
final class QueryCompiler {

    /** Most groups kept in dense arrays per worker. */
    static final long DENSE_LIMIT = 1L << 22;
    /** Group spaces this small are always dense. */
    static final long SMALL_SPACE = 1L << 14;
    /** Budget for all workers' dense arrays together. */
    static final long DENSE_BYTES = 512L << 20;

    private final LogicalQuery q;
    private final FactTable fact;
    private final FactTable lookup;
    private int doubleSlots;
    private int booleanSlots;
    private int[] lookupRowOfCode;
    private Object[][] lookupValues;

    private QueryCompiler(LogicalQuery q, FactTable fact, FactTable lookup) {
        this.q = q;
        this.fact = fact;
        this.lookup = lookup;
    }

    static CompiledQuery compile(LogicalQuery q, FactTable fact, FactTable lookup, int workers) {
        return new QueryCompiler(q, fact, lookup).build(workers);
    }

    private CompiledQuery build(int workers) {
        int ncol = fact.schema().size();
        if (lookup != null) {
            readLookup();
        }
        Map<Integer, boolean[]> masks = new LinkedHashMap<>();
        List<RowPred> generic = new ArrayList<>();
        boolean empty = false;
        if (q.where() != null) {
            List<Expr> conjuncts = new ArrayList<>();
            flattenAnd(q.where(), conjuncts);
            for (Expr c : conjuncts) {
                Sources s = sources(c);
                if (!s.measures && s.dims.isEmpty()) {
                    Object v = ScalarEval.eval(c, e -> null);
                    empty |= !Boolean.TRUE.equals(v);
                } else if (!s.measures && s.dims.size() == 1) {
                    int col = s.dims.first();
                    and(masks, col, mask(c, col));
                } else {
                    generic.add(pred(c));
                }
            }
        }
        if (lookup != null) {
            boolean[] exists = new boolean[lookupRowOfCode.length];
            for (int c = 0; c < exists.length; c++) {
                exists[c] = lookupRowOfCode[c] >= 0;
            }
            and(masks, q.factJoinColumn(), exists);
        }
        RowPred genericPred = generic.isEmpty()
                ? null
                : generic.size() == 1
                        ? generic.get(0)
                        : new RowPred.Junction(true, generic.toArray(RowPred[]::new), booleanSlots++);

        List<CompiledQuery.Acc> accs = new ArrayList<>();
        List<CompiledQuery.AggPlan> aggs = new ArrayList<>();
        boolean anyPost = false;
        for (Expr.Agg a : q.aggregates()) {
            CompiledQuery.AggPlan plan = planAggregate(a, accs);
            anyPost |= plan.mode() == CompiledQuery.Mode.POST;
            aggs.add(plan);
        }

        List<Integer> keys = new ArrayList<>();
        for (Expr.Column k : q.groupKeys()) {
            keys.add(k.index());
        }
        int logicalKeys = keys.size();
        if (anyPost && !keys.contains(q.factJoinColumn())) {
            keys.add(q.factJoinColumn());
        }
        int[] keyColumns = keys.stream().mapToInt(Integer::intValue).toArray();
        int[] cards = new int[keyColumns.length];
        long[] strides = new long[keyColumns.length];
        long space = 1;
        long logicalSpace = 1;
        try {
            for (int i = 0; i < keyColumns.length; i++) {
                cards[i] = Math.max(1, fact.dictionary(keyColumns[i]).size());
                strides[i] = space;
                space = Math.multiplyExact(space, cards[i]);
                if (i < logicalKeys) {
                    logicalSpace = space;
                }
                if (space > (1L << 62)) {
                    throw new ArithmeticException();
                }
            }
        } catch (ArithmeticException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "too many group-key combinations for 64-bit keys: keys="
                            + q.groupKeys().stream().map(Expr::text).toList()
                            + " — group by fewer or smaller dimensions");
        }
        boolean dense = space <= SMALL_SPACE
                || (space <= DENSE_LIMIT
                        && space <= 2 * fact.rowCount()
                        && space * 8 * (1 + accs.size()) * Math.max(1, workers) <= DENSE_BYTES);

        TreeSet<Integer> read = new TreeSet<>(masks.keySet());
        read.addAll(keys);
        collectColumns(q.where(), read);
        for (Expr.Agg a : q.aggregates()) {
            collectColumns(a.arg(), read);
        }
        int[] bytesPerValue = new int[ncol];
        long bytesPerRow = 0;
        Partition any = fact.partitions().isEmpty() ? null : fact.partitions().get(0);
        for (int c = 0; c < ncol; c++) {
            ColumnSpec spec = fact.schema().column(c);
            bytesPerValue[c] = spec.isDimension() ? fact.dictionary(c).width().bytes() : 8;
            if (read.contains(c)) {
                bytesPerRow += bytesPerValue[c];
            }
        }
        if (any != null) {
            for (int c = 0; c < ncol; c++) {
                if (fact.schema().column(c).isDimension() && any.width(c).bytes() != bytesPerValue[c]) {
                    throw new NumacubeException(
                            NumacubeException.Kind.INTERNAL,
                            "partition code width differs from " + "its dictionary: column="
                                    + fact.schema().column(c).name());
                }
            }
        }
        int[] maskColumns = masks.keySet().stream().mapToInt(Integer::intValue).toArray();
        boolean[][] maskArrays = masks.values().toArray(boolean[][]::new);
        int[][] prefix = new int[maskArrays.length][];
        for (int i = 0; i < maskArrays.length; i++) {
            prefix[i] = new int[maskArrays[i].length + 1];
            for (int c = 0; c < maskArrays[i].length; c++) {
                prefix[i][c + 1] = prefix[i][c] + (maskArrays[i][c] ? 1 : 0);
            }
        }
        String desc = q.describe() + " | masks on "
                + masks.keySet().stream()
                        .map(c -> fact.schema().column(c).name())
                        .toList() + (genericPred == null ? "" : " + row predicate") + " | keys "
                + keys.stream().map(c -> fact.schema().column(c).name()).toList() + (dense ? " dense " : " hashed ")
                + space + " groups"
                + (anyPost
                        ? " | post-processed by "
                                + fact.schema().column(q.factJoinColumn()).name()
                        : "");
        return new CompiledQuery(
                q,
                fact,
                maskColumns,
                maskArrays,
                prefix,
                empty,
                genericPred,
                keyColumns,
                strides,
                cards,
                logicalKeys,
                logicalSpace,
                space,
                dense,
                accs.toArray(CompiledQuery.Acc[]::new),
                aggs.toArray(CompiledQuery.AggPlan[]::new),
                read.stream().mapToInt(Integer::intValue).toArray(),
                bytesPerValue,
                bytesPerRow,
                doubleSlots,
                booleanSlots,
                desc);
    }

    private static void and(Map<Integer, boolean[]> masks, int col, boolean[] m) {
        boolean[] prev = masks.get(col);
        if (prev != null) {
            for (int c = 0; c < m.length; c++) {
                m[c] &= prev[c];
            }
        }
        masks.put(col, m);
    }

    private static void flattenAnd(Expr e, List<Expr> out) {
        if (e instanceof Expr.And a) {
            a.terms().forEach(t -> flattenAnd(t, out));
        } else {
            out.add(e);
        }
    }

    private static void collectColumns(Expr e, TreeSet<Integer> out) {
        if (e == null) {
            return;
        }
        Expr.walk(e, x -> {
            if (x instanceof Expr.Column c && c.side() == Expr.Side.FACT) {
                out.add(c.index());
            }
        });
    }

    /** Fact dimension columns an expression depends on (lookup columns count as the join key) and whether it reads
     * measures. */
    private record Sources(TreeSet<Integer> dims, boolean measures) {}

    private Sources sources(Expr e) {
        TreeSet<Integer> dims = new TreeSet<>();
        boolean[] measures = {false};
        Expr.walk(e, x -> {
            if (x instanceof Expr.Column c) {
                if (c.side() == Expr.Side.LOOKUP) {
                    dims.add(q.factJoinColumn());
                } else if (c.type().isDimension()) {
                    dims.add(c.index());
                } else {
                    measures[0] = true;
                }
            }
        });
        return new Sources(dims, measures[0]);
    }

    /** Evaluates {@code e} for every code of {@code col}. */
    private boolean[] mask(Expr e, int col) {
        Dictionary d = fact.dictionary(col);
        boolean[] m = new boolean[Math.max(d.size(), 1)];
        for (int code = 0; code < d.size(); code++) {
            int c = code;
            Object v = ScalarEval.eval(e, x -> leafAt((Expr.Column) x, col, c));
            m[code] = Boolean.TRUE.equals(v);
        }
        return m;
    }

    private Object leafAt(Expr.Column x, int col, int code) {
        if (x.side() == Expr.Side.LOOKUP) {
            int row = lookupRowOfCode[code];
            return row < 0 ? null : lookupValues[x.index()][row];
        }
        if (x.index() != col) {
            throw new NumacubeException(
                    NumacubeException.Kind.INTERNAL, "mask over another column: column=" + x.name());
        }
        return scalar(fact.dictionary(col), code);
    }

    static Object scalar(Dictionary d, int code) {
        return d.type() == ColumnType.STRING ? d.string(code) : (Object) d.longValue(code);
    }

    private RowPred pred(Expr e) {
        Sources s = sources(e);
        if (!s.measures && s.dims.isEmpty()) {
            return new RowPred.Constant(Boolean.TRUE.equals(ScalarEval.eval(e, x -> null)));
        }
        if (!s.measures && s.dims.size() == 1) {
            int col = s.dims.first();
            return new RowPred.Mask(col, mask(e, col));
        }
        return switch (e) {
            case Expr.And a ->
                new RowPred.Junction(true, a.terms().stream().map(this::pred).toArray(RowPred[]::new), booleanSlots++);
            case Expr.Or o ->
                new RowPred.Junction(false, o.terms().stream().map(this::pred).toArray(RowPred[]::new), booleanSlots++);
            case Expr.Not n -> new RowPred.Negation(pred(n.operand()));
            case Expr.Compare c -> compare(c.op(), c.left(), c.right());
            case Expr.In in
            when numericType(in.operand().type()) -> {
                // one sorted-array search per row, not one comparison per listed value
                RowPred any = new RowPred.InList(
                        num(in.operand()), in.set(), Expr.isInteger(in.operand().type()), doubleSlots++);
                yield in.negated() ? new RowPred.Negation(any) : any;
            }
            case Expr.In in -> {
                RowPred[] terms = in.values().stream()
                        .map(v -> compare(Expr.CompareOp.EQ, in.operand(), v))
                        .toArray(RowPred[]::new);
                RowPred any = terms.length == 1 ? terms[0] : new RowPred.Junction(false, terms, booleanSlots++);
                yield in.negated() ? new RowPred.Negation(any) : any;
            }
            case Expr.Between b -> {
                RowPred inside = new RowPred.Junction(
                        true,
                        new RowPred[] {
                            compare(Expr.CompareOp.GE, b.operand(), b.low()),
                            compare(Expr.CompareOp.LE, b.operand(), b.high())
                        },
                        booleanSlots++);
                yield b.negated() ? new RowPred.Negation(inside) : inside;
            }
            default -> throw new NumacubeException(NumacubeException.Kind.INTERNAL, "not a predicate: " + e.text());
        };
    }

    private RowPred compare(Expr.CompareOp op, Expr l, Expr r) {
        if (!numericType(l.type()) || !numericType(r.type())) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "unsupported SQL: a comparison of "
                            + "non-numeric values from several columns: " + l.text() + " " + op + " " + r.text()
                            + " — compare each dimension with literals");
        }
        if (Expr.isInteger(l.type()) && Expr.isInteger(r.type())) {
            return new RowPred.LongCompare(op, num(l), num(r), doubleSlots++, doubleSlots++);
        }
        return new RowPred.Compare(op, num(l), num(r), doubleSlots++, doubleSlots++);
    }

    private static boolean numericType(ColumnType t) {
        return t == ColumnType.DOUBLE || t == ColumnType.LONG || t == ColumnType.INT;
    }

    /** A vectorized numeric expression of fact and lookup columns. */
    private NumVec num(Expr e) {
        return switch (e) {
            case Expr.Column c
            when c.side() == Expr.Side.LOOKUP -> {
                double[] byCode = new double[lookupRowOfCode.length];
                long[] longs = Expr.isInteger(c.type()) ? new long[byCode.length] : null;
                for (int code = 0; code < byCode.length; code++) {
                    int row = lookupRowOfCode[code];
                    byCode[code] = row < 0 ? 0 : ((Number) lookupValues[c.index()][row]).doubleValue();
                    if (longs != null) {
                        longs[code] = row < 0 ? 0 : ((Number) lookupValues[c.index()][row]).longValue();
                    }
                }
                yield new NumVec.ByCode(q.factJoinColumn(), byCode, longs);
            }
            case Expr.Column c when c.type() == ColumnType.DOUBLE -> new NumVec.DoubleColumn(c.index());
            case Expr.Column c when c.type() == ColumnType.LONG -> new NumVec.LongColumn(c.index());
            case Expr.Column c
            when c.type() == ColumnType.INT -> {
                Dictionary d = fact.dictionary(c.index());
                double[] byCode = new double[Math.max(1, d.size())];
                long[] longs = new long[byCode.length];
                for (int code = 0; code < d.size(); code++) {
                    longs[code] = d.longValue(code);
                    byCode[code] = longs[code];
                }
                yield new NumVec.ByCode(c.index(), byCode, longs);
            }
            case Expr.Literal l when l.value() instanceof Long x -> new NumVec.Constant((long) x);
            case Expr.Literal l -> new NumVec.Constant(l.asDouble());
            case Expr.Neg n -> new NumVec.Negate(num(n.operand()));
            case Expr.Arith a -> {
                NumVec left = num(a.left());
                NumVec right = num(a.right());
                yield new NumVec.Arith(a.op(), left, right, doubleSlots++, a.text());
            }
            default ->
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "unsupported SQL: not a numeric row expression: " + e.text());
        };
    }

    private CompiledQuery.AggPlan planAggregate(Expr.Agg a, List<CompiledQuery.Acc> accs) {
        Expr.AggKind kind = a.kind();
        boolean longResult = a.type() == ColumnType.LONG;
        if (kind == Expr.AggKind.COUNT_STAR || kind == Expr.AggKind.COUNT) {
            return new CompiledQuery.AggPlan(kind, CompiledQuery.Mode.COUNT, -1, -1, -1, null, true);
        }
        Expr arg = a.arg();
        if (lookup != null && arg.type() != ColumnType.LONG) {
            Expr[] split = splitFactorByLookup(arg);
            if (split != null) {
                double[] factor = new double[lookupRowOfCode.length];
                for (int code = 0; code < factor.length; code++) {
                    int row = lookupRowOfCode[code];
                    Object v = row < 0
                            ? null
                            : ScalarEval.eval(split[1], x -> lookupValues[((Expr.Column) x).index()][row]);
                    factor[code] = v == null ? 0 : ((Number) v).doubleValue();
                }
                Expr f = split[0];
                int sum = -1;
                int min = -1;
                int max = -1;
                if (kind == Expr.AggKind.SUM || kind == Expr.AggKind.AVG) {
                    sum = acc(accs, CompiledQuery.AccKind.SUM_D, f);
                } else {
                    min = acc(accs, CompiledQuery.AccKind.MIN_D, f);
                    max = acc(accs, CompiledQuery.AccKind.MAX_D, f);
                }
                return new CompiledQuery.AggPlan(kind, CompiledQuery.Mode.POST, sum, min, max, factor, longResult);
            }
        }
        // an integer argument (a BIGINT column or integer arithmetic) is accumulated exactly in 64 bits
        boolean bareLong = Expr.isInteger(arg.type())
                && !(arg instanceof Expr.Column c0 && c0.type().isDimension() && c0.type() != ColumnType.INT);
        boolean bareCodes = arg instanceof Expr.Column c
                && c.side() == Expr.Side.FACT
                && c.type().isDimension();
        return switch (kind) {
            case SUM, AVG ->
                new CompiledQuery.AggPlan(
                        kind,
                        CompiledQuery.Mode.DIRECT,
                        acc(accs, bareLong ? CompiledQuery.AccKind.SUM_L : CompiledQuery.AccKind.SUM_D, arg),
                        -1,
                        -1,
                        null,
                        longResult);
            case MIN ->
                new CompiledQuery.AggPlan(
                        kind,
                        CompiledQuery.Mode.DIRECT,
                        -1,
                        acc(
                                accs,
                                bareLong || bareCodes ? CompiledQuery.AccKind.MIN_L : CompiledQuery.AccKind.MIN_D,
                                arg),
                        -1,
                        null,
                        longResult);
            case MAX ->
                new CompiledQuery.AggPlan(
                        kind,
                        CompiledQuery.Mode.DIRECT,
                        -1,
                        -1,
                        acc(
                                accs,
                                bareLong || bareCodes ? CompiledQuery.AccKind.MAX_L : CompiledQuery.AccKind.MAX_D,
                                arg),
                        null,
                        longResult);
            default -> throw new NumacubeException(NumacubeException.Kind.INTERNAL, "aggregate kind: " + kind);
        };
    }

    private final Map<String, Integer> accIndex = new HashMap<>();

    /** The accumulator of {@code kind} over {@code arg} (null = the constant 1), shared when already planned. */
    private int acc(List<CompiledQuery.Acc> accs, CompiledQuery.AccKind kind, Expr arg) {
        String key = kind + ":" + (arg == null ? "1" : arg.toString());
        Integer i = accIndex.get(key);
        if (i != null) {
            return i;
        }
        CompiledQuery.Acc acc;
        if (arg instanceof Expr.Column c
                && c.side() == Expr.Side.FACT
                && (c.type() == ColumnType.DOUBLE || c.type() == ColumnType.LONG)
                && (c.type() == ColumnType.LONG)
                        == (kind == CompiledQuery.AccKind.SUM_L
                                || kind == CompiledQuery.AccKind.MIN_L
                                || kind == CompiledQuery.AccKind.MAX_L)) {
            acc = new CompiledQuery.Acc(kind, c.index(), null, false);
        } else if (arg instanceof Expr.Column c
                && c.side() == Expr.Side.FACT
                && c.type().isDimension()
                && (kind == CompiledQuery.AccKind.MIN_L || kind == CompiledQuery.AccKind.MAX_L)) {
            acc = new CompiledQuery.Acc(kind, c.index(), null, true);
        } else {
            acc = new CompiledQuery.Acc(
                    kind, -1, arg == null ? new NumVec.Constant(1.0) : num(arg), false, arg == null ? "1" : arg.text());
        }
        accs.add(acc);
        accIndex.put(key, accs.size() - 1);
        return accs.size() - 1;
    }

    /**
     * {@code {F, L}} when {@code arg} is {@code F * L}, {@code L * F}, {@code F / L} (then L is {@code 1 / L}) or
     * {@code L} alone (then F is null: the constant 1), F reading no lookup column and L reading only lookup columns;
     * else null.
     */
    private static Expr[] splitFactorByLookup(Expr arg) {
        if (lookupOnly(arg)) {
            return new Expr[] {null, arg};
        }
        if (arg instanceof Expr.Arith a) {
            if (a.op() == '*' && factOnly(a.left()) && lookupOnly(a.right())) {
                return new Expr[] {a.left(), a.right()};
            }
            if (a.op() == '*' && lookupOnly(a.left()) && factOnly(a.right())) {
                return new Expr[] {a.right(), a.left()};
            }
            if (a.op() == '/' && factOnly(a.left()) && lookupOnly(a.right())) {
                return new Expr[] {a.left(), new Expr.Arith('/', new Expr.Literal(1.0, ColumnType.DOUBLE), a.right())};
            }
        }
        return null;
    }

    private static boolean factOnly(Expr e) {
        boolean[] lookup = {false};
        Expr.walk(e, x -> lookup[0] |= x instanceof Expr.Column c && c.side() == Expr.Side.LOOKUP);
        return !lookup[0];
    }

    private static boolean lookupOnly(Expr e) {
        boolean[] seen = {false, false};
        Expr.walk(e, x -> {
            if (x instanceof Expr.Column c) {
                seen[c.side() == Expr.Side.LOOKUP ? 0 : 1] = true;
            }
        });
        return seen[0] && !seen[1];
    }

    /** Reads the (small) lookup table onto the heap and maps every fact join-key code to its lookup row. */
    private void readLookup() {
        long rows = lookup.rowCount();
        if (rows > 10_000_000) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a joined table must be a small lookup" + " table: table="
                            + lookup.schema().name() + " rows=" + rows + " limit=10000000");
        }
        int ncol = lookup.schema().size();
        lookupValues = new Object[ncol][(int) rows];
        int r = 0;
        for (Partition p : lookup.partitions()) {
            for (int i = 0; i < p.rows(); i++, r++) {
                for (int c = 0; c < ncol; c++) {
                    ColumnSpec spec = lookup.schema().column(c);
                    lookupValues[c][r] = spec.isDimension()
                            ? scalar(lookup.dictionary(c), p.code(c, i))
                            : spec.type() == ColumnType.DOUBLE
                                    ? (Object) p.doubleValue(c, i)
                                    : (Object) p.longValue(c, i);
                }
            }
        }
        Map<Object, Integer> rowOfKey = new HashMap<>();
        for (int i = 0; i < rows; i++) {
            Object key = lookupValues[q.lookupJoinColumn()][i];
            if (rowOfKey.put(key, i) != null) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "a lookup table's join key must be "
                                + "unique: table=" + lookup.schema().name() + " column="
                                + lookup.schema().column(q.lookupJoinColumn()).name() + " value=" + key
                                + " — remove the duplicate rows");
            }
        }
        Dictionary d = fact.dictionary(q.factJoinColumn());
        lookupRowOfCode = new int[Math.max(1, d.size())];
        java.util.Arrays.fill(lookupRowOfCode, -1);
        for (int code = 0; code < d.size(); code++) {
            lookupRowOfCode[code] = rowOfKey.getOrDefault(scalar(d, code), -1);
        }
    }
}
