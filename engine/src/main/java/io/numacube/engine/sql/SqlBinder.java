package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.at;
import static io.numacube.engine.sql.BindErrors.bindError;
import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;

/**
 * Turns SQL text into a {@link LogicalQuery}: Apache Calcite's parser builds the syntax tree, this class resolves
 * names against the catalog, checks types and the supported shape, and collects the aggregates. Calcite's validator
 * and optimizer are not used.
 *
 * <p>Supported: {@code SELECT items FROM fact [alias] [[INNER] JOIN lookup [alias] USING (k) | ON a.k = b.k]
 * [WHERE p] [GROUP BY dims (names, aliases, ordinals)] [HAVING p] [ORDER BY names, aliases, ordinals or expressions
 * [ASC|DESC] [NULLS FIRST|LAST]] [LIMIT n] [OFFSET m]}; predicates {@code = <> < <= > >= [NOT] IN [NOT] BETWEEN AND OR
 * NOT}; {@code + - * /}; SUM, COUNT, COUNT(*), MIN, MAX, AVG over numeric expressions of measures, INT dimensions and
 * lookup columns. Anything else is refused with INVALID_INPUT naming the construct and its line and column; parse
 * errors are SYNTAX; unknown or ambiguous names and type mismatches are BIND. Identifiers are case-insensitive.
 *
 * <p>Stateless; thread-safe.
 */
public final class SqlBinder {

    /** Where table schemas come from. */
    @FunctionalInterface
    public interface Catalog {
        Optional<TableSchema> schema(String table);
    }

    /** The deepest expression nesting bound (DuckDB's default max_expression_depth); AND/OR chains and runs of NOT
     * are flattened first and do not count per term. */
    public static final int MAX_DEPTH = 1000;

    private SqlBinder() {}

    /** Parses and binds {@code sql}. */
    public static LogicalQuery bind(String sql, Catalog catalog) {
        if (sql != null && sql.length() > SqlTextParser.BIG_STACK_TEXT) {
            return SqlTextParser.onBigStack(() -> new Binding(catalog).bindQuery(parse(sql)));
        }
        return new Binding(catalog).bindQuery(parse(sql));
    }

    /** Loads and initialises the parser's classes (about half a second the first time), so the first query does not
     * pay for it. Safe to call from any thread; failures are ignored. */
    public static void warmUp() {
        try {
            parse("SELECT k, SUM(v) FROM t JOIN l USING (k) WHERE d BETWEEN DATE '2025-01-01' AND DATE '2025-02-01'"
                    + " GROUP BY k ORDER BY 2 DESC LIMIT 1");
        } catch (RuntimeException e) {
            // a warm-up only
        }
    }

    /** Parses one query (a trailing semicolon is allowed). */
    public static SqlNode parse(String sql) {
        return SqlTextParser.parse(sql);
    }

    /** Name resolution and collected state of one query. */
    private static final class Binding {
        private final Catalog catalog;
        private Scope scope;
        private final List<Expr.Column> groupKeys = new ArrayList<>();
        private ExpressionBinder expressions;

        Binding(Catalog catalog) {
            this.catalog = catalog;
        }

        LogicalQuery bindQuery(SqlNode root) {
            SqlNodeList orderList = null;
            SqlNode offset = null;
            SqlNode fetch = null;
            SqlNode q = root;
            if (q instanceof SqlOrderBy ob) {
                orderList = ob.orderList;
                offset = ob.offset;
                fetch = ob.fetch;
                q = ob.query;
            }
            if (!(q instanceof SqlSelect select)) {
                throw unsupported(q, q.getKind() + " (only a single SELECT)");
            }
            if (select.getOrderList() != null && !select.getOrderList().isEmpty()) {
                orderList = select.getOrderList();
            }
            if (select.getOffset() != null) {
                offset = select.getOffset();
            }
            if (select.getFetch() != null) {
                fetch = select.getFetch();
            }
            if (select.isDistinct()) {
                throw unsupported(select, "SELECT DISTINCT (use GROUP BY)");
            }
            if (select.getWindowList() != null && !select.getWindowList().isEmpty()) {
                throw unsupported(select.getWindowList(), "WINDOW");
            }
            if (select.getQualify() != null) {
                throw unsupported(select.getQualify(), "QUALIFY");
            }
            if (select.getFrom() == null) {
                throw unsupported(select, "SELECT without FROM");
            }
            scope = new FromClauseBinder(catalog).bind(select.getFrom());
            if (select.getGroup() != null) {
                for (SqlNode g : select.getGroup()) {
                    bindGroupKey(g, select.getSelectList());
                }
            }
            expressions = new ExpressionBinder(scope, groupKeys);
            List<Expr.Agg> aggregates = expressions.aggregates();
            Expr where = select.getWhere() == null ? null : predicate(select.getWhere(), false);
            List<LogicalQuery.Output> outputs = new ArrayList<>();
            for (SqlNode item : select.getSelectList()) {
                outputs.add(bindOutput(item));
            }
            Expr having = select.getHaving() == null ? null : predicate(select.getHaving(), true);
            if (having != null && select.getGroup() == null && aggregates.isEmpty()) {
                throw unsupported(select.getHaving(), "HAVING without GROUP BY or aggregates");
            }
            if (aggregates.isEmpty() && groupKeys.isEmpty()) {
                throw unsupported(
                        select.getSelectList(),
                        "a query without GROUP BY or aggregates (numacube answers aggregation queries)");
            }
            List<LogicalQuery.Order> order = new ArrayList<>();
            if (orderList != null) {
                for (SqlNode o : orderList) {
                    order.add(bindOrder(o, outputs));
                }
            }
            long limit = fetch == null ? -1 : count(fetch, "LIMIT");
            long off = offset == null ? 0 : count(offset, "OFFSET");
            return new LogicalQuery(
                    scope.fact().name(),
                    scope.lookup() == null ? null : scope.lookup().name(),
                    scope.factKey(),
                    scope.lookupKey(),
                    where,
                    groupKeys,
                    aggregates,
                    outputs,
                    having,
                    order,
                    limit,
                    off);
        }

