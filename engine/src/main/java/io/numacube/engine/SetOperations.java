package io.numacube.engine;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.result.QueryStats;
import io.numacube.engine.schema.ColumnType;
import io.numacube.numa.base.NumacubeException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOperator;
import org.apache.calcite.sql.SqlUtil;

/**
 * Evaluates {@code UNION [ALL]}, {@code INTERSECT [ALL]} and {@code EXCEPT [ALL]} over the results of their branches,
 * as DuckDB does: the columns are the first branch's names; each column's type is the branches' common type (INTEGER
 * with BIGINT is BIGINT, an integer with a DECIMAL a DECIMAL of the larger scale, a number with a DOUBLE a DOUBLE, a
 * DATE with a TIMESTAMP a TIMESTAMP, an integer, DECIMAL, DATE or BOOLEAN with text text, a bare {@code NULL} item
 * any type); other pairs are refused (SQLSTATE 42804) rather than guessed. Without ALL the result has no duplicate
 * rows (NULLs equal, {@code -0.0} equal to {@code 0.0}); rows keep their first branch order. INTERSECT binds tighter
 * than UNION and EXCEPT, as the parser nests them.
 *
 * <p>Stateless; the branches run through the function given to {@link #evaluate}.
 */
final class SetOperations {

    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final BigDecimal DECIMAL_LIMIT = BigDecimal.TEN.pow(18);
    private static final QueryStats NO_STATS =
            new QueryStats(0, 0, 0, 0, 0, 0, 0, Map.of(), Map.of(), "set operation", QueryStats.Phases.NONE, Map.of());

    private SetOperations() {}

    /** Whether {@code n} is a set operation (UNION, INTERSECT or EXCEPT, with or without ALL). */
    static boolean isSetOperation(SqlNode n) {
        return n instanceof SqlCall call && call.getOperator() instanceof SqlSetOperator;
    }

    /**
     * The rows of one side: its names, types, DECIMAL scales and declared precisions ({@link QueryResult#precision}),
     * bare-NULL columns and values (boxed, per row).
     */
    private record Rows(
            List<String> names,
            ColumnType[] types,
            int[] scales,
            int[] precisions,
            boolean[] untyped,
            List<Object[]> values) {}

    /**
     * The result of the set operation {@code op}; each branch that is not itself a set operation runs through
     * {@code branch}.
     */
    static QueryResult evaluate(SqlCall op, Function<SqlNode, QueryResult> branch) {
        Rows rows = rows(op, branch);
        return result(rows);
    }

    private static Rows rows(SqlNode node, Function<SqlNode, QueryResult> branch) {
        if (!isSetOperation(node)) {
            return leaf(node, branch.apply(node));
        }
        SqlCall op = (SqlCall) node;
        Rows left = rows(op.operand(0), branch);
        Rows right = rows(op.operand(1), branch);
        if (left.names().size() != right.names().size()) {
            throw error(
                    op,
                    "42601",
                    "each " + op.getOperator().getName() + " query must have the same number of columns: left="
                            + left.names().size() + " right=" + right.names().size());
        }
        Rows unified = unify(op, left, right);
        List<Object[]> l = convert(left, unified);
        List<Object[]> r = convert(right, unified);
        boolean all = ((SqlSetOperator) op.getOperator()).isAll();
        List<Object[]> out = switch (op.getKind()) {
            case UNION -> union(l, r, all);
            case INTERSECT -> intersectOrExcept(l, r, all, true);
            case EXCEPT -> intersectOrExcept(l, r, all, false);
            default ->
                throw error(op, "0A000", "unsupported SQL: " + op.getOperator().getName());
        };
        return new Rows(
                unified.names(), unified.types(), unified.scales(), unified.precisions(), unified.untyped(), out);
    }

    private static Rows leaf(SqlNode node, QueryResult r) {
        int n = r.columnCount();
        ColumnType[] types = r.columnTypes().toArray(new ColumnType[0]);
        int[] scales = new int[n];
        int[] precisions = new int[n];
        boolean[] untyped = bareNulls(node, n);
        List<Object[]> values = new ArrayList<>(r.rowCount());
        for (int c = 0; c < n; c++) {
            scales[c] = r.scale(c);
            precisions[c] = r.precision(c);
        }
        for (int row = 0; row < r.rowCount(); row++) {
            Object[] v = new Object[n];
            for (int c = 0; c < n; c++) {
                v[c] = r.isNull(row, c) ? null : value(r, row, c);
            }
            values.add(v);
        }
        return new Rows(r.columnNames(), types, scales, precisions, untyped, values);
    }

