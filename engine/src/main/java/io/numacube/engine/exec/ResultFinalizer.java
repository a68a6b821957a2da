package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.workers.WorkerPool;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The finalize step of a query: {@link GroupRollUp} rolls the merged state up into result rows and finishes each
 * aggregate ({@link DirectRollUp} reads the plainest GROUP BY's rows straight from it); then HAVING filters the rows
 * (both on the workers by ranges of groups where there are many and each group is a row of its own, else on the
 * calling thread), ORDER BY sorts them, OFFSET and LIMIT cut them, and the select list is computed into the {@link
 * QueryResult}'s columns. Works per group, never per row. Stateless.
 */
final class ResultFinalizer {

    private ResultFinalizer() {}

    /** The groups from which they are rolled up and filtered by HAVING on the workers ({@link #byRanges}). */
    static final int PARALLEL_GROUPS = 65_536;

    /** The system property that, {@code false}, finishes on the calling thread only (for an A/B of one process). */
    static final String PARALLEL_PROPERTY = "numacube.parallelFinish";

    /**
     * The system property that, {@code false}, reads the plainest GROUP BY's rows ({@link DirectRollUp}) on the calling
     * thread only, however many groups (for an A/B of one process).
     */
    static final String PARALLEL_DIRECT_PROPERTY = "numacube.parallelDirectFinish";

    static QueryResult finish(PhysicalPlan plan, AggregationState merged, QueryStats stats, WorkerPool pool) {
        LogicalQuery lq = plan.logical();
        ResultRows rows;
        int[] kept;
        boolean parallel = merged != null
                && merged.groups() >= PARALLEL_GROUPS
                && pool.workerCount() > 1
                && GroupRollUp.rowPerGroup(plan)
                && !"false".equals(System.getProperty(PARALLEL_PROPERTY));
        if (DirectRollUp.serves(plan, merged)) {
            if (parallel && !"false".equals(System.getProperty(PARALLEL_DIRECT_PROPERTY))) {
                rows = byRanges(plan, merged, pool, (from, to) -> direct(plan, merged, from, to));
                kept = allRows(rows.count);
            } else {
                rows = direct(plan, merged, 0, merged.groups());
                kept = having(lq, rows);
            }
        } else if (parallel) {
            rows = byRanges(plan, merged, pool, (from, to) -> {
                GroupRollUp r = GroupRollUp.of(plan, merged, from, to);
                return new ResultRows(plan, r.rows(), r.keyOfRow(), r.values());
            });
            kept = allRows(rows.count);
        } else {
            GroupRollUp rollUp = GroupRollUp.of(plan, merged);
            rows = new ResultRows(plan, rollUp.rows(), rollUp.keyOfRow(), rollUp.values());
            kept = having(lq, rows);
        }
        return output(plan, rows, slice(lq, sort(lq, rows, kept)), stats, pool);
    }

    /**
     * The rows HAVING keeps, rolled up, finished and filtered on the workers by ranges of groups, then laid end to
     * end: the rows, values and order of the serial finish ({@link GroupRollUp#rowPerGroup}). Every range's values
     * are finished before HAVING runs on any, so an error is the one the serial finish meets first.
     */
    private static ResultRows byRanges(
            PhysicalPlan plan, AggregationState merged, WorkerPool pool, WorkerChunks.Range<ResultRows> rollUp) {
        List<ResultRows> parts = WorkerChunks.map(pool, merged.groups(), rollUp);
        List<int[]> kept = WorkerChunks.each(pool, parts, part -> having(plan.logical(), part));
        return ResultRows.concat(plan, parts, kept);
    }

    /** The rows of the groups {@code [from, to)} of {@code merged}, read straight from it ({@link DirectRollUp}). */
    private static ResultRows direct(PhysicalPlan plan, AggregationState merged, int from, int to) {
        int[] groups = DirectRollUp.groupsWithRows(merged, from, to);
        return new ResultRows(
                plan,
                groups.length,
                DirectRollUp.keyCodes(plan.keys(), groups),
                DirectRollUp.values(plan, merged, groups));
    }

    private static int[] allRows(int count) {
        int[] all = new int[count];
        for (int r = 0; r < count; r++) {
            all[r] = r;
        }
        return all;
    }

    /**
     * The rolled-up rows before HAVING: their GROUP BY codes and aggregate values, and how an output expression
     * reads them. Immutable once built.
     */
    private static final class ResultRows {
        final PhysicalPlan plan;
        final int count;
        final int[] keyCodes;
        final int keysPerRow;
        final AggregateColumns aggregates;

        ResultRows(PhysicalPlan plan, int count, long[] keyOfRow, AggregateColumns aggregates) {
            this.plan = plan;
            this.count = count;
            this.aggregates = aggregates;
            GroupKeySpace keys = plan.keys();
            keysPerRow = keys.logicalKeys();
            keyCodes = new int[count * keysPerRow];
            for (int r = 0; r < count; r++) {
                for (int i = 0; i < keysPerRow; i++) {
                    keyCodes[r * keysPerRow + i] = keys.code(keyOfRow[r], i);
                }
            }
        }

        private ResultRows(PhysicalPlan plan, int count, int[] keyCodes, AggregateColumns aggregates) {
            this.plan = plan;
            this.count = count;
            this.keyCodes = keyCodes;
            this.keysPerRow = plan.keys().logicalKeys();
            this.aggregates = aggregates;
        }

        /** The rows {@code kept[i]} of each of {@code parts}, laid end to end in order. */
        static ResultRows concat(PhysicalPlan plan, List<ResultRows> parts, List<int[]> kept) {
            int keys = plan.keys().logicalKeys();
            int n = 0;
            for (int[] k : kept) {
                n += k.length;
            }
            int[] codes = new int[n * keys];
            int at = 0;
            for (int p = 0; p < parts.size(); p++) {
                if (AggregateColumns.keepsAll(parts.get(p).count, kept.get(p))) {
                    System.arraycopy(parts.get(p).keyCodes, 0, codes, at, parts.get(p).count * keys);
                    at += parts.get(p).count * keys;
                    continue;
                }
                for (int r : kept.get(p)) {
                    System.arraycopy(parts.get(p).keyCodes, r * keys, codes, at, keys);
                    at += keys;
                }
            }
            List<AggregateColumns> aggregates =
                    parts.stream().map(p -> p.aggregates).toList();
            return new ResultRows(plan, n, codes, AggregateColumns.concat(plan.aggregates().length, aggregates, kept));
        }

        int keyCode(int row, int key) {
            return keyCodes[row * keysPerRow + key];
        }

        /** The leaves of an output-level expression in row {@code r}: group keys and aggregate values. */
        Function<Expr, Object> leaves(int r) {
            return e -> switch (e) {
                case Expr.KeyRef k -> QueryCompiler.scalar(plan.keys().dictionaries()[k.key()], keyCode(r, k.key()));
                case Expr.AggRef a -> aggregates.get(a.agg(), r);
                default -> throw new IllegalStateException("row-level expression in the output: " + e.text());
            };
        }
    }

    /** The rows HAVING keeps, in row order. */
    private static int[] having(LogicalQuery lq, ResultRows rows) {
        if (lq.having() == null) {
            return allRows(rows.count);
        }
        int only = HavingByValue.onlyAggregate(lq.having());
        int[] byValue = only < 0 ? null : HavingByValue.kept(lq.having(), only, rows.aggregates, rows.count);
        if (byValue != null) {
            return byValue;
        }
        int[] kept = new int[rows.count];
        int n = 0;
        for (int r = 0; r < rows.count; r++) {
            if (Boolean.TRUE.equals(ScalarEvaluator.eval(lq.having(), rows.leaves(r)))) {
                kept[n++] = r;
            }
        }
        return java.util.Arrays.copyOf(kept, n);
    }

    /**
     * Sorts {@code kept} by ORDER BY, ties in row order (as a stable sort leaves them), NULLs placed as each key says.
     * With a LIMIT that keeps a small part of the rows, only the first {@code OFFSET + LIMIT} are kept, through a
     * bounded heap (a grouping by an id column has millions of rows, and a top 10 of them needs no full sort).
     */
    private static int[] sort(LogicalQuery lq, ResultRows rows, int[] keptRows) {
        if (lq.orderBy().isEmpty()) {
            return keptRows;
        }
        LogicalQuery.Order[] orders = lq.orderBy().toArray(LogicalQuery.Order[]::new);
        RowSort.RowOrder numeric = numericOrder(orders, rows);
        long first =
                lq.limit() < 0 || lq.limit() > Long.MAX_VALUE - lq.offset() ? Long.MAX_VALUE : lq.offset() + lq.limit();
        if (numeric == null && first >= keptRows.length / 4 && OrderRanks.enabled()) {
            return rankedSort(orders, sortValues(orders, rows, keptRows), keptRows);
        }
        RowSort.RowOrder order = numeric != null ? numeric : valueOrder(orders, sortValues(orders, rows, keptRows));
        if (first < keptRows.length / 4) {
            return RowSort.first(keptRows, order, (int) first);
        }
        if (numeric == null) {
            // TimSort's galloping merges the runs in which groups arrive by their keys in fewer comparisons, and
            // comparing two rows' values costs more than boxing the rows
            Integer[] boxed = java.util.Arrays.stream(keptRows).boxed().toArray(Integer[]::new);
            java.util.Arrays.sort(boxed, order::compare);
            return java.util.Arrays.stream(boxed).mapToInt(Integer::intValue).toArray();
        }
        int[] sorted = keptRows.clone();
        RowSort.sort(sorted, order);
        return sorted;
    }

    /** {@code kept} sorted by the ranks of their ORDER BY values ({@link OrderRanks}). */
    private static int[] rankedSort(LogicalQuery.Order[] orders, Object[][] values, int[] kept) {
        int[] packed = OrderRanks.sorted(orders, values, kept);
        if (packed != null) {
            return packed;
        }
        int[] sorted = kept.clone();
        RowSort.sort(sorted, OrderRanks.order(orders, values, kept));
        return sorted;
    }

    /** Per kept row, the values of the ORDER BY expressions, each evaluated once; null for a row not kept. */
    private static Object[][] sortValues(LogicalQuery.Order[] orders, ResultRows rows, int[] kept) {
        Object[][] sortValues = new Object[rows.count][];
        for (int r : kept) {
            sortValues[r] = new Object[orders.length];
            for (int i = 0; i < orders.length; i++) {
                sortValues[r][i] = ScalarEvaluator.eval(orders[i].expr(), rows.leaves(r));
            }
        }
        return sortValues;
    }

    /** The order of rows by their ORDER BY values ({@link #sortValues}); ties by row. */
    private static RowSort.RowOrder valueOrder(LogicalQuery.Order[] orders, Object[][] sortValues) {
        return (x, y) -> {
            for (int i = 0; i < orders.length; i++) {
                int c = SortKeyOrder.compare(orders[i], sortValues[x][i], sortValues[y][i]);
                if (c != 0) {
                    return c;
                }
            }
            return Integer.compare(x, y);
        };
    }

    /**
     * The same order as {@link #valueOrder} when every ORDER BY expression is a numeric aggregate, read from the
     * aggregates' arrays without boxing: a long as it is, a double as a long of the same order ({@link
     * #orderedBits}); else null.
     */
    private static RowSort.RowOrder numericOrder(LogicalQuery.Order[] orders, ResultRows rows) {
        AggregateColumns aggs = rows.aggregates;
        long[][] keys = new long[orders.length][];
        boolean[][] nulls = new boolean[orders.length][];
        for (int i = 0; i < orders.length; i++) {
            if (!(orders[i].expr() instanceof Expr.AggRef a) || aggs.strings[a.agg()] != null) {
                return null;
            }
            nulls[i] = aggs.nulls[a.agg()];
            keys[i] = aggs.isLong[a.agg()] ? aggs.longs[a.agg()] : orderedBits(aggs.doubles[a.agg()]);
        }
        return (x, y) -> {
            for (int i = 0; i < orders.length; i++) {
                boolean nx = nulls[i][x];
                boolean ny = nulls[i][y];
                int c;
                if (nx || ny) {
                    c = SortKeyOrder.nulls(orders[i], nx, ny);
                } else {
                    c = SortKeyOrder.directed(orders[i], Long.compare(keys[i][x], keys[i][y]));
                }
                if (c != 0) {
                    return c;
                }
            }
            return Integer.compare(x, y);
        };
    }

    /**
     * Longs ordered as {@link ScalarEvaluator#compare} orders the doubles: -0.0 equal to 0.0, NaN above +Infinity and
     * equal to every NaN.
     */
    static long[] orderedBits(double[] values) {
        long[] out = new long[values.length];
        for (int r = 0; r < values.length; r++) {
            double d = values[r];
            if (d != d) {
                out[r] = Long.MAX_VALUE;
                continue;
            }
            long bits = Double.doubleToRawLongBits(d == 0 ? 0.0 : d);
            out[r] = bits ^ ((bits >> 63) & Long.MAX_VALUE);
        }
        return out;
    }

    /** The rows OFFSET and LIMIT leave. */
    private static int[] slice(LogicalQuery lq, int[] sorted) {
        int from = (int) Math.min(sorted.length, lq.offset());
        int to = lq.limit() < 0 ? sorted.length : from + (int) Math.min(sorted.length - from, lq.limit());
        return from == 0 && to == sorted.length ? sorted : java.util.Arrays.copyOfRange(sorted, from, to);
    }

    /** The select list over the rows {@code out}, one typed column per output. */
    private static QueryResult output(
            PhysicalPlan plan, ResultRows rows, int[] out, QueryStats stats, WorkerPool pool) {
        List<LogicalQuery.Output> outputs = plan.logical().outputs();
        List<String> names = new ArrayList<>();
        List<ColumnType> types = new ArrayList<>();
        Object[] columns = new Object[outputs.size()];
        boolean[][] nulls = new boolean[outputs.size()][];
        int[] scales = new int[outputs.size()];
        int[] precisions = new int[outputs.size()];
        for (int c = 0; c < outputs.size(); c++) {
            Expr e = outputs.get(c).expr();
            ColumnType t = e.type() == null ? ColumnType.STRING : e.type();
            names.add(outputs.get(c).name());
            // a DECIMAL(p,0) column has scale 0, as an integer has, and its declared precision
            types.add(e.scale() > 0 || e.precision() > 0 ? ColumnType.DECIMAL : t);
            scales[c] = e.scale();
            precisions[c] = e.declaredPrecision();
            Object col = OutputColumn.of(t, out.length);
            columns[c] = col;
            if (e instanceof Expr.KeyRef k) {
                nulls[c] = fillKey(plan, k, col, out, rows);
            } else if (fillDirectly(e, col, out, rows)) {
                nulls[c] = e instanceof Expr.AggRef a ? nullsOf(rows.aggregates.nulls[a.agg()], out) : null;
            } else {
                nulls[c] = evaluate(e, col, out, rows, pool);
            }
        }
        return new QueryResult(names, types, scales, precisions, columns, nulls, out.length, stats);
    }

    /** The system property that, {@code false}, evaluates output expressions on the calling thread only (an A/B). */
    static final String PARALLEL_OUTPUT_PROPERTY = "numacube.parallelOutput";

    /**
     * Evaluates an output expression per row into {@code col}; returns its null flags, or null when none is null. Over
     * many rows, by ranges on the workers (TPC-H Q13's derived table evaluates its count per customer, 150,000 rows):
     * each range writes its own rows, and an error is the one the first failing range meets first, as in row order.
     */
    private static boolean[] evaluate(Expr e, Object col, int[] out, ResultRows rows, WorkerPool pool) {
        if (out.length < PARALLEL_GROUPS
                || pool.workerCount() < 2
                || "false".equals(System.getProperty(PARALLEL_OUTPUT_PROPERTY))) {
            return OutputColumn.fill(col, out.length, i -> ScalarEvaluator.eval(e, rows.leaves(out[i])));
        }
        List<boolean[]> parts = WorkerChunks.map(
                pool,
                out.length,
                (from, to) -> OutputColumn.fill(
                        col, out.length, from, to, i -> ScalarEvaluator.eval(e, rows.leaves(out[i]))));
        return OutputColumn.orNulls(parts);
    }

    /** Copies a bare group key into its column without boxing; returns its null flags, or null when none is NULL. */
    private static boolean[] fillKey(PhysicalPlan plan, Expr.KeyRef k, Object col, int[] out, ResultRows rows) {
        Dictionary d = plan.keys().dictionaries()[k.key()];
        boolean[] nulls = null;
        for (int i = 0; i < out.length; i++) {
            int code = rows.keyCode(out[i], k.key());
            if (d.isNull(code)) {
                if (nulls == null) {
                    nulls = new boolean[out.length];
                }
                nulls[i] = true;
                continue;
            }
            switch (col) {
                case String[] s -> s[i] = d.string(code);
                case long[] l -> l[i] = d.longValue(code);
                case double[] x -> x[i] = d.doubleValue(code);
                default -> throw new IllegalStateException("key column type");
            }
        }
        return nulls;
    }

    /** Copies a bare aggregate into its column without boxing; false for other expressions. */
    private static boolean fillDirectly(Expr e, Object col, int[] out, ResultRows rows) {
        int n = out.length;
        if (e instanceof Expr.AggRef a) {
            int j = a.agg();
            AggregateColumns aggs = rows.aggregates;
            for (int i = 0; i < n; i++) {
                int r = out[i];
                switch (col) {
                    case String[] str -> str[i] = aggs.strings[j] == null ? null : aggs.strings[j][r];
                    case double[] d -> d[i] = aggs.isLong[j] ? aggs.longs[j][r] : aggs.doubles[j][r];
                    case long[] l -> l[i] = aggs.isLong[j] ? aggs.longs[j][r] : Math.round(aggs.doubles[j][r]);
                    default -> throw new IllegalStateException("aggregate column type");
                }
            }
            return true;
        }
        return false;
    }

    private static boolean[] nullsOf(boolean[] nulls, int[] rows) {
        boolean[] out = null;
        for (int i = 0; i < rows.length; i++) {
            if (nulls[rows[i]]) {
                if (out == null) {
                    out = new boolean[rows.length];
                }
                out[i] = true;
            }
        }
        return out;
    }
}
