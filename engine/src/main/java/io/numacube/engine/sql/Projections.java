package io.numacube.engine.sql;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * Binds the select list of a plain projection ({@code SELECT * | t.* | expressions FROM ... WHERE ... ORDER BY ...
 * LIMIT n}): every item is a row-level expression; {@code *} is every column of the fact table and then of each joined
 * table but its join key (which equals its parent's), as DuckDB lists them for {@code USING}. Stateless.
 */
final class Projections {

    private Projections() {}

    /** Whether a node list calls an aggregate anywhere (then the query is an aggregation, not a projection). */
    static boolean callsAggregate(SqlNodeList nodes) {
        for (SqlNode n : nodes) {
            if (callsAggregate(n)) {
                return true;
            }
        }
        return false;
    }

    private static boolean callsAggregate(SqlNode n) {
        if (n instanceof SqlNodeList list) {
            // a CASE keeps its WHEN and THEN operands in lists
            return callsAggregate(list);
        }
        if (!(n instanceof SqlCall call) || n instanceof org.apache.calcite.sql.SqlSelect) {
            // a subquery's aggregates are its own
            return false;
        }
        if (call.getKind() == SqlKind.FILTER || call.getKind() == SqlKind.OVER || AggregateBinder.kind(call) != null) {
            return true;
        }
        for (SqlNode o : call.getOperandList()) {
            if (o != null && callsAggregate(o)) {
                return true;
            }
        }
        return false;
    }

    /** One select item of a projection: an expression (with its alias), or the columns a star stands for. */
    static List<LogicalQuery.Output> bindItem(SqlNode item, Scope scope, ExpressionBinder expressions) {
        String alias = null;
        SqlNode e = item;
        if (item.getKind() == SqlKind.AS) {
            alias = ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple();
            e = ((SqlCall) item).operand(0);
        }
        if (e instanceof SqlIdentifier id && id.isStar()) {
            return star(id, scope);
        }
        Expr bound = expressions.bind(e, ExpressionBinder.Place.ROW);
        String name = alias != null ? alias : e instanceof SqlIdentifier c ? c.names.getLast() : bound.text();
        return List.of(new LogicalQuery.Output(name, Expr.isPredicate(bound) ? asBoolean(bound) : bound));
    }

    /**
     * A condition as a BOOLEAN value ({@code SELECT a > b}): TRUE where it holds, FALSE where its negation does, NULL
     * where neither does (three-valued, as DuckDB), as {@code CASE WHEN p THEN TRUE WHEN NOT p THEN FALSE END}.
     */
    static Expr asBoolean(Expr condition) {
        return new Expr.Case(
                List.of(condition, new Expr.Not(condition)),
                List.of(new Expr.Literal(1L, ColumnType.BOOLEAN), new Expr.Literal(0L, ColumnType.BOOLEAN)),
                null,
                ColumnType.BOOLEAN);
    }

    private static List<LogicalQuery.Output> star(SqlIdentifier id, Scope scope) {
        String qualifier = id.names.size() == 2 ? id.names.get(0) : null;
        List<LogicalQuery.Output> out = new ArrayList<>();
        if (qualifier == null || Scope.answersTo(qualifier, scope.fact().name(), scope.factAlias())) {
            TableSchema f = scope.fact();
            for (int c = 0; c < f.size(); c++) {
                var spec = f.column(c);
                out.add(new LogicalQuery.Output(
                        spec.name(),
                        new Expr.Column(
                                Expr.Side.FACT,
                                c,
                                spec.type(),
                                spec.name(),
                                spec.scale(),
                                spec.precision(),
                                spec.declared())));
            }
        }
        for (int j = 0; j < scope.tables().size(); j++) {
            TableSchema t = scope.tables().get(j);
            String alias = scope.aliases().get(j);
            if (qualifier != null && !Scope.answersTo(qualifier, t.name(), alias)) {
                continue;
            }
            if (qualifier == null && alias != null && DerivedTables.isDerived(alias)) {
                // a table a decorrelated subquery joined (EXISTS, IN, a compared aggregate) is not the user's
                continue;
            }
            for (int c = 0; c < t.size(); c++) {
                if (scope.joins().get(j).keyPosition(c) >= 0
                        && qualifier == null
                        && scope.using().get(j)) {
                    continue;
                }
                // the key of a table joined by ON is its own column (NULL where a LEFT join matched no row), as when
                // qualified; only a USING key is its parent's
                SqlIdentifier column = scope.using().get(j)
                        ? id
                        : new SqlIdentifier(List.of(t.name(), t.column(c).name()), id.getParserPosition());
                Expr.Column col =
                        scope.dimensionColumn(column, j, c, t.column(c).name());
                out.add(new LogicalQuery.Output(t.column(c).name(), col));
            }
        }
        if (out.isEmpty()) {
            throw BindErrors.bindError(id, "42P01", "no such table in FROM: table=" + qualifier);
        }
        return out;
    }
}
