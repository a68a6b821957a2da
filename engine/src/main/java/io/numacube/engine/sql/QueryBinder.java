package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.at;
import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;

/**
 * Binds one SELECT statement into a {@link LogicalQuery}, clause by clause in a fixed order (FROM, GROUP BY, WHERE,
 * select list, HAVING, ORDER BY, LIMIT, OFFSET), so that of several errors the first in that order is reported.
 * Refuses the statement shapes numacube does not run (set operations, DISTINCT, WINDOW, QUALIFY, no FROM, no
 * aggregation).
 *
 * <p>Stateless apart from the catalog it reads; each {@link #bind} call binds one query.
 */
final class QueryBinder {

    private final SqlBinder.Catalog catalog;

    QueryBinder(SqlBinder.Catalog catalog) {
        this.catalog = catalog;
    }

    /** A SELECT and its ORDER BY, OFFSET and LIMIT (null when absent), whether written inside or around it. */
    private record Statement(SqlSelect select, SqlNodeList orderList, SqlNode offset, SqlNode fetch) {

        static Statement of(SqlNode root) {
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
            return new Statement(select, orderList, offset, fetch);
        }
    }

    LogicalQuery bind(SqlNode root) {
        Statement st = Statement.of(root);
        SqlSelect select = st.select();
        refuseUnsupportedClauses(select);
        if (CommaJoins.isCommaJoin(select.getFrom())) {
            CommaJoins.rewrite(select, catalog);
        }
        Scope scope = new FromClauseBinder(catalog).bind(select.getFrom());
        List<Expr> groupKeys = GroupByBinder.bind(groupList(select), select.getSelectList(), scope);
        ExpressionBinder expressions = new ExpressionBinder(scope, groupKeys);
        Expr where = select.getWhere() == null
                ? null
                : expressions.condition(
                        SelectAliases.substitute(select.getWhere(), select.getSelectList(), scope),
                        ExpressionBinder.Place.ROW);
        boolean rows = isProjection(select, st.orderList());
        List<LogicalQuery.Output> outputs = new ArrayList<>();
        for (SqlNode item : select.getSelectList()) {
            if (rows) {
                outputs.addAll(Projections.bindItem(item, scope, expressions));
            } else {
                outputs.add(bindOutput(item, expressions));
            }
        }
        Expr having = select.getHaving() == null
                ? null
                : expressions.condition(
                        SelectAliases.substitute(select.getHaving(), select.getSelectList(), scope),
                        ExpressionBinder.Place.OUTPUT);
        List<Expr.Agg> aggregates = expressions.aggregates();
        if (having != null && select.getGroup() == null && aggregates.isEmpty()) {
            throw unsupported(select.getHaving(), "HAVING without GROUP BY or aggregates");
        }
        List<LogicalQuery.Order> order = OrderByBinder.bind(
                orderAliases(st.orderList(), select.getSelectList(), scope),
                outputs,
                expressions,
                rows ? ExpressionBinder.Place.ROW : ExpressionBinder.Place.OUTPUT);
        long limit = st.fetch() == null ? -1 : rowCount(st.fetch(), "LIMIT");
        long offset = st.offset() == null ? 0 : rowCount(st.offset(), "OFFSET");
        return new LogicalQuery(
                scope.fact().name(),
                scope.joins(),
                where,
                groupKeys,
                aggregates,
                outputs,
                having,
                order,
                limit,
                offset,
                rows);
    }

    /**
     * The ORDER BY items with the select aliases named inside an expression replaced ({@code ORDER BY -a}, {@code s *
     * 2}) as {@link SelectAliases} does for WHERE: a table column of the name wins, as in DuckDB. An ordinal or a bare
     * name is left as it is (a bare name is an output's name first, {@link OrderByBinder}).
     */
    private static SqlNodeList orderAliases(SqlNodeList orderList, SqlNodeList selectList, Scope scope) {
        if (orderList == null) {
            return null;
        }
        SqlNodeList out = new SqlNodeList(orderList.getParserPosition());
        for (SqlNode o : orderList) {
            SqlNode e = o;
            while (e.getKind() == SqlKind.DESCENDING
                    || e.getKind() == SqlKind.NULLS_FIRST
                    || e.getKind() == SqlKind.NULLS_LAST) {
                e = ((SqlCall) e).operand(0);
            }
            out.add(e instanceof SqlCall ? SelectAliases.substitute(o, selectList, scope) : o);
        }
        return out;
    }

    /** A SELECT without GROUP BY, DISTINCT, HAVING or any aggregate call: one result row per fact row. */
    private static boolean isProjection(SqlSelect select, SqlNodeList orderList) {
        if (select.getGroup() != null || select.isDistinct() || select.getHaving() != null) {
            return false;
        }
        return !Projections.callsAggregate(select.getSelectList())
                && (orderList == null || !Projections.callsAggregate(orderList));
    }

    /** The GROUP BY list; for {@code SELECT DISTINCT a, b} the select items, as DuckDB plans it. */
    private static SqlNodeList groupList(SqlSelect select) {
        if (!select.isDistinct()) {
            return select.getGroup();
        }
        SqlNodeList items = new SqlNodeList(select.getSelectList().getParserPosition());
        for (SqlNode item : select.getSelectList()) {
            items.add(
                    item.getKind() == org.apache.calcite.sql.SqlKind.AS
                            ? ((org.apache.calcite.sql.SqlCall) item).operand(0)
                            : item);
        }
        return items;
    }

    private static void refuseUnsupportedClauses(SqlSelect select) {
        if (select.isDistinct() && select.getGroup() != null) {
            throw unsupported(select, "SELECT DISTINCT with GROUP BY");
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
    }

    private static LogicalQuery.Output bindOutput(SqlNode item, ExpressionBinder expressions) {
        String alias = null;
        SqlNode e = item;
        if (item.getKind() == SqlKind.AS) {
            alias = ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple();
            e = ((SqlCall) item).operand(0);
        }
        if (e instanceof SqlIdentifier id && id.isStar()) {
            throw unsupported(e, "SELECT * (name the group keys and aggregates)");
        }
        Expr bound = expressions.bind(e, ExpressionBinder.Place.OUTPUT);
        // a column is named as written (c_custkey, even where the join resolves it to the equal o_custkey), as DuckDB
        String name =
                alias != null ? alias : e instanceof SqlIdentifier id ? id.names.getLast() : expressions.nameOf(bound);
        // a condition of the group (k > 2, SUM(v) > 20) is a BOOLEAN column, as in a projection
        return new LogicalQuery.Output(name, Expr.isPredicate(bound) ? Projections.asBoolean(bound) : bound);
    }

    /** The value of a LIMIT or OFFSET: a non-negative integer literal that fits a long. */
    private static long rowCount(SqlNode n, String what) {
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
}
