package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.schema.ColumnType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The single-threaded end of a query: rolls the merged partial up to the logical groups (applying post-processor
 * factors per join-key code), computes the select list, filters by HAVING, sorts, cuts by OFFSET and LIMIT and builds
 * the {@link QueryResult}. Works per group, never per row. Stateless.
 */
final class Finalizer {

    private Finalizer() {}

    static QueryResult finish(CompiledQuery q, Partial merged, QueryStats stats) {
        LogicalQuery lq = q.logical;
        int joinPos = -1;
        for (int i = 0; i < q.keyColumns.length; i++) {
            if (lq.lookup() != null && q.keyColumns[i] == lq.factJoinColumn()) {
                joinPos = i;
            }
        }
        boolean appended = q.keyColumns.length > q.logicalKeys;
        int nAgg = q.aggs.length;
        int groups = merged == null ? 0 : merged.groups();
        // without a post-processing key every group is one result row: no roll-up map needed
        LongIntHashMap rowOf = appended ? new LongIntHashMap(256) : null;
        int cap = Math.max(16, Math.min(groups, 1 << 20));
        long[] keyOfRow = new long[cap];
        int nRows = q.logicalKeys == 0 ? 1 : 0;
        long[] counts = new long[cap];
        double[][] dv = new double[nAgg][cap];
        long[][] lv = new long[nAgg][cap];
        boolean[][] seen = new boolean[nAgg][cap];
        if (appended && q.logicalKeys == 0) {
            rowOf.slotOf(0);
        }
        for (int g = 0; g < groups; g++) {
            long n = merged.counts[g];
            if (n == 0) {
                continue;
            }
            long k = merged.keyOf(g);
            long logical = appended ? k % q.logicalSpace : k;
            int code = joinPos < 0 ? -1 : (int) ((k / q.keyStrides[joinPos]) % q.keyCards[joinPos]);
            int row = appended ? rowOf.slotOf(logical) : q.logicalKeys == 0 ? 0 : nRows++;
            if (row >= cap) {
                cap = Math.max(cap * 2, row + 1);
                keyOfRow = Arrays.copyOf(keyOfRow, cap);
                counts = Arrays.copyOf(counts, cap);
                for (int a = 0; a < nAgg; a++) {
                    dv[a] = Arrays.copyOf(dv[a], cap);
                    lv[a] = Arrays.copyOf(lv[a], cap);
                    seen[a] = Arrays.copyOf(seen[a], cap);
                }
            }
            keyOfRow[row] = logical;
            counts[row] += n;
            for (int a = 0; a < nAgg; a++) {
                CompiledQuery.AggPlan p = q.aggs[a];
                switch (p.mode()) {
                    case COUNT -> {}
                    case DIRECT -> direct(q, p, merged, g, a, row, dv, lv, seen);
                    case POST -> {
                        double f = p.factorByCode()[code];
                        double v;
                        if (p.kind() == Expr.AggKind.SUM || p.kind() == Expr.AggKind.AVG) {
                            dv[a][row] += f * merged.d[p.sumAcc()][g];
                            break;
                        }
                        double lo = merged.d[p.minAcc()][g];
                        double hi = merged.d[p.maxAcc()][g];
                        if (p.kind() == Expr.AggKind.MIN) {
                            v = f >= 0 ? f * lo : f * hi;
                            dv[a][row] = seen[a][row] ? Partial.minD(dv[a][row], v) : v;
                        } else {
                            v = f >= 0 ? f * hi : f * lo;
                            dv[a][row] = seen[a][row] ? Partial.maxD(dv[a][row], v) : v;
                        }
                        seen[a][row] = true;
                    }
                }
            }
        }
        int rows = appended ? rowOf.size() : nRows;
        AggColumns values = new AggColumns(nAgg, rows);
        for (int a = 0; a < nAgg; a++) {
            for (int r = 0; r < rows; r++) {
                values.set(a, r, value(q, q.aggs[a], a, r, counts[r], dv, lv));
            }
        }
        return output(q, rows, keyOfRow, values, stats);
    }

    /** Aggregate results per result row, unboxed: a long or a double per cell, or null. */
    private static final class AggColumns {
        final long[][] longs;
        final double[][] doubles;
        final String[][] strings;
        final boolean[][] nulls;
        final boolean[] isLong;

        AggColumns(int aggs, int rows) {
            longs = new long[aggs][];
            doubles = new double[aggs][];
            nulls = new boolean[aggs][rows];
            isLong = new boolean[aggs];
            strings = new String[aggs][];
            for (int a = 0; a < aggs; a++) {
                longs[a] = new long[rows];
                doubles[a] = new double[rows];
            }
        }

