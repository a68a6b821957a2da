package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * A select-list alias named in WHERE or HAVING, replaced by the expression it names, as DuckDB resolves it ({@code
 * SELECT k * 2 AS kk FROM t WHERE kk > 2} filters on {@code k * 2}, {@code HAVING s > 10} on the {@code SUM(v) AS s}
 * of the select list): a bare name that no column of the FROM clause's tables has and one select item's alias spells
 * (case-insensitive). A table column of that name wins (in HAVING DuckDB takes the alias where the column is not
 * grouped; that is refused here, as the column is not grouped); a qualified name ({@code t.kk}) is never an alias; an
 * alias that two select items spell is refused (42702), and an aggregate's alias in WHERE is refused by the binder
 * like any aggregate in WHERE. Each use gets a copy of the expression of its own. Subqueries are not entered
 * (they ran before binding). Stateless.
 */
final class SelectAliases {

    private SelectAliases() {}

    /** {@code condition} with the aliases it names replaced, or {@code condition} itself where it names none. */
    static SqlNode substitute(SqlNode condition, SqlNodeList selectList, Scope scope) {
        return condition.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                if (id.names.size() != 1 || id.isStar() || scope.hasColumn(id.getSimple())) {
                    return id;
                }
                SqlNode aliased = aliased(id, selectList);
                return aliased == null ? id : aliased.accept(new Copy());
            }

            @Override
            public SqlNode visit(SqlCall call) {
                return call instanceof SqlSelect ? call : super.visit(call);
            }
        });
    }

    /** The expression of the one select item whose alias is {@code id}'s name, or null where none is. */
    private static SqlNode aliased(SqlIdentifier id, SqlNodeList selectList) {
        SqlNode found = null;
        for (SqlNode item : selectList) {
            if (item.getKind() == SqlKind.AS
                    && ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple().equalsIgnoreCase(id.getSimple())) {
                if (found != null) {
                    throw bindError(
                            id,
                            "42702",
                            "an alias that two select items spell names no one expression: alias=" + id.getSimple()
                                    + " — give the items different aliases");
                }
                found = ((SqlCall) item).operand(0);
            }
        }
        return found;
    }

    /** A deep copy of an expression: each call copied, so that binding one use never changes another. */
    private static final class Copy extends SqlShuttle {
        @Override
        public SqlNode visit(SqlCall call) {
            if (call instanceof SqlSelect) {
                return call;
            }
            CallCopyingArgHandler copy = new CallCopyingArgHandler(call, true);
            call.getOperator().acceptCall(this, call, false, copy);
            return copy.result();
        }
    }
}