    private static Object value(QueryResult r, int row, int c) {
        return switch (r.columnTypes().get(c)) {
            case STRING -> r.getString(row, c);
            case DOUBLE -> r.getDouble(row, c);
            case DECIMAL -> r.getDecimal(row, c);
            case INT, LONG, DATE, TIMESTAMP, BOOLEAN -> r.getLong(row, c);
        };
    }

    /** The select items of a plain SELECT branch that are the literal NULL (typeless, as in DuckDB). */
    private static boolean[] bareNulls(SqlNode node, int columns) {
        boolean[] bare = new boolean[columns];
        SqlNode q = node instanceof SqlOrderBy ob ? ob.query : node;
        if (q instanceof SqlSelect select && select.getSelectList().size() == columns) {
            for (int c = 0; c < columns; c++) {
                SqlNode item = select.getSelectList().get(c);
                if (item.getKind() == SqlKind.AS) {
                    item = ((SqlCall) item).operand(0);
                }
                bare[c] = SqlUtil.isNullLiteral(item, false);
            }
        }
        return bare;
    }

    /**
     * The common names (the left's), types and scales of two sides; refuses types without a common one. A DECIMAL keeps
     * its declared precision where both sides declare the same precision and scale, as PostgreSQL keeps a common typmod
     * (numeric(6,2) with numeric(8,2), with a BIGINT or with NULL is plain numeric).
     */
    private static Rows unify(SqlCall op, Rows left, Rows right) {
        int n = left.names().size();
        ColumnType[] types = new ColumnType[n];
        int[] scales = new int[n];
        int[] precisions = new int[n];
        boolean[] untyped = new boolean[n];
        for (int c = 0; c < n; c++) {
            untyped[c] = left.untyped()[c] && right.untyped()[c];
            boolean same = left.precisions()[c] == right.precisions()[c] && left.scales()[c] == right.scales()[c];
            precisions[c] = same ? left.precisions()[c] : 0;
            if (left.untyped()[c] || right.untyped()[c]) {
                boolean useRight = left.untyped()[c] && !right.untyped()[c];
                types[c] = useRight ? right.types()[c] : left.types()[c];
                scales[c] = useRight ? right.scales()[c] : left.scales()[c];
                continue;
            }
            types[c] = common(op, left.names().get(c), left.types()[c], right.types()[c]);
            scales[c] = types[c] == ColumnType.DECIMAL ? Math.max(left.scales()[c], right.scales()[c]) : 0;
        }
        return new Rows(left.names(), types, scales, precisions, untyped, List.of());
    }

    private static ColumnType common(SqlCall op, String column, ColumnType a, ColumnType b) {
        if (a == b) {
            return a;
        }
        if (integer(a) && integer(b)) {
            return ColumnType.LONG;
        }
        if (exact(a) && exact(b)) {
            return ColumnType.DECIMAL;
        }
        if ((exact(a) || a == ColumnType.DOUBLE) && (exact(b) || b == ColumnType.DOUBLE)) {
            return ColumnType.DOUBLE;
        }
        if (dated(a) && dated(b)) {
            return ColumnType.TIMESTAMP;
        }
        if ((a == ColumnType.STRING && asText(b)) || (b == ColumnType.STRING && asText(a))) {
            return ColumnType.STRING;
        }
        throw error(
                op,
                "42804",
                op.getOperator().getName() + " types " + sqlName(a) + " and " + sqlName(b)
                        + " cannot be matched: column=" + column
                        + " — CAST one side to the other's type");
    }

    private static String sqlName(ColumnType t) {
        return switch (t) {
            case STRING -> "VARCHAR";
            case INT -> "INTEGER";
            case LONG -> "BIGINT";
            default -> t.name();
        };
    }

    private static boolean integer(ColumnType t) {
        return t == ColumnType.INT || t == ColumnType.LONG;
    }

    private static boolean exact(ColumnType t) {
        return integer(t) || t == ColumnType.DECIMAL;
    }

    private static boolean dated(ColumnType t) {
        return t == ColumnType.DATE || t == ColumnType.TIMESTAMP;
    }

    /** Types whose text DuckDB's cast to VARCHAR writes as numacube does (not DOUBLE, whose digits may differ). */
    private static boolean asText(ColumnType t) {
        return exact(t) || t == ColumnType.DATE || t == ColumnType.BOOLEAN;
    }

    private static List<Object[]> convert(Rows side, Rows to) {
        int n = to.names().size();
        List<Object[]> out = new ArrayList<>(side.values().size());
        for (Object[] row : side.values()) {
            Object[] v = new Object[n];
            for (int c = 0; c < n; c++) {
                v[c] = row[c] == null ? null : cast(row[c], side.types()[c], to.types()[c], to.scales()[c]);
            }
            out.add(v);
        }
        return out;
    }

