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
    static List<Expr.Column> bind(SqlNodeList group, SqlNodeList selectList, Scope scope) {
        List<Expr.Column> keys = new ArrayList<>();
        if (group != null) {
            for (SqlNode g : group) {
                Expr.Column c = bindKey(g, selectList, scope);
                if (!keys.contains(c)) {
                    keys.add(c);
                }
            }
        }
        return keys;
    }

    private static Expr.Column bindKey(SqlNode g, SqlNodeList selectList, Scope scope) {
        SqlNode target = target(g, selectList, scope);
        if (!(target instanceof SqlIdentifier)) {
            throw unsupported(g, "GROUP BY of an expression (group by dimension columns)");
        }
        Expr.Column c = scope.column(target);
        if (c.side() == Expr.Side.LOOKUP && c.type() == io.numacube.engine.schema.ColumnType.DOUBLE) {
            throw unsupported(g, "GROUP BY a DOUBLE column of the joined table");
        }
        if (c.side() == Expr.Side.FACT && !c.type().isDimension()) {
            throw bindError(g, "42803", "GROUP BY needs a dimension column: column=" + c.name() + " is a measure");
        }
        return c;
    }

    /** What a GROUP BY item stands for: the select item an ordinal or alias names, else the item itself. */
    private static SqlNode target(SqlNode g, SqlNodeList selectList, Scope scope) {
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
        return target;
    }

    private static SqlNode stripAlias(SqlNode item) {
        return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
    }
}
