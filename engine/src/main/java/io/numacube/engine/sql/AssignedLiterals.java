package io.numacube.engine.sql;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A literal assigned to a column by UPDATE's SET, taken as PostgreSQL's assignment cast takes it, so that it is stored
 * as an INSERT of it stores it: a number is exact ({@code 2.5e0} is numeric 2.5, rounded half away from zero into an
 * integer column: 3; {@code 1e3} into a text column is {@code 1000}), except into a DOUBLE column; a number into a
 * BOOLEAN, DATE or TIMESTAMP column, or TRUE/FALSE into a number column, is 42804 at the literal, as PostgreSQL has no
 * assignment cast between them; a quoted text into a number or BOOLEAN column is read as an INSERT reads it, and
 * refused with its SQLSTATE (22P02 for {@code '1.5'} into an integer, as PostgreSQL). Other expressions are left to the CAST to the column's type. Stateless.
 */
public final class AssignedLiterals {

    private AssignedLiterals() {}

    /** How a quoted text is read as a column's type where rows are loaded (the sql package reads no rows itself). */
    @FunctionalInterface
    public interface TextCheck {
        /** Why {@code text} is no value of {@code column}'s type, with its SQLSTATE; null where it is one. */
        io.numacube.numa.base.NumacubeException refusal(ColumnSpec column, String text);
    }

    /**
     * {@code e} as it is assigned to {@code col}: an approximate number literal (possibly signed) made exact.
     *
     * @throws io.numacube.numa.base.NumacubeException 42804 for a literal of a type {@code col} takes by no assignment
     *     cast
     */
    static SqlNode checked(SqlNode e, ColumnSpec col, TextCheck check) {
        boolean signed = e.getKind() == SqlKind.MINUS_PREFIX || e.getKind() == SqlKind.PLUS_PREFIX;
        SqlNode literal = signed ? ((SqlCall) e).operand(0) : e;
        if (literal instanceof SqlNumericLiteral n) {
            if (col.type() == ColumnType.BOOLEAN
                    || col.type() == ColumnType.DATE
                    || col.type() == ColumnType.TIMESTAMP) {
                throw mismatch(e, col, n.isInteger() ? "integer" : "numeric");
            }
            if (n.isExact() || col.type() == ColumnType.DOUBLE && !col.isDecimal()) {
                return e;
            }
            SqlNode exact = SqlLiteral.createExactNumeric(
                    n.getValueAs(java.math.BigDecimal.class).toPlainString(), n.getParserPosition());
            return !signed ? exact : ((SqlCall) e).getOperator().createCall(e.getParserPosition(), exact);
        }
        if (literal instanceof org.apache.calcite.sql.SqlCharStringLiteral text && !signed) {
            return quoted(e, text.getValueAs(String.class), col, check);
        }
        if (literal instanceof SqlLiteral l
                && l.getTypeName() == SqlTypeName.BOOLEAN
                && col.type() != ColumnType.BOOLEAN
                && col.type() != ColumnType.STRING) {
            throw mismatch(e, col, "boolean");
        }
        return e;
    }

    /** A quoted text into a number or BOOLEAN column, refused as an INSERT refuses it (22P02, 22003). */
    private static SqlNode quoted(SqlNode e, String text, ColumnSpec col, TextCheck check) {
        if (col.type() == ColumnType.STRING || col.type() == ColumnType.DATE || col.type() == ColumnType.TIMESTAMP) {
            return e;
        }
        io.numacube.numa.base.NumacubeException refused = check.refusal(col, text);
        if (refused != null) {
            throw BindErrors.bindError(
                    e, refused.code(), "column \"" + col.name() + "\": " + refused.getMessage() + ": value=" + text);
        }
        return e;
    }

    private static io.numacube.numa.base.NumacubeException mismatch(SqlNode e, ColumnSpec col, String type) {
        return BindErrors.bindError(
                e,
                "42804",
                "column \"" + col.name() + "\" is of type " + col.typeName().toLowerCase(Locale.ROOT)
                        + " but expression is of type " + type
                        + " — write the value as the column's type, or as a string");
    }
}