        private long count(SqlNode n, String what) {
            if (n instanceof SqlNumericLiteral lit
                    && lit.isExact()
                    && lit.bigDecimalValue().scale() <= 0
                    && lit.bigDecimalValue().signum() >= 0) {
                if (lit.bigDecimalValue().toBigInteger().bitLength() > 63) {
                    throw new NumacubeException(
                            NumacubeException.Kind.INVALID_INPUT,
                            "22003",
                            what
                                    + " is too large: value="
                                    + lit.bigDecimalValue().toPlainString() + " limit="
                                    + Long.MAX_VALUE,
                            at(n),
                            null);
                }
                return lit.bigDecimalValue().longValueExact();
            }
            throw unsupported(n, what + " must be a non-negative integer literal");
        }

        private void bindGroupKey(SqlNode g, SqlNodeList selectList) {
            SqlNode target = g;
            if (g instanceof SqlNumericLiteral lit) {
                int ordinal = lit.intValue(true);
                if (ordinal < 1 || ordinal > selectList.size()) {
                    throw bindError(
                            g,
                            "42P10",
                            "GROUP BY ordinal out of range: ordinal=" + ordinal + " items=" + selectList.size());
                }
                target = stripAlias(selectList.get(ordinal - 1));
            } else if (g instanceof SqlIdentifier id && id.names.size() == 1 && !scope.hasColumn(id.getSimple())) {
                for (SqlNode item : selectList) {
                    if (item.getKind() == SqlKind.AS
                            && ((SqlIdentifier) ((SqlCall) item).operand(1))
                                    .getSimple()
                                    .equalsIgnoreCase(id.getSimple())) {
                        target = ((SqlCall) item).operand(0);
                    }
                }
            }
            if (!(target instanceof SqlIdentifier)) {
                throw unsupported(g, "GROUP BY of an expression (group by dimension columns)");
            }
            Expr.Column c = scope.column(target);
            if (c.side() == Expr.Side.LOOKUP) {
                throw unsupported(g, "GROUP BY a column of the joined table (group by the join key instead)");
            }
            if (!c.type().isDimension()) {
                throw bindError(g, "42803", "GROUP BY needs a dimension column: column=" + c.name() + " is a measure");
            }
            if (!groupKeys.contains(c)) {
                groupKeys.add(c);
            }
        }

        private static SqlNode stripAlias(SqlNode item) {
            return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
        }

        private LogicalQuery.Output bindOutput(SqlNode item) {
            String alias = null;
            SqlNode e = item;
            if (item.getKind() == SqlKind.AS) {
                alias = ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple();
                e = ((SqlCall) item).operand(0);
            }
            if (e instanceof SqlIdentifier id && id.isStar()) {
                throw unsupported(e, "SELECT * (name the group keys and aggregates)");
            }
            Expr bound = output(e);
            return new LogicalQuery.Output(alias != null ? alias : bound.text(), bound);
        }

        private LogicalQuery.Order bindOrder(SqlNode o, List<LogicalQuery.Output> outputs) {
            boolean desc = false;
            Boolean nullsFirst = null;
            SqlNode e = o;
            while (true) {
                if (e.getKind() == SqlKind.DESCENDING) {
                    desc = true;
                } else if (e.getKind() == SqlKind.NULLS_FIRST) {
                    nullsFirst = true;
                } else if (e.getKind() == SqlKind.NULLS_LAST) {
                    nullsFirst = false;
                } else {
                    break;
                }
                e = ((SqlCall) e).operand(0);
            }
            Expr bound = null;
            if (e instanceof SqlNumericLiteral lit) {
                int ordinal = lit.intValue(true);
                if (ordinal < 1 || ordinal > outputs.size()) {
                    throw bindError(
                            e,
                            "42P10",
                            "ORDER BY ordinal out of range: ordinal=" + ordinal + " items=" + outputs.size());
                }
                bound = outputs.get(ordinal - 1).expr();
            } else if (e instanceof SqlIdentifier id && id.names.size() == 1) {
                for (LogicalQuery.Output out : outputs) {
                    if (out.name().equalsIgnoreCase(id.getSimple())) {
                        bound = out.expr();
                        break;
                    }
                }
            }
            if (bound == null) {
                bound = output(e);
            }
            return new LogicalQuery.Order(bound, desc, nullsFirst != null && nullsFirst);
        }

        /** An output-level expression: group keys, aggregates, literals and arithmetic of them. */
        private Expr output(SqlNode e) {
            return expressions.bind(e, ExpressionBinder.Place.OUTPUT);
        }

        private Expr predicate(SqlNode e, boolean outputLevel) {
            return expressions.condition(e, outputLevel ? ExpressionBinder.Place.OUTPUT : ExpressionBinder.Place.ROW);
        }
    }
}
