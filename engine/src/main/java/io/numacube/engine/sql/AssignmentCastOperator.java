package io.numacube.engine.sql;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.fun.SqlCastFunction;

/**
 * The CAST of an UPDATE's SET expression to its column's type ({@link UpdateStatement}): a CAST to the binder and
 * the rest of the engine, which takes only what PostgreSQL's assignment cast takes. An expression of a type with no
 * assignment cast to the column's (a BOOLEAN into a number, a number into a BOOLEAN, text into a number, a DATE or a
 * BOOLEAN; a number or BOOLEAN into a DATE or TIMESTAMP) is refused with 42804 naming the column, as PostgreSQL
 * refuses it, where an explicit CAST would convert it. A literal is checked before ({@link AssignedLiterals}), and
 * NULL fits every column. Immutable.
 */
final class AssignmentCastOperator extends SqlCastFunction {

    private final String column;

    /** @param column the column assigned, for the error */
    AssignmentCastOperator(String column) {
        this.column = column;
    }

    /**
     * Refuses {@code value} (the bound operand of {@code call}) for a column of SQL type {@code type} when {@code call}
     * is an assignment and PostgreSQL has no assignment cast from the value's type.
     *
     * @throws io.numacube.numa.base.NumacubeException 42804 at the expression
     */
    static void check(SqlCall call, Expr value, String type) {
        if (!(call.getOperator() instanceof AssignmentCastOperator a)
                || call.operand(0) instanceof SqlLiteral
                || NullConstant.is(value)) {
            return;
        }
        ColumnType from = Expr.isPredicate(value) ? ColumnType.BOOLEAN : value.type();
        boolean number = from == ColumnType.LONG
                || from == ColumnType.INT
                || from == ColumnType.DOUBLE
                || from == ColumnType.DECIMAL;
        boolean takes = switch (type) {
            case "VARCHAR", "TEXT", "STRING", "CHAR" -> true;
            case "BOOLEAN", "BOOL" -> from == ColumnType.BOOLEAN;
            case "DATE", "TIMESTAMP", "DATETIME" -> from == ColumnType.DATE || from == ColumnType.TIMESTAMP;
            default -> number;
        };
        if (!takes) {
            throw BindErrors.bindError(
                    call.operand(0),
                    "42804",
                    "column \"" + a.column + "\" is of type " + type.toLowerCase(Locale.ROOT)
                            + " but expression is of type "
                            + (number
                                    ? "numeric"
                                    : from == ColumnType.STRING
                                            ? "text"
                                            : from.name().toLowerCase(Locale.ROOT))
                            + " — write CAST(expression AS " + type.toLowerCase(Locale.ROOT) + ") to convert it");
        }
    }
}
