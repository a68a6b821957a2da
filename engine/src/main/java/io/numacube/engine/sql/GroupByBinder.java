package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;
import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.plan.Expr;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;

/**
 * Binds a GROUP BY clause into the query's group keys: dimension columns of the fact table, named directly, by a
 * select-list alias (when no column has that name) or by a 1-based select-list ordinal. A key named twice is kept
 * once.
 *
 * <p>Stateless; thread-safe.
 */
final class GroupByBinder {

    private GroupByBinder() {}

    /** The distinct group keys in the order first named; empty when {@code group} is null. */
    static List<Expr> bind(SqlNodeList group, SqlNodeList selectList, Scope scope) {
        List<Expr> keys = new ArrayList<>();
        if (group != null) {
            ExpressionBinder rows = new ExpressionBinder(scope, List.of());
            for (SqlNode g : group) {
                Expr c = bindKey(g, selectList, scope, rows);
                if (!keys.contains(c)) {
                    keys.add(c);
                }
            }
        }
        return keys;
    }

    private static Expr bindKey(SqlNode g, SqlNodeList selectList, Scope scope, ExpressionBinder rows) {
        SqlNode target = target(g, selectList, scope);
        if (!(target instanceof SqlIdentifier)) {
            return expressionKey(g, rows.bind(target, ExpressionBinder.Place.ROW));
        }
        return scope.column(target);
    }

    /**
     * A GROUP BY expression: a value of columns of the fact table or of joined tables ({@code year(trade_date)},
     * {@code CASE WHEN desk IN (...) ...}, {@code make_date(year, month, day)}, {@code round(price)}), which the
     * planner evaluates once per code (or combination of codes) of those columns; a plain column is coded at query
     * time for it. A condition ({@code v > 10}) is its BOOLEAN value ({@link Projections#asBoolean}: TRUE, FALSE, or
     * NULL where an operand is NULL, a group of its own, as DuckDB).
     */
    private static Expr expressionKey(SqlNode g, Expr bound) {
        Expr e = Expr.isPredicate(bound) ? Projections.asBoolean(bound) : bound;
        if (e.type() == null) {
            throw unsupported(g, "GROUP BY a condition");
        }
        java.util.Set<Object> sources = new java.util.HashSet<>();
        boolean[] aggregate = {false};
        Expr.walk(e, x -> {
            if (x instanceof Expr.Column c) {
                sources.add(c.side() == Expr.Side.LOOKUP ? "lookup" : c.index());
            }
            aggregate[0] |= x instanceof Expr.Agg;
        });
        if (aggregate[0] || sources.isEmpty()) {
            throw unsupported(
                    g,
                    "GROUP BY an expression of " + (sources.isEmpty() ? "no column" : "an aggregate") + ": "
                            + e.text());
        }
        return e;
    }

    /** What a GROUP BY item stands for: the select item an ordinal or alias names, else the item itself. */
    private static SqlNode target(SqlNode g, SqlNodeList selectList, Scope scope) {
        SqlNode target = g;
        if (g instanceof SqlNumericLiteral lit && lit.isInteger()) {
            int ordinal = LiteralBinder.ordinal(lit);
            if (ordinal < 1 || ordinal > selectList.size()) {
                throw bindError(
                        g, "42P10", "GROUP BY ordinal out of range: ordinal=" + lit + " items=" + selectList.size());
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
        return target;
    }

    private static SqlNode stripAlias(SqlNode item) {
        return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
    }
}