        void set(int a, int r, Object v) {
            if (v == null) {
                nulls[a][r] = true;
            } else if (v instanceof Long l) {
                isLong[a] = true;
                longs[a][r] = l;
            } else if (v instanceof String str) {
                if (strings[a] == null) {
                    strings[a] = new String[nulls[a].length];
                }
                strings[a][r] = str;
            } else {
                doubles[a][r] = (Double) v;
            }
        }

        Object get(int a, int r) {
            return nulls[a][r]
                    ? null
                    : strings[a] != null ? strings[a][r] : isLong[a] ? (Object) longs[a][r] : (Object) doubles[a][r];
        }
    }

    private static void direct(
            CompiledQuery q,
            CompiledQuery.AggPlan p,
            Partial m,
            int g,
            int a,
            int row,
            double[][] dv,
            long[][] lv,
            boolean[][] seen) {
        switch (p.kind()) {
            case SUM, AVG -> {
                if (q.accs[p.sumAcc()].kind() == CompiledQuery.AccKind.SUM_L) {
                    try {
                        lv[a][row] = Math.addExact(lv[a][row], m.l[p.sumAcc()][g]);
                    } catch (ArithmeticException e) {
                        CompiledQuery.Acc acc = q.accs[p.sumAcc()];
                        throw acc.text() != null
                                ? Partial.sumOverflow(acc.text())
                                : Partial.sumOverflow(q, acc.column());
                    }
                } else {
                    dv[a][row] += m.d[p.sumAcc()][g];
                }
            }
            case MIN -> {
                if (q.accs[p.minAcc()].kind() == CompiledQuery.AccKind.MIN_L) {
                    long v = m.l[p.minAcc()][g];
                    lv[a][row] = seen[a][row] ? Math.min(lv[a][row], v) : v;
                } else {
                    double v = m.d[p.minAcc()][g];
                    dv[a][row] = seen[a][row] ? Partial.minD(dv[a][row], v) : v;
                }
                seen[a][row] = true;
            }
            case MAX -> {
                if (q.accs[p.maxAcc()].kind() == CompiledQuery.AccKind.MAX_L) {
                    long v = m.l[p.maxAcc()][g];
                    lv[a][row] = seen[a][row] ? Math.max(lv[a][row], v) : v;
                } else {
                    double v = m.d[p.maxAcc()][g];
                    dv[a][row] = seen[a][row] ? Partial.maxD(dv[a][row], v) : v;
                }
                seen[a][row] = true;
            }
            default -> {}
        }
    }

    /** The SQL value of aggregate {@code a} for a result row: Long, Double or null (no rows). */
    private static Object value(
            CompiledQuery q, CompiledQuery.AggPlan p, int a, int r, long count, double[][] dv, long[][] lv) {
        if (p.mode() == CompiledQuery.Mode.COUNT) {
            return count;
        }
        if (count == 0) {
            return null;
        }
        boolean longAcc = p.mode() == CompiledQuery.Mode.DIRECT
                && switch (p.kind()) {
                    case SUM, AVG -> q.accs[p.sumAcc()].kind() == CompiledQuery.AccKind.SUM_L;
                    case MIN -> q.accs[p.minAcc()].kind() == CompiledQuery.AccKind.MIN_L;
                    case MAX -> q.accs[p.maxAcc()].kind() == CompiledQuery.AccKind.MAX_L;
                    default -> false;
                };
        if (p.kind() == Expr.AggKind.AVG) {
            return (longAcc ? (double) lv[a][r] : dv[a][r]) / count;
        }
        if (longAcc) {
            CompiledQuery.Acc acc = q.accs[
                    p.kind() == Expr.AggKind.MIN ? p.minAcc() : p.kind() == Expr.AggKind.MAX ? p.maxAcc() : p.sumAcc()];
            if (acc.codes()) {
                return QueryCompiler.scalar(q.fact.dictionary(acc.column()), (int) lv[a][r]);
            }
            return lv[a][r];
        }
        return p.longResult() ? (Object) Math.round(dv[a][r]) : (Object) dv[a][r];
    }

