package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.storage.CodedColumns;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Turns a {@link LogicalQuery} over loaded tables into a {@link PhysicalPlan}, one named part at a time:
 * <ul>
 *   <li>WHERE is split into conjuncts; a conjunct that reads one dimension (or only lookup columns, which depend on
 *       the join key alone) becomes a code mask evaluated once per dictionary code; the rest becomes a vectorized
 *       {@link BatchPredicate}. The inner join adds a mask of the join-key codes that exist in the lookup table.</li>
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

    private final LogicalQuery query;
    private final FactTable fact;
    private final LookupIndex lookupIndex;
    /** The fact column whose codes the post-processed aggregates are kept by (their factors' column), or -1. */
    private int postColumn = -1;
    /** The arguments of the COUNT(DISTINCT ...) aggregates, appended as group keys and counted in the roll-up. */
    private final List<Expr> distinctArgs = new ArrayList<>();

    private final BatchCompiler kernels;
    /** The query's workers, which compact a key of many codes by ranges ({@link #compactKey}). */
    private final WorkerPool pool;

    private QueryCompiler(LogicalQuery q, FactTable fact, List<FactTable> dimensions, WorkerPool pool) {
        this.query = q;
        this.pool = pool;
        this.fact = fact;
        this.lookupIndex = q.joins().isEmpty() ? null : LookupIndex.read(q, fact, dimensions, pool);
        this.kernels = new BatchCompiler(fact, lookupIndex, pool);
    }

    /** The plan of {@code q}, for {@code pool}'s workers (which also fill its joins' per-code tables of many codes). */
    static PhysicalPlan compile(LogicalQuery q, FactTable fact, List<FactTable> dimensions, WorkerPool pool) {
        return new QueryCompiler(q, fact, dimensions, pool).build(pool.workerCount());
    }

    private PhysicalPlan build(int workers) {
        RowFilter filter = planFilter();
        List<Accumulator> accumulators = new ArrayList<>();
        List<FinalAggregate> aggregates = new ArrayList<>();
        for (Expr.Agg a : query.aggregates()) {
            aggregates.add(planAggregate(a, accumulators));
        }
        boolean postProcessed = aggregates.stream().anyMatch(a -> a.finish() == FinalAggregate.Finish.SCALED_BY_LOOKUP);
        GroupKeySpace keys = planKeys(filter, postProcessed, accumulators.size(), workers);
        ScanColumns scan = planScan(filter, keys);
        return new PhysicalPlan(
                query,
                fact,
                filter,
                keys,
                accumulators.toArray(Accumulator[]::new),
                aggregates.toArray(FinalAggregate[]::new),
                scan,
                kernels.layout(),
                describe(filter, keys, postProcessed),
                postColumn);
    }

    /**
     * WHERE split into conjuncts: constant ones decide {@code nothingPasses}, one-dimension ones become code masks
     * (ANDed per column), the rest the residual predicate; the inner join adds the mask of join-key codes that exist
     * in the lookup table.
     */
    private RowFilter planFilter() {
        WhereSplit where = WhereSplit.of(query.where(), kernels, lookupIndex);
        List<BatchPredicate> residual =
                where.residual().stream().map(kernels::predicate).toList();
        BatchPredicate residualPredicate = residual.isEmpty()
                ? null
                : residual.size() == 1
                        ? residual.get(0)
                        : new BatchPredicate.Junction(
                                true, residual.toArray(BatchPredicate[]::new), kernels.booleanSlot());
        RowFilter.CodeMask[] codeMasks = where.masks().entrySet().stream()
                .map(e -> RowFilter.CodeMask.of(e.getKey(), e.getValue()))
                .toArray(RowFilter.CodeMask[]::new);
        return new RowFilter(codeMasks, residualPredicate, where.nothingPasses());
    }

    /**
     * The GROUP BY columns, plus the join key when an aggregate is post-processed by it, as a mixed-radix space; dense
     * when small enough for every worker's arrays ({@link #DENSE_BYTES}).
     */
    private GroupKeySpace planKeys(RowFilter filter, boolean postProcessed, int accumulators, int workers) {
        KeyParts keys = new KeyParts();
        boolean plainJoinKey = false;
        for (Expr k : query.groupKeys()) {
            if (k instanceof Expr.Column c && c.side() == Expr.Side.FACT) {
                int source = codesOf(c);
                Compacted compact = source == postColumn ? null : compactKey(filter, source);
                if (compact != null && compact.sourceCodes() != null) {
                    keys.compacted(source, compact.key(), compact.sourceCodes(), compact.passes());
                } else if (compact != null) {
                    keys.derived(source, compact.key());
                } else {
                    keys.plain(source, fact.dictionary(source));
                }
                plainJoinKey |= source == postColumn;
            } else {
                addDerived(keys, k, sourceColumns(k));
            }
        }
        int logicalKeys = keys.size();
        if (postProcessed && !plainJoinKey) {
            keys.plain(postColumn, fact.dictionary(postColumn));
        }
        int distinctFrom = keys.size();
        for (Expr d : distinctArgs) {
            if (d instanceof Expr.Column c && c.side() == Expr.Side.FACT) {
                int source = codesOf(c);
                keys.plain(source, fact.dictionary(source));
            } else {
                addDerived(keys, d, new int[] {distinctSource(d, "COUNT(DISTINCT ")});
            }
        }
        return keySpace(keys, filter, logicalKeys, distinctFrom, accumulators, workers);
    }

    /** Keys of more codes than this are numbered anew over the codes that pass the WHERE clause's mask. */
    static final int COMPACT_FROM_CODES = 1 << 16;

    /**
     * A plain key of many codes ({@code GROUP BY l_orderkey}) whose column a code mask filters to a few of them (a
     * quarter at most): the passing codes numbered anew, in order, so that the key space, and every worker's dense
     * arrays, hold the groups that can occur, not every code; null when there is no such mask.
     */
    private static Compacted compactKey(RowFilter filter, int source, Dictionary d, WorkerPool pool) {
        if (d.size() < COMPACT_FROM_CODES) {
            return null;
        }
        for (RowFilter.CodeMask m : filter.masks()) {
            if (m.column() == source && (long) m.passing() * 4 <= d.size()) {
                int[] map = new int[Math.max(1, d.size())];
                if (countedSubset(d, m)) {
                    int[] kept = KeyDependencies.keptCodesEnabled() ? new int[m.passing() + 1] : null;
                    Dictionary subset = subsetOfKept(d, m, map, kept, pool);
                    return new Compacted(new DerivedKey(subset, map, Map.of()), kept, m.passes());
                }
                int[] newCode = new int[d.size()];
                Dictionary passing = d.subset(m.passes(), newCode);
                for (int code = 0; code < d.size(); code++) {
                    map[code] = Math.max(0, newCode[code]);
                }
                return new Compacted(new DerivedKey(passing, map, Map.of()), null, m.passes());
            }
        }
        return null;
    }

    /**
     * A key compacted to the codes {@code passes} lets through, and, where known (else null), the source code of each
     * of its codes.
     */
    private record Compacted(DerivedKey key, int[] sourceCodes, boolean[] passes) {}

    /**
     * The system property that, {@code false}, compacts a key by {@link Dictionary#subset} (an A/B of one process);
     * else by {@link Dictionary#subsetOfKept} where it may.
     */
    static final String COUNTED_SUBSET_PROPERTY = "numacube.countedSubset";

    private static boolean countedSubset(Dictionary d, RowFilter.CodeMask m) {
        return (d.nullCode() < 0 || d.nullCode() == d.size() - 1)
                && m.passes().length == d.size()
                && !"false".equals(System.getProperty(COUNTED_SUBSET_PROPERTY));
    }

    private Compacted compactKey(RowFilter filter, int source) {
        return compactKey(filter, source, fact.dictionary(source), pool);
    }

    /** The system property that, {@code false}, compacts a key on the calling thread (for an A/B of one process). */
    static final String PARALLEL_COMPACT_PROPERTY = "numacube.parallelCompact";

    /**
     * {@link Dictionary#subsetOfKept} of the codes {@code m} passes: by ranges of codes on the workers where there are
     * {@link LookupIndex#PARALLEL_CODES} or more and several workers, else on this thread.
     */
    private static Dictionary subsetOfKept(Dictionary d, RowFilter.CodeMask m, int[] map, int[] kept, WorkerPool pool) {
        if (pool == null
                || pool.workerCount() < 2
                || d.size() < LookupIndex.PARALLEL_CODES
                || "false".equals(System.getProperty(PARALLEL_COMPACT_PROPERTY))) {
            return d.subsetOfKept(m.passes(), m.passing(), map, kept);
        }
        int chunks = Math.min(64, 2 * pool.workerCount());
        return d.subsetOfKept(
                m.passes(),
                m.passing(),
                map,
                kept,
                chunks,
                tasks -> WorkerChunks.each(pool, java.util.Arrays.asList(tasks), t -> {
                    t.run();
                    return null;
                }));
    }

    /**
     * The column whose codes stand for fact column {@code c}: itself when coded, else its query-time dictionary's
     * codes ({@link FactTable#codedIndex}, built on first use).
     */
    private int codesOf(Expr.Column c) {
        return c.type().isDimension() ? c.index() : fact.codedIndex(c.index());
    }

    /** The fact column whose codes a column of a key or DISTINCT argument is read through. */
    private int sourceOf(Expr.Column c) {
        return c.side() == Expr.Side.LOOKUP ? lookupIndex.factColumnOf(c.index()) : codesOf(c);
    }

    /** A key computed from fact columns: through one column's codes, or through the combination of several. */
    private void addDerived(KeyParts keys, Expr k, int[] sources) {
        if (sources.length == 1) {
            keys.derived(sources[0], derivedKey(k, sources[0]));
            return;
        }
        int[] strides = new int[sources.length];
        long combinations = 1;
        for (int j = 0; j < sources.length; j++) {
            strides[j] = (int) combinations;
            combinations *= Math.max(1, fact.dictionary(sources[j]).size());
            if (combinations > MAX_COMBINATIONS) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "0A000",
                        "unsupported SQL: GROUP BY " + k.text() + ": its columns have more than " + MAX_COMBINATIONS
                                + " combinations of values",
                        null,
                        null);
            }
        }
        keys.combined(sources, strides, combinedKey(k, sources, strides, (int) combinations));
    }

    /** Most combinations of codes a key of several columns is evaluated for. */
    static final int MAX_COMBINATIONS = 1 << 22;

    private GroupKeySpace keySpace(
            KeyParts keys, RowFilter filter, int logicalKeys, int distinctFrom, int accumulators, int workers) {
        List<Dictionary> dicts = keys.dictionaries;
        int[] columns = keys.columnArray();
        boolean[][] live = new boolean[columns.length][];
        for (RowFilter.CodeMask m : filter.masks()) {
            for (int i = 0; i < columns.length; i++) {
                if (columns[i] == m.column()) {
                    live[i] = m.passes();
                }
            }
        }
        int[] cards = new int[columns.length];
        long[] strides = new long[columns.length];
        int[] sameAs = new int[columns.length];
        int[][] via = new int[columns.length][];
        KeyDependencies.find(columns, keys, live, logicalKeys, sameAs, via);
        long[] spaces = radix(dicts, logicalKeys, distinctFrom, cards, strides, sameAs);
        long space = spaces[0];
        long logicalSpace = spaces[1];
        boolean dense = space <= SMALL_SPACE
                || (space <= DENSE_LIMIT
                        && space <= 2 * fact.rowCount()
                        && space * 8 * (1 + accumulators) * Math.max(1, workers) <= DENSE_BYTES);
        return new GroupKeySpace(
                columns,
                strides,
                cards,
                logicalKeys,
                logicalSpace,
                space,
                dense,
                keys.maps.toArray(int[][]::new),
                dicts.toArray(Dictionary[]::new),
                keys.sources.toArray(int[][]::new),
                keys.sourceStrides.toArray(int[][]::new),
                keys.failures(),
                distinctFrom,
                sameAs,
                via);
    }

    /**
     * MIN or MAX of a text or date value of one coded column (a joined table's column, a function of a dimension):
     * kept as the rank of the value among that column's values, gathered per code, decoded when finished.
     */
    private Accumulator rankAccumulator(Accumulator.Kind kind, Expr arg, NullMask nulls, BatchPredicate f) {
        int source = distinctSource(arg, kind.name().startsWith("MIN") ? "MIN(" : "MAX(");
        DerivedKey ranks = derivedKey(arg, source);
        int[] map = ranks.codeOfSourceCode();
        NumacubeException[] errors = null;
        if (!ranks.errors().isEmpty()) {
            errors = new NumacubeException[map.length];
            for (var failed : ranks.errors().entrySet()) {
                errors[failed.getKey()] = failed.getValue();
            }
        }
        double[] asDouble = new double[map.length];
        long[] asLong = new long[map.length];
        for (int code = 0; code < map.length; code++) {
            asLong[code] = map[code];
            asDouble[code] = map[code];
        }
        return new Accumulator(
                kind,
                -1,
                new BatchExpression.ByCode(source, asDouble, asLong, errors),
                false,
                arg.text(),
                nulls,
                f,
                ranks.dictionary());
    }

    /** Whether {@code e} is a fact dimension whose codes do not follow value order (rows were appended to it). */
    private boolean unsortedFactColumn(Expr e) {
        return e instanceof Expr.Column c
                && c.side() == Expr.Side.FACT
                && c.type().isDimension()
                && !fact.dictionary(c.index()).sorted();
    }

    /** Whether an integer expression computes arithmetic of measures that may leave BIGINT. */
    private static boolean mayOverflow(Expr e) {
        boolean[] arith = {false};
        Expr.walk(e, x -> arith[0] |= (x instanceof Expr.Arith || x instanceof Expr.Neg) && Expr.isInteger(x.type()));
        return arith[0] && Expr.isInteger(e.type());
    }

    /**
     * The one coded column a COUNT(DISTINCT ...), or a MIN or MAX by rank, reads ({@code call} opens the refusal's
     * text); refused for measures, several columns and none.
     */
    private int distinctSource(Expr arg, String call) {
        java.util.Set<Integer> sources = new java.util.HashSet<>();
        Expr.walk(arg, x -> {
            if (x instanceof Expr.Column c) {
                sources.add(sourceOf(c));
            }
        });
        if (sources.size() != 1) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "0A000",
                    "unsupported SQL: " + call + arg.text() + "): numacube computes it over one column or an"
                            + " expression of one column",
                    null,
                    null);
        }
        return sources.iterator().next();
    }

    /** The fact columns a derived key is a function of (a joined table's column counts as its root fact column). */
    private int[] sourceColumns(Expr key) {
        java.util.TreeSet<Integer> sources = new java.util.TreeSet<>();
        Expr.walk(key, x -> {
            if (x instanceof Expr.Column c) {
                sources.add(sourceOf(c));
            }
        });
        return sources.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The key's value for every combination of its source columns' codes (index: sum of code times stride). */
    private DerivedKey combinedKey(Expr key, int[] sources, int[] strides, int combinations) {
        return DerivedKey.of(key, combinations, index -> {
            int[] codes = new int[sources.length];
            for (int j = sources.length - 1; j >= 0; j--) {
                codes[j] = index / strides[j];
                index %= strides[j];
            }
            for (int j = 0; j < sources.length; j++) {
                if (codes[j] >= fact.dictionary(sources[j]).size()
                        || (lookupIndex != null && !lookupIndex.reachable(sources[j], codes[j]))) {
                    return DerivedKey.ABSENT;
                }
            }
            return ScalarEvaluator.eval(key, x -> {
                Expr.Column c = (Expr.Column) x;
                if (c.side() == Expr.Side.LOOKUP) {
                    int root = lookupIndex.factColumnOf(c.index());
                    return lookupIndex.valueAt(c.index(), codes[java.util.Arrays.binarySearch(sources, root)]);
                }
                int source = codesOf(c);
                return scalar(fact.dictionary(source), codes[java.util.Arrays.binarySearch(sources, source)]);
            });
        });
    }

    /**
     * The key's value for every code of its source column, evaluated once per code; kept with the fact table (for
     * later queries) where it depends on the fact column alone: no joined column read and no inner join narrowing the
     * source column's codes.
     */
    private DerivedKey derivedKey(Expr key, int source) {
        Dictionary d = fact.dictionary(source);
        String what = "key " + source + " " + key;
        boolean factAlone = lookupIndex == null || (!NullMask.readsLookup(key) && !lookupIndex.narrows(source));
        return factAlone
                ? fact.coded().memo(what, d.size(), () -> evaluateKey(key, source, d))
                : lookupIndex.memo(what, d.size(), () -> evaluateKey(key, source, d));
    }

    private DerivedKey evaluateKey(Expr key, int source, Dictionary d) {
        int only = lookupIndex == null ? -1 : LookupIndex.onlyLookupColumn(key);
        if (only >= 0 && lookupIndex.factColumnOf(only) == source) {
            return lookupIndex.derivedKeyPerValue(key, only, d.size());
        }
        return DerivedKey.of(key, Math.max(1, d.size()), code -> {
            if (lookupIndex != null && !lookupIndex.reachable(source, code)) {
                return DerivedKey.ABSENT;
            }
            if (code >= d.size()) {
                return DerivedKey.ABSENT;
            }
            return ScalarEvaluator.eval(key, x -> {
                Expr.Column c = (Expr.Column) x;
                return c.side() == Expr.Side.LOOKUP ? lookupIndex.valueAt(c.index(), code) : scalar(d, code);
            });
        });
    }

    /**
     * Fills each key's cardinality and place value; returns the size of the whole space and of its first {@code
     * logicalKeys} keys. Refuses a space beyond 2^62, naming the COUNT(DISTINCT) arguments where their values (keys
     * from {@code distinctFrom} on) are what overflow it.
     */
    private long[] radix(
            List<Dictionary> dicts, int logicalKeys, int distinctFrom, int[] cards, long[] strides, int[] sameAs) {
        long space = 1;
        long logicalSpace = 1;
        int i = 0;
        try {
            for (; i < cards.length; i++) {
                cards[i] = Math.max(1, dicts.get(i).size());
                strides[i] = sameAs[i] >= 0 ? 0 : space;
                space = Math.multiplyExact(space, sameAs[i] >= 0 ? 1 : cards[i]);
                if (i < logicalKeys) {
                    logicalSpace = space;
                }
                if (space > (1L << 62)) {
                    throw new ArithmeticException();
                }
            }
        } catch (ArithmeticException e) {
            throw tooManyCombinations(i >= distinctFrom);
        }
        return new long[] {space, logicalSpace};
    }

    private NumacubeException tooManyCombinations(boolean byDistinctValues) {
        String keys = "keys=" + query.groupKeys().stream().map(Expr::text).toList();
        String message = byDistinctValues
                ? "too many combinations of group keys and COUNT(DISTINCT) values for 64-bit keys: " + keys
                        + " distinct=" + distinctArgs.stream().map(Expr::text).toList()
                        + " — the distinct values of each group are counted as keys beside the group's: count"
                        + " fewer or smaller columns DISTINCT in one query, or group by fewer dimensions"
                : "too many group-key combinations for 64-bit keys: " + keys
                        + " — group by fewer or smaller dimensions";
        return new NumacubeException(NumacubeException.Kind.INVALID_INPUT, message);
    }

    /** The columns read: masked, grouped, and those the residual predicate and the aggregates' arguments use. */
    private ScanColumns planScan(RowFilter filter, GroupKeySpace keys) {
        int ncol = fact.schema().size();
        TreeSet<Integer> read = new TreeSet<>();
        for (RowFilter.CodeMask m : filter.masks()) {
            read.add(m.column());
        }
        for (int k : keys.columns()) {
            read.add(k);
        }
        for (int[] multi : keys.sources()) {
            if (multi != null) {
                for (int c : multi) {
                    read.add(c);
                }
            }
        }
        collectColumns(query.where(), read);
        for (Expr.Agg a : query.aggregates()) {
            collectColumns(a, read);
        }
        read.addAll(kernels.codedReads());
        int[] bytesPerValue = new int[fact.columnSlots()];
        CodedColumns.Coded[] coded = new CodedColumns.Coded[fact.columnSlots()];
        long bytesPerRow = 0;
        for (int c = 0; c < ncol; c++) {
            ColumnSpec spec = fact.schema().column(c);
            bytesPerValue[c] = spec.isDimension() ? fact.dictionary(c).width().bytes() : 8;
        }
        for (int c : read) {
            if (fact.isCodedIndex(c)) {
                coded[c] = fact.coded().of(fact, c - ncol);
                bytesPerValue[c] = coded[c].width().bytes();
            }
            bytesPerRow += bytesPerValue[c];
        }
        checkCodeWidths(bytesPerValue);
        return new ScanColumns(read.stream().mapToInt(Integer::intValue).toArray(), bytesPerValue, coded, bytesPerRow);
    }

    private void checkCodeWidths(int[] bytesPerValue) {
        if (fact.partitions().isEmpty()) {
            return;
        }
        Partition any = fact.partitions().get(0);
        for (int c = 0; c < fact.schema().size(); c++) {
            if (fact.schema().column(c).isDimension() && any.width(c).bytes() != bytesPerValue[c]) {
                throw new NumacubeException(
                        NumacubeException.Kind.INTERNAL,
                        "partition code width differs from its dictionary: column="
                                + fact.schema().column(c).name());
            }
        }
    }

    private String describe(RowFilter filter, GroupKeySpace keys, boolean postProcessed) {
        List<String> masked = java.util.Arrays.stream(filter.masks())
                .map(m -> columnName(m.column()))
                .toList();
        List<String> keyNames = java.util.Arrays.stream(keys.columns())
                .mapToObj(this::columnName)
                .toList();
        return query.describe() + " | masks on " + masked + (filter.residual() == null ? "" : " + row predicate")
                + " | keys " + keyNames + (keys.dense() ? " dense " : " hashed ") + keys.size() + " groups"
                + (postProcessed ? " | post-processed by " + columnName(postColumn) : "");
    }

    private String columnName(int c) {
        return fact.slotName(c);
    }

    /**
     * The fact columns an expression reads: its own, and for a joined table's column the fact column it hangs from; for
     * a TIMESTAMP inside a function, CASE or IS [NOT] DISTINCT FROM also its query-time codes, through which the function is evaluated per
     * value ({@link BatchCompiler#sources}).
     */
    private void collectColumns(Expr e, TreeSet<Integer> out) {
        if (e == null) {
            return;
        }
        Expr.walk(e, x -> {
            if (x instanceof Expr.Column c) {
                out.add(c.side() == Expr.Side.FACT ? c.index() : lookupIndex.factColumnOf(c.index()));
            }
            if (x instanceof Expr.Call || x instanceof Expr.Case || x instanceof Expr.IsDistinct) {
                Expr.walk(x, y -> {
                    if (y instanceof Expr.Column c && c.side() == Expr.Side.FACT && c.type() == ColumnType.TIMESTAMP) {
                        out.add(fact.codedIndex(c.index()));
                    }
                });
            }
        });
    }

    /** The value of a dimension code as the scalar evaluator sees it: String, Long (INT, DATE) or null for NULL. */
    static Object scalar(Dictionary d, int code) {
        if (d.isNull(code)) {
            return null;
        }
        return switch (d.type()) {
            case STRING -> d.string(code);
            case DOUBLE -> d.doubleValue(code);
            default -> d.longValue(code);
        };
    }

    private FinalAggregate planAggregate(Expr.Agg a, List<Accumulator> accs) {
        Expr.AggKind kind = a.kind();
        if (kind == Expr.AggKind.COUNT_DISTINCT) {
            distinctArgs.add(a.arg());
            return new FinalAggregate(
                    kind, FinalAggregate.Finish.DISTINCT_VALUES, distinctArgs.size() - 1, -1, -1, null, true);
        }
        boolean counts = kind == Expr.AggKind.COUNT || kind == Expr.AggKind.COUNT_STAR;
        boolean countsValues =
                kind == Expr.AggKind.COUNT && !kernels.nullMask(a.arg()).isEmpty();
        if (counts && (a.filter() != null || countsValues)) {
            int count = acc(accs, Accumulator.Kind.COUNT, a.arg(), a.filter());
            return new FinalAggregate(kind, FinalAggregate.Finish.FROM_ACCUMULATORS, count, -1, -1, null, true);
        }
        if (kind == Expr.AggKind.COUNT_STAR || kind == Expr.AggKind.COUNT) {
            return FinalAggregate.rowCount(kind);
        }
        Expr arg = a.arg();
        if (lookupIndex != null && arg.type() == ColumnType.DOUBLE) {
            Expr[] split = splitFactorByLookup(arg);
            int column = split == null ? -1 : factorColumn(split[1]);
            double[] factor = column < 0 || (postColumn >= 0 && column != postColumn)
                    ? null
                    : lookupIndex.memo(
                            "factor " + column + " " + split[1],
                            fact.dictionary(column).size(),
                            () -> factorByJoinKeyCode(split[1], column));
            if (factor != null && scalingIsExact(kind, factor, column)) {
                postColumn = column;
                return planScaledByLookup(a, split[0], factor, accs);
            }
        }
        boolean longResult = a.type() == ColumnType.LONG || a.type() == ColumnType.TIMESTAMP;
        // an integer argument (a BIGINT column or integer arithmetic) is accumulated exactly in 64 bits
        boolean bareLong = (Expr.isInteger(arg.type()) || arg.type() == ColumnType.TIMESTAMP)
                && !(arg instanceof Expr.Column c0 && c0.type().isDimension() && c0.type() != ColumnType.INT);
        boolean bareCodes = arg instanceof Expr.Column c
                && c.side() == Expr.Side.FACT
                && c.type().isDimension();
        boolean ranked = arg.type().isDimension() && arg.type() != ColumnType.INT && !bareCodes;
        boolean exact = bareLong || bareCodes || ranked;
        FinalAggregate.Finish direct = FinalAggregate.Finish.FROM_ACCUMULATORS;
        return switch (kind) {
            case SUM, AVG -> {
                int sum =
                        acc(accs, bareLong ? Accumulator.Kind.SUM_LONG : Accumulator.Kind.SUM_DOUBLE, arg, a.filter());
                int averageScale = kind == Expr.AggKind.AVG ? arg.scale() : 0;
                yield new FinalAggregate(kind, direct, sum, -1, -1, null, longResult, averageScale);
            }
            case MIN -> {
                int min = acc(accs, exact ? Accumulator.Kind.MIN_LONG : Accumulator.Kind.MIN_DOUBLE, arg, a.filter());
                yield new FinalAggregate(kind, direct, -1, min, -1, null, longResult);
            }
            case MAX -> {
                int max = acc(accs, exact ? Accumulator.Kind.MAX_LONG : Accumulator.Kind.MAX_DOUBLE, arg, a.filter());
                yield new FinalAggregate(kind, direct, -1, -1, max, null, longResult);
            }
            default -> throw new NumacubeException(NumacubeException.Kind.INTERNAL, "aggregate kind: " + kind);
        };
    }

    /**
     * The value of {@code lookupPart} for each fact join-key code (0 for a code the lookup table lacks), or null when
     * it is NULL for a key the lookup table holds (those rows' products are NULL: they are scaled row by row).
     */
    private double[] factorByJoinKeyCode(Expr lookupPart, int column) {
        double[] factor = new double[Math.max(1, fact.dictionary(column).size())];
        for (int code = 0; code < factor.length; code++) {
            if (!lookupIndex.reachable(column, code)) {
                continue;
            }
            int at = code;
            Object v;
            try {
                v = ScalarEvaluator.eval(lookupPart, x -> lookupIndex.valueAt(((Expr.Column) x).index(), at));
            } catch (NumacubeException e) {
                if (CodeErrors.isValueError(e)) {
                    return null;
                }
                throw e;
            }
            if (v == null) {
                return null;
            }
            factor[code] = ((Number) v).doubleValue();
        }
        return factor;
    }

    /** The one fact column the lookup columns of a factor hang from, or -1 when they hang from several. */
    private int factorColumn(Expr lookupPart) {
        java.util.Set<Integer> columns = new java.util.HashSet<>();
        Expr.walk(lookupPart, x -> {
            if (x instanceof Expr.Column c && c.side() == Expr.Side.LOOKUP) {
                columns.add(lookupIndex.factColumnOf(c.index()));
            }
        });
        return columns.size() == 1 ? columns.iterator().next() : -1;
    }

    /**
     * Whether scaling a join key's aggregate by its factor gives the aggregate of the scaled rows: every factor of a
     * key the lookup table holds must be finite (an infinite factor turns a row's 0 into NaN, which a sum scaled
     * afterwards cannot see), and for MIN and MAX also positive (a negative factor swaps them, and NaN, the largest
     * value, would not swap with them; zero maps infinities to NaN). Otherwise the rows are scaled one by one.
     */
    private boolean scalingIsExact(Expr.AggKind kind, double[] factor, int column) {
        boolean minMax = kind == Expr.AggKind.MIN || kind == Expr.AggKind.MAX;
        for (int code = 0; code < factor.length; code++) {
            if (lookupIndex.reachable(column, code)
                    && (!Double.isFinite(factor[code]) || (minMax && !(factor[code] > 0)))) {
                return false;
            }
        }
        return true;
    }

    /** {@code agg(F * L)}: F accumulated per (group, join key), then each join key's value times its factor L. */
    private FinalAggregate planScaledByLookup(Expr.Agg a, Expr factPart, double[] factor, List<Accumulator> accs) {
        int sum = -1;
        int min = -1;
        int max = -1;
        if (a.kind() == Expr.AggKind.SUM || a.kind() == Expr.AggKind.AVG) {
            sum = acc(accs, Accumulator.Kind.SUM_DOUBLE, factPart, a.filter());
        } else {
            min = acc(accs, Accumulator.Kind.MIN_DOUBLE, factPart, a.filter());
            max = acc(accs, Accumulator.Kind.MAX_DOUBLE, factPart, a.filter());
        }
        return new FinalAggregate(
                a.kind(), FinalAggregate.Finish.SCALED_BY_LOOKUP, sum, min, max, factor, a.type() == ColumnType.LONG);
    }

    private final Map<String, Integer> accIndex = new HashMap<>();

    /** The accumulator of {@code kind} over {@code arg} (null = the constant 1), shared when already planned. */
    private int acc(List<Accumulator> accs, Accumulator.Kind kind, Expr arg, Expr filter) {
        String key = kind + ":" + (arg == null ? "1" : arg.toString()) + ":" + filter;
        Integer i = accIndex.get(key);
        if (i != null) {
            return i;
        }
        Accumulator acc;
        NullMask nulls = kernels.nullMask(arg);
        BatchPredicate f = filter == null ? null : kernels.predicate(filter);
        if (kind == Accumulator.Kind.COUNT) {
            // COUNT(v * w) of values that may be NULL computes v * w, as DuckDB does (an overflow there is an error);
            // of values that cannot be NULL it is COUNT(*), as DuckDB's statistics make it
            BatchExpression computed =
                    arg != null && mayOverflow(arg) && !nulls.isEmpty() ? kernels.numeric(arg) : null;
            acc = new Accumulator(kind, -1, computed, false, arg == null ? "*" : arg.text(), nulls, f, null);
        } else if (arg instanceof Expr.Column c
                && c.side() == Expr.Side.FACT
                && (c.type() == ColumnType.DOUBLE || c.type() == ColumnType.LONG || c.type() == ColumnType.TIMESTAMP)
                && (c.type() != ColumnType.DOUBLE) == kind.exact()) {
            acc = Accumulator.ofColumn(kind, c.index(), false, nulls, f);
        } else if (arg instanceof Expr.Column c
                && c.side() == Expr.Side.FACT
                && c.type().isDimension()
                && fact.dictionary(c.index()).sorted()
                && (kind == Accumulator.Kind.MIN_LONG || kind == Accumulator.Kind.MAX_LONG)) {
            acc = Accumulator.ofColumn(kind, c.index(), true, nulls, f);
        } else if (arg != null
                && arg.type() != null
                && arg.type().isDimension()
                && (arg.type() != ColumnType.INT
                        || ((kind == Accumulator.Kind.MIN_LONG || kind == Accumulator.Kind.MAX_LONG)
                                && unsortedFactColumn(arg)))) {
            acc = rankAccumulator(kind, arg, nulls, f);
        } else {
            acc = new Accumulator(
                    kind,
                    -1,
                    arg == null ? new BatchExpression.Constant(1.0) : kernels.numeric(arg),
                    false,
                    arg == null ? "1" : arg.text(),
                    nulls,
                    f,
                    null);
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
}
