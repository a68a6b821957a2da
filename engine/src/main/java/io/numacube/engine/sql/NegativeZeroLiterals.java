package io.numacube.engine.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Gives back the sign Calcite's parser drops from a negated approximate zero: it folds {@code -0.0E0} into one literal
 * whose value, a BigDecimal, has no negative zero, so {@code 1 / -0.0E0} was +Infinity where DuckDB's is -Infinity
 * (and {@code SELECT -0.0E0} 0.0 where DuckDB's is -0.0). Such a literal, when the text at its position is an odd
 * number of minus signs (among parentheses and blanks) before the number, becomes the negation of its positive
 * literal, which the binder folds to the DOUBLE -0.0. An exact zero ({@code -0.0}, a DECIMAL) has no sign in DuckDB
 * either and is left alone. Stateless.
 */
final class NegativeZeroLiterals {

    private NegativeZeroLiterals() {}

    /** {@code tree}, parsed from {@code text}, with each such literal replaced in place. */
    static SqlNode restore(SqlNode tree, String text) {
        if (text.indexOf('-') >= 0) {
            walk(tree, text);
        }
        return tree;
    }

    private static void walk(SqlNode node, String text) {
        if (node instanceof SqlNodeList list) {
            for (int i = 0; i < list.size(); i++) {
                SqlNode child = list.get(i);
                if (negatedZero(child, text)) {
                    list.set(i, negation((SqlNumericLiteral) child));
                } else {
                    walk(child, text);
                }
            }
        } else if (node instanceof SqlCall call) {
            var operands = call.getOperandList();
            for (int i = 0; i < operands.size(); i++) {
                SqlNode child = operands.get(i);
                if (negatedZero(child, text)) {
                    replace(call, i, negation((SqlNumericLiteral) child));
                } else {
                    walk(child, text);
                }
            }
        }
    }

    private static void replace(SqlCall call, int i, SqlNode replacement) {
        try {
            call.setOperand(i, replacement);
        } catch (UnsupportedOperationException | IllegalArgumentException | AssertionError e) {
            // a clause that cannot be rewritten in place keeps the literal as Calcite made it
        }
    }

    private static SqlNode negation(SqlNumericLiteral zero) {
        SqlParserPos pos = zero.getParserPosition();
        return SqlStdOperatorTable.UNARY_MINUS.createCall(pos, SqlLiteral.createApproxNumeric("0E0", pos));
    }

    private static boolean negatedZero(SqlNode node, String text) {
        if (!(node instanceof SqlNumericLiteral lit) || lit.isExact() || lit.bigDecimalValue() == null) {
            return false;
        }
        if (lit.bigDecimalValue().signum() != 0) {
            return false;
        }
        int at = offset(text, lit.getParserPosition());
        int minuses = 0;
        for (int i = at; i >= 0 && i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '-') {
                minuses++;
            } else if (Character.isDigit(c) || c == '.') {
                return minuses % 2 == 1;
            } else if (c != '(' && c != '+' && !Character.isWhitespace(c)) {
                return false;
            }
        }
        return false;
    }

    /** The character offset of a 1-based line and column in {@code text}, or -1. */
    private static int offset(String text, SqlParserPos pos) {
        int line = pos.getLineNum();
        int column = pos.getColumnNum();
        if (line < 1 || column < 1) {
            return -1;
        }
        int start = 0;
        for (int l = 1; l < line; l++) {
            start = text.indexOf('\n', start) + 1;
            if (start == 0) {
                return -1;
            }
        }
        return start + column - 1;
    }
}
