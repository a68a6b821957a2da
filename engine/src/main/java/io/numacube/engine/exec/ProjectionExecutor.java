package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.storage.CodedColumns;
import io.numacube.engine.storage.DeletedRows;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs a plain projection ({@code SELECT cols FROM ... WHERE ... ORDER BY ... LIMIT n}, the drill-through to a
 * cell's rows): the rows that pass, in partition and row order, sorted when ORDER BY asks (a stable sort, NULLs as
 * each key says), cut by OFFSET and LIMIT, and their output expressions evaluated row by row. Conjuncts of one
 * dimension (or of joined columns of one fact column) are code masks, as in aggregations; the rest is evaluated per row
 * in three-valued logic. Without ORDER BY the scan stops once OFFSET + LIMIT rows passed. Runs on the calling thread,
 * but for a whole scan of many rows given the workers (a subquery's keys: TPC-H Q4's magic set lists 57,000 of 1.5M
 * orders), which select rows and evaluate the output by ranges. Stateless.
 */
public final class ProjectionExecutor {

    /** Most rows a projection without LIMIT may return (the result is held on the heap). */
    static final long MAX_ROWS = 10_000_000;

    /** Rows whose codes are tested against the WHERE's masks in one pass, before the rest of WHERE per row. */
    static final int BATCH_ROWS = 4096;

    private ProjectionExecutor() {}

    /** A row of a partition. */
    private record RowRef(Partition partition, int row) {}

    public static QueryResult run(
            LogicalQuery lq,
            FactTable fact,
            List<FactTable> dimensions,
            long startNanos,
            io.numacube.engine.result.Cancellation cancel) {
        return run(lq, fact, dimensions, null, startNanos, cancel);
    }

    /**
     * {@link #run(LogicalQuery, FactTable, List, long, io.numacube.engine.result.Cancellation)} with the query's
     * workers (null: none), which select the passing rows of a scan of {@link #PARALLEL_ROWS} rows or more by ranges
     * of rows, side by side, and evaluate the output expressions of as many rows by ranges, where the whole scan is
     * read (ORDER BY, or no LIMIT): the rows, their order and an error as the serial scan gives them (each range
     * stops at its first failing row, and the first failing range's error is thrown).
     */
    public static QueryResult run(
            LogicalQuery lq,
            FactTable fact,
            List<FactTable> dimensions,
            WorkerPool pool,
            long startNanos,
            io.numacube.engine.result.Cancellation cancel) {
        cancel.check();
        LookupIndex lookup = lq.joins().isEmpty() ? null : LookupIndex.read(lq, fact, dimensions, pool);
        RowReader reader = new RowReader(fact, lookup);
        RowTest test = RowTest.of(lq.where(), fact, lookup, reader);
        long wanted =
                lq.limit() < 0 || lq.limit() > Long.MAX_VALUE - lq.offset() ? Long.MAX_VALUE : lq.offset() + lq.limit();
        boolean sorted = !lq.orderBy().isEmpty();
        boolean parallel = parallel(pool, fact.rowCount()) && (sorted || wanted == Long.MAX_VALUE);
        List<RowRef> rows = parallel ? selectByRanges(lq, fact, test, pool, cancel) : new ArrayList<>();
        long scanned =
                parallel ? fact.partitions().stream().mapToLong(Partition::rows).sum() : 0;
        int[] sel = new int[BATCH_ROWS];
        for (Partition p : parallel ? List.<Partition>of() : fact.partitions()) {
            long[] deleted = fact.deleted().of(p.id());
            for (int b = 0; b < p.rows() && (sorted || rows.size() < wanted); b += BATCH_ROWS) {
                cancel.check();
                int n = Math.min(BATCH_ROWS, p.rows() - b);
                scanned += n;
                int passing = test.select(p, b, n, sel);
                for (int i = 0; i < passing && (sorted || rows.size() < wanted); i++) {
                    int r = sel[i];
                    if ((deleted == null || !DeletedRows.isSet(deleted, r)) && test.residualPasses(p, r)) {
                        rows.add(new RowRef(p, r));
                        checkRows(lq, rows.size());
                    }
                }
            }
        }
        if (sorted) {
            sort(lq, rows, reader);
        }
        int from = (int) Math.min(rows.size(), lq.offset());
        int to = (int) Math.min(rows.size(), lq.limit() < 0 ? rows.size() : Math.min(wanted, rows.size()));
        List<RowRef> out = rows.subList(from, Math.max(from, to));
        QueryStats stats = new QueryStats(
                (System.nanoTime() - startNanos) / 1e9,
                scanned,
                0,
                0,
                0,
                0,
                0,
                Map.of(),
                "projection: " + lq.describe());
        return output(lq, out, reader, stats, parallel(pool, out.size()) ? pool : null);
    }

    /** Rows from which a projection's scan and output run by ranges on the workers. */
    static final int PARALLEL_ROWS = 65_536;