    private static QueryResult output(
            CompiledQuery q, int rows, long[] logicalKeys, AggColumns aggValues, QueryStats stats) {
        LogicalQuery lq = q.logical;
        int nKeys = q.logicalKeys;
        int[] keyCodes = new int[rows * nKeys];
        for (int r = 0; r < rows; r++) {
            for (int i = 0; i < nKeys; i++) {
                keyCodes[r * nKeys + i] = (int) ((logicalKeys[r] / q.keyStrides[i]) % q.keyCards[i]);
            }
        }
        java.util.function.IntFunction<java.util.function.Function<Expr, Object>> leaves = r -> e -> switch (e) {
            case Expr.KeyRef k ->
                QueryCompiler.scalar(q.fact.dictionary(q.keyColumns[k.key()]), keyCodes[r * nKeys + k.key()]);
            case Expr.AggRef a -> aggValues.get(a.agg(), r);
            default -> throw new IllegalStateException("row-level expression in the output: " + e.text());
        };
        List<Integer> kept = new ArrayList<>(rows);
        for (int r = 0; r < rows; r++) {
            if (lq.having() == null || Boolean.TRUE.equals(ScalarEval.eval(lq.having(), leaves.apply(r)))) {
                kept.add(r);
            }
        }
        if (!lq.orderBy().isEmpty()) {
            int no = lq.orderBy().size();
            Object[][] sortValues = new Object[rows][];
            for (int r : kept) {
                sortValues[r] = new Object[no];
                for (int i = 0; i < no; i++) {
                    sortValues[r][i] = ScalarEval.eval(lq.orderBy().get(i).expr(), leaves.apply(r));
                }
            }
            Comparator<Integer> cmp = (x, y) -> {
                for (int i = 0; i < no; i++) {
                    LogicalQuery.Order o = lq.orderBy().get(i);
                    Object a = sortValues[x][i];
                    Object b = sortValues[y][i];
                    int c;
                    if (a == null || b == null) {
                        c = a == b ? 0 : (a == null) == o.nullsFirst() ? -1 : 1;
                    } else {
                        c = ScalarEval.compare(a, b);
                        if (o.descending()) {
                            c = -c;
                        }
                    }
                    if (c != 0) {
                        return c;
                    }
                }
                return 0;
            };
            kept.sort(cmp);
        }
        int from = (int) Math.min(kept.size(), lq.offset());
        int to = lq.limit() < 0 ? kept.size() : from + (int) Math.min(kept.size() - from, lq.limit());
        int[] out = new int[to - from];
        for (int i = 0; i < out.length; i++) {
            out[i] = kept.get(from + i);
        }
        int n = out.length;
        List<LogicalQuery.Output> outputs = lq.outputs();
        List<String> names = new ArrayList<>();
        List<ColumnType> types = new ArrayList<>();
        Object[] columns = new Object[outputs.size()];
        boolean[][] nulls = new boolean[outputs.size()][];
        for (int c = 0; c < outputs.size(); c++) {
            Expr e = outputs.get(c).expr();
            ColumnType t = e.type() == null ? ColumnType.STRING : e.type();
            names.add(outputs.get(c).name());
            types.add(t);
            Object col = switch (t) {
                case STRING -> new String[n];
                case DOUBLE -> new double[n];
                default -> new long[n];
            };
            boolean[] nm = null;
            if (fillDirectly(q, e, col, out, keyCodes, nKeys, aggValues)) {
                columns[c] = col;
                nulls[c] = e instanceof Expr.AggRef a ? nullsOf(aggValues.nulls[a.agg()], out) : null;
                continue;
            }
            for (int i = 0; i < n; i++) {
                Object v = ScalarEval.eval(e, leaves.apply(out[i]));
                if (v == null) {
                    if (nm == null) {
                        nm = new boolean[n];
                    }
                    nm[i] = true;
                    continue;
                }
                switch (col) {
                    case String[] s -> s[i] = String.valueOf(v);
                    case double[] d -> d[i] = ((Number) v).doubleValue();
                    case long[] l -> l[i] = v instanceof Double dd ? Math.round(dd) : ((Number) v).longValue();
                    default -> throw new IllegalStateException();
                }
            }
            columns[c] = col;
            nulls[c] = nm;
        }
        return new QueryResult(names, types, columns, nulls, n, stats);
    }

    /** Copies a bare group key or aggregate into its column without boxing; false for other expressions. */
    private static boolean fillDirectly(
            CompiledQuery q, Expr e, Object col, int[] rows, int[] keyCodes, int nKeys, AggColumns aggs) {
        int n = rows.length;
        if (e instanceof Expr.KeyRef k) {
            io.numacube.engine.storage.Dictionary d = q.fact.dictionary(q.keyColumns[k.key()]);
            for (int i = 0; i < n; i++) {
                int code = keyCodes[rows[i] * nKeys + k.key()];
                switch (col) {
                    case String[] s -> s[i] = d.string(code);
                    case long[] l -> l[i] = d.longValue(code);
                    default -> throw new IllegalStateException("key column type");
                }
            }
            return true;
        }
        if (e instanceof Expr.AggRef a) {
            int j = a.agg();
            for (int i = 0; i < n; i++) {
                int r = rows[i];
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