    private static Object cast(Object v, ColumnType from, ColumnType to, int scale) {
        if (from == to && to != ColumnType.DECIMAL) {
            return v;
        }
        return switch (to) {
            case LONG -> v;
            case DECIMAL -> (v instanceof BigDecimal d ? d : BigDecimal.valueOf((Long) v)).setScale(scale);
            case DOUBLE -> v instanceof BigDecimal d ? decimalToDouble(d) : v instanceof Long l ? (double) l : v;
            case TIMESTAMP -> from == ColumnType.DATE ? (Long) v * MICROS_PER_DAY : v;
            case STRING -> text(v, from);
            default -> v;
        };
    }

    /** As DuckDB casts a DECIMAL to DOUBLE: the unscaled integer divided by ten to the scale. */
    private static double decimalToDouble(BigDecimal d) {
        return d.unscaledValue().doubleValue() / Math.pow(10, d.scale());
    }

    private static String text(Object v, ColumnType from) {
        return switch (from) {
            case DECIMAL -> ((BigDecimal) v).toPlainString();
            case DATE -> java.time.LocalDate.ofEpochDay((Long) v).toString();
            case BOOLEAN -> (Long) v != 0 ? "true" : "false";
            default -> String.valueOf(v);
        };
    }

    private static List<Object[]> union(List<Object[]> l, List<Object[]> r, boolean all) {
        List<Object[]> out = new ArrayList<>(l.size() + r.size());
        out.addAll(l);
        out.addAll(r);
        if (all) {
            return out;
        }
        Set<List<Object>> seen = new LinkedHashSet<>();
        List<Object[]> distinct = new ArrayList<>();
        for (Object[] row : out) {
            if (seen.add(key(row))) {
                distinct.add(row);
            }
        }
        return distinct;
    }

    /**
     * INTERSECT keeps the left rows found on the right, EXCEPT those not found; with ALL a right row matches one left
     * row, without ALL the result has each row once.
     */
    private static List<Object[]> intersectOrExcept(
            List<Object[]> l, List<Object[]> r, boolean all, boolean intersect) {
        Map<List<Object>, Integer> right = new HashMap<>();
        for (Object[] row : r) {
            right.merge(key(row), 1, Integer::sum);
        }
        Set<List<Object>> emitted = new java.util.HashSet<>();
        List<Object[]> out = new ArrayList<>();
        for (Object[] row : l) {
            List<Object> k = key(row);
            int count = right.getOrDefault(k, 0);
            if (all && count > 0) {
                right.put(k, count - 1);
            }
            boolean keep = intersect == (count > 0);
            if (keep && (all || emitted.add(k))) {
                out.add(row);
            }
        }
        return out;
    }

    /** A row as a key: NULLs equal, {@code -0.0} as {@code 0.0}, NaN equal to NaN (DuckDB's DISTINCT). */
    private static List<Object> key(Object[] row) {
        Object[] k = row.clone();
        for (int c = 0; c < k.length; c++) {
            if (k[c] instanceof Double d && d == 0.0) {
                k[c] = 0.0;
            }
        }
        return Arrays.asList(k);
    }

    private static QueryResult result(Rows rows) {
        int n = rows.names().size();
        int count = rows.values().size();
        Object[] columns = new Object[n];
        boolean[][] nulls = new boolean[n][];
        for (int c = 0; c < n; c++) {
            nulls[c] = new boolean[count];
            columns[c] = column(rows, c, nulls[c]);
        }
        return new QueryResult(
                rows.names(),
                Arrays.asList(rows.types()),
                rows.scales(),
                rows.precisions(),
                columns,
                nulls,
                count,
                NO_STATS);
    }

    private static Object column(Rows rows, int c, boolean[] nulls) {
        int count = rows.values().size();
        ColumnType type = rows.types()[c];
        Object array = switch (type) {
            case STRING -> new String[count];
            case DOUBLE -> new double[count];
            default -> new long[count];
        };
        for (int row = 0; row < count; row++) {
            Object v = rows.values().get(row)[c];
            if (v == null) {
                nulls[row] = true;
            } else if (array instanceof String[] s) {
                s[row] = (String) v;
            } else if (array instanceof double[] d) {
                d[row] = (Double) v;
            } else {
                ((long[]) array)[row] = v instanceof BigDecimal b ? unscaled(b) : (Long) v;
            }
        }
        return array;
    }

    private static long unscaled(BigDecimal b) {
        if (b.unscaledValue().abs().compareTo(DECIMAL_LIMIT.toBigInteger()) >= 0) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "22003",
                    "a set operation's DECIMAL value needs more than 18 digits: value=" + b.toPlainString(),
                    null,
                    null);
        }
        return b.unscaledValue().longValueExact();
    }

    private static NumacubeException error(SqlNode at, String code, String message) {
        return Subqueries.error(at, code, message);
    }
}