    /** The system property that, {@code false}, runs every projection on the calling thread (an A/B of one process). */
    static final String PARALLEL_PROPERTY = "numacube.parallelProjection";

    private static boolean parallel(WorkerPool pool, long rows) {
        return pool != null
                && pool.workerCount() > 1
                && rows >= PARALLEL_ROWS
                && !"false".equals(System.getProperty(PARALLEL_PROPERTY));
    }

    /** The rows that pass, in partition and row order, selected by ranges of rows on the workers. */
    private static List<RowRef> selectByRanges(
            LogicalQuery lq,
            FactTable fact,
            RowTest test,
            WorkerPool pool,
            io.numacube.engine.result.Cancellation cancel) {
        List<int[]> ranges = new ArrayList<>();
        List<Partition> partitions = fact.partitions();
        for (int p = 0; p < partitions.size(); p++) {
            for (int b = 0; b < partitions.get(p).rows(); b += PARALLEL_ROWS) {
                ranges.add(new int[] {p, b, Math.min(partitions.get(p).rows(), b + PARALLEL_ROWS)});
            }
        }
        List<int[]> passed = WorkerChunks.each(pool, ranges, r -> {
            Partition p = partitions.get(r[0]);
            long[] deleted = fact.deleted().of(p.id());
            int[] sel = new int[BATCH_ROWS];
            int[] kept = new int[r[2] - r[1]];
            int count = 0;
            for (int b = r[1]; b < r[2]; b += BATCH_ROWS) {
                cancel.check();
                int passing = test.select(p, b, Math.min(BATCH_ROWS, r[2] - b), sel);
                for (int i = 0; i < passing; i++) {
                    int row = sel[i];
                    if ((deleted == null || !DeletedRows.isSet(deleted, row)) && test.residualPasses(p, row)) {
                        kept[count++] = row;
                    }
                }
            }
            return java.util.Arrays.copyOf(kept, count);
        });
        int total = 0;
        for (int[] k : passed) {
            total += k.length;
        }
        checkRows(lq, total);
        List<RowRef> rows = new ArrayList<>(total);
        for (int i = 0; i < ranges.size(); i++) {
            Partition p = partitions.get(ranges.get(i)[0]);
            for (int row : passed.get(i)) {
                rows.add(new RowRef(p, row));
            }
        }
        return rows;
    }

