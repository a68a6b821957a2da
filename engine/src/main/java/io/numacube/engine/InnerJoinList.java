package io.numacube.engine;

import io.numacube.engine.sql.SqlTerms;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlNode;

/**
 * A FROM clause of tables joined INNER, by commas or by {@code [INNER] JOIN ... ON}, as the FROM list of the same
 * tables and the AND terms of its ON conditions: for inner joins the two keep the same rows, since an inner join's ON
 * condition filters its joined rows as a WHERE term does. {@link Decorrelation} works on a FROM list, so {@code FROM f
 * JOIN g ON f.k = g.k WHERE EXISTS (...)} is decorrelated as {@code FROM f, g WHERE f.k = g.k AND EXISTS (...)}. A
 * LEFT, RIGHT, FULL or CROSS join, NATURAL or USING, or a FROM item other than a table name (with an alias or not) is
 * no such list ({@link #of} gives null): a LEFT JOIN's ON condition must not become a WHERE term. Immutable (the
 * nodes it holds are the statement's own, not copies).
 *
 * @param from the tables as a FROM list (comma joins), the original FROM where it was one already
 * @param on   the AND terms of the ON conditions, in FROM order; empty for a FROM list
 */
record InnerJoinList(SqlNode from, List<SqlNode> on) {

    InnerJoinList {
        on = List.copyOf(on);
    }

    /** {@code from} as such a list, or null when it is none. */
    static InnerJoinList of(SqlNode from) {
        if (from == null) {
            return null;
        }
        List<SqlNode> on = new ArrayList<>();
        SqlNode list = commaForm(from, on);
        return list == null ? null : new InnerJoinList(list, on);
    }

    /** Whether {@code from} joins tables by LEFT, RIGHT or FULL JOIN, NATURAL JOIN or JOIN ... USING. */
    static boolean hasOuterOrUsingJoin(SqlNode from) {
        if (!(from instanceof SqlJoin j)) {
            return false;
        }
        boolean other = j.getJoinType() == JoinType.LEFT
                || j.getJoinType() == JoinType.RIGHT
                || j.getJoinType() == JoinType.FULL
                || j.isNatural()
                || j.getConditionType() == JoinConditionType.USING;
        return other || hasOuterOrUsingJoin(j.getLeft()) || hasOuterOrUsingJoin(j.getRight());
    }

    /** {@code from} with each INNER JOIN ... ON made a comma join, its condition's terms added to {@code on}. */
    private static SqlNode commaForm(SqlNode from, List<SqlNode> on) {
        if (!(from instanceof SqlJoin j)) {
            return Correlation.isTableList(from) ? from : null;
        }
        boolean comma = j.getJoinType() == JoinType.COMMA;
        boolean innerOn = j.getJoinType() == JoinType.INNER
                && !j.isNatural()
                && j.getConditionType() == JoinConditionType.ON
                && j.getCondition() != null;
        if (!comma && !innerOn) {
            return null;
        }
        SqlNode left = commaForm(j.getLeft(), on);
        SqlNode right = left == null ? null : commaForm(j.getRight(), on);
        if (right == null) {
            return null;
        }
        if (comma && left == j.getLeft() && right == j.getRight()) {
            return j;
        }
        if (innerOn) {
            on.addAll(SqlTerms.andTerms(j.getCondition()));
        }
        return SqlTerms.commaJoin(j.getParserPosition(), left, right);
    }
}
