package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;

/**
 * Binds an ORDER BY clause: each item is a 1-based output ordinal, an output name, or an output-level expression,
 * with ASC/DESC and NULLS FIRST/LAST (nulls last unless NULLS FIRST is written).
 *
 * <p>Stateless; thread-safe.
 */
final class OrderByBinder {

    private OrderByBinder() {}

    /** The bound sort keys; empty when {@code orderList} is null. */
    static List<LogicalQuery.Order> bind(
            SqlNodeList orderList,
            List<LogicalQuery.Output> outputs,
            ExpressionBinder expressions,
            ExpressionBinder.Place place) {
        List<LogicalQuery.Order> order = new ArrayList<>();
        if (orderList != null) {
            for (SqlNode o : orderList) {
                order.add(bindItem(o, outputs, expressions, place));
            }
        }
        return order;
    }

    private static LogicalQuery.Order bindItem(
            SqlNode o, List<LogicalQuery.Output> outputs, ExpressionBinder expressions, ExpressionBinder.Place place) {
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
        Expr bound = namedOutput(e, outputs);
        if (bound == null) {
            bound = expressions.bind(e, place);
        }
        return new LogicalQuery.Order(bound, desc, nullsFirst != null && nullsFirst);
    }

    /** The output an ordinal or a bare name refers to, or null when {@code e} is neither. */
    private static Expr namedOutput(SqlNode e, List<LogicalQuery.Output> outputs) {
        if (e instanceof SqlNumericLiteral lit) {
            if (!lit.isInteger()) {
                throw bindError(e, "42P10", "ORDER BY a number that is not a whole ordinal: " + lit);
            }
            int ordinal = LiteralBinder.ordinal(lit);
            if (ordinal < 1 || ordinal > outputs.size()) {
                throw bindError(
                        e, "42P10", "ORDER BY ordinal out of range: ordinal=" + lit + " items=" + outputs.size());
            }
            return outputs.get(ordinal - 1).expr();
        }
        if (e instanceof SqlIdentifier id && id.names.size() == 1) {
            for (LogicalQuery.Output out : outputs) {
                if (out.name().equalsIgnoreCase(id.getSimple())) {
                    return out.expr();
                }
            }
        }
        return null;
    }
}