    private static void checkRows(LogicalQuery lq, int rows) {
        if (rows > MAX_ROWS && lq.limit() < 0) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "54000",
                    "a projection may return at most " + MAX_ROWS + " rows — add a LIMIT or a filter",
                    null,
                    null);
        }
    }

    /**
     * The rows of {@code fact} that {@code lq}'s WHERE keeps (deleted rows never), by partition id: the rows a DELETE
     * with that WHERE removes. ORDER BY, LIMIT and the select list are not looked at.
     */
    public static Map<Integer, int[]> locate(LogicalQuery lq, FactTable fact, List<FactTable> dimensions) {
        LookupIndex lookup = lq.joins().isEmpty() ? null : LookupIndex.read(lq, fact, dimensions);
        RowTest test = RowTest.of(lq.where(), fact, lookup, new RowReader(fact, lookup));
        Map<Integer, int[]> out = new java.util.HashMap<>();
        for (Partition p : fact.partitions()) {
            long[] deleted = fact.deleted().of(p.id());
            int[] rows = new int[16];
            int n = 0;
            for (int r = 0; r < p.rows(); r++) {
                if ((deleted == null || !DeletedRows.isSet(deleted, r)) && test.passes(p, r)) {
                    if (n == rows.length) {
                        rows = java.util.Arrays.copyOf(rows, 2 * n);
                    }
                    rows[n++] = r;
                }
            }
            if (n > 0) {
                out.put(p.id(), java.util.Arrays.copyOf(rows, n));
            }
        }
        return out;
    }

    private static void sort(LogicalQuery lq, List<RowRef> rows, RowReader reader) {
        int n = lq.orderBy().size();
        Map<RowRef, Object[]> keys = new java.util.IdentityHashMap<>();
        for (RowRef ref : rows) {
            Object[] k = new Object[n];
            for (int i = 0; i < n; i++) {
                k[i] = ScalarEvaluator.eval(lq.orderBy().get(i).expr(), reader.leaves(ref.partition(), ref.row()));
            }
            keys.put(ref, k);
        }
        rows.sort((x, y) -> {
            Object[] a = keys.get(x);
            Object[] b = keys.get(y);
            for (int i = 0; i < n; i++) {
                int c = SortKeyOrder.compare(lq.orderBy().get(i), a[i], b[i]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
    }

    private static QueryResult output(
            LogicalQuery lq, List<RowRef> rows, RowReader reader, QueryStats stats, WorkerPool pool) {
        List<LogicalQuery.Output> outputs = lq.outputs();
        List<String> names = new ArrayList<>();
        List<ColumnType> types = new ArrayList<>();
        Object[] columns = new Object[outputs.size()];
        boolean[][] nulls = new boolean[outputs.size()][];
        int[] scales = new int[outputs.size()];
        int[] precisions = new int[outputs.size()];
        for (int c = 0; c < outputs.size(); c++) {
            Expr e = outputs.get(c).expr();
            ColumnType t = e.type();
            names.add(outputs.get(c).name());
            // a DECIMAL(p,0) column has scale 0, as an integer has, and its declared precision
            types.add(e.scale() > 0 || e.precision() > 0 ? ColumnType.DECIMAL : t);
            scales[c] = e.scale();
            precisions[c] = e.declaredPrecision();
            Object col = OutputColumn.of(t, rows.size());
            columns[c] = col;
            java.util.function.IntFunction<Object> value = i -> ScalarEvaluator.eval(
                    e, reader.leaves(rows.get(i).partition(), rows.get(i).row()));
            nulls[c] = pool == null
                    ? OutputColumn.fill(col, rows.size(), value)
                    : OutputColumn.orNulls(WorkerChunks.map(
                            pool, rows.size(), (from, to) -> OutputColumn.fill(col, rows.size(), from, to, value)));
        }
        return new QueryResult(names, types, scales, precisions, columns, nulls, rows.size(), stats);
    }

    /** The values of one fact row's columns and of the joined columns, as the scalar evaluator reads them. */
    private record RowReader(FactTable fact, LookupIndex lookup) {

        Function<Expr, Object> leaves(Partition p, int row) {
            return e -> value((Expr.Column) e, p, row);
        }

        Object value(Expr.Column c, Partition p, int row) {
            if (c.side() == Expr.Side.LOOKUP) {
                return lookup.valueAt(c.index(), fact.code(p, lookup.factColumnOf(c.index()), row));
            }
            if (c.type().isDimension()) {
                return QueryCompiler.scalar(fact.dictionary(c.index()), p.code(c.index(), row));
            }
            if (p.isNull(c.index(), row)) {
                return null;
            }
            return c.type() == ColumnType.DOUBLE ? (Object) p.doubleValue(c.index(), row) : p.longValue(c.index(), row);
        }
    }

    /**
     * WHERE for one row: code masks for the conjuncts of one coded column (and the inner joins' masks), the rest in
     * three-valued logic per row.
     */
    private record RowTest(
            int[] maskColumns,
            CodedColumns.Coded[] coded,
            boolean[][] masks,
            List<Expr> residual,
            RowReader reader,
            boolean none) {

        static RowTest of(Expr where, FactTable fact, LookupIndex lookup, RowReader reader) {
            WhereSplit split = WhereSplit.of(where, new BatchCompiler(fact, lookup), lookup);
            int[] columns =
                    split.masks().keySet().stream().mapToInt(Integer::intValue).toArray();
            int n = fact.schema().size();
            CodedColumns.Coded[] coded = new CodedColumns.Coded[columns.length];
            for (int i = 0; i < columns.length; i++) {
                // a query-time coded slot is looked up once here, not per row
                coded[i] = columns[i] < n ? null : fact.coded().of(fact, columns[i] - n);
            }
            return new RowTest(
                    columns,
                    coded,
                    split.masks().values().toArray(boolean[][]::new),
                    split.residual(),
                    reader,
                    split.nothingPasses());
        }

        boolean passes(Partition p, int row) {
            if (none) {
                return false;
            }
            for (int i = 0; i < maskColumns.length; i++) {
                int code = coded[i] == null ? p.code(maskColumns[i], row) : coded[i].code(p.id(), row);
                if (!masks[i][code]) {
                    return false;
                }
            }
            return residualPasses(p, row);
        }

        /** The rows of {@code [from, from + n)} of {@code p} whose codes pass every mask, into {@code sel}; their count. */
        int select(Partition p, int from, int n, int[] sel) {
            if (none) {
                return 0;
            }
            if (maskColumns.length == 0) {
                for (int i = 0; i < n; i++) {
                    sel[i] = from + i;
                }
                return n;
            }
            int count = CodeKernels.selectDense(segment(p, 0), width(p, 0), from, n, masks[0], sel);
            for (int i = 1; i < maskColumns.length && count > 0; i++) {
                count = CodeKernels.refine(segment(p, i), width(p, i), sel, count, masks[i]);
            }
            return count;
        }

        private java.lang.foreign.MemorySegment segment(Partition p, int i) {
            return coded[i] == null ? p.column(maskColumns[i]) : coded[i].codes()[p.id()];
        }

        private io.numacube.engine.storage.CodeWidth width(Partition p, int i) {
            return coded[i] == null ? p.width(maskColumns[i]) : coded[i].width();
        }

        /** Whether row {@code row} passes the WHERE terms that are no mask (three-valued: TRUE only). */
        boolean residualPasses(Partition p, int row) {
            for (Expr e : residual) {
                if (!Boolean.TRUE.equals(ScalarEvaluator.eval(e, reader.leaves(p, row)))) {
                    return false;
                }
            }
            return true;
        }
    }
}
