package io.numacube.engine.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The AND terms of a condition and back, for the rewrites that move terms between WHERE and FROM (FROM lists of
 * tables, decorrelated subqueries), and the plain SELECT and comma joins those rewrites build. Stateless; thread-safe.
 */
public final class SqlTerms {

    private SqlTerms() {}

    /** The terms of a chain of AND, flattened, in order; a condition that is no AND is its own one term. */
    public static List<SqlNode> andTerms(SqlNode condition) {
        List<SqlNode> out = new ArrayList<>();
        add(condition, out);
        return out;
    }

    private static void add(SqlNode e, List<SqlNode> out) {
        if (e.getKind() == SqlKind.AND) {
            for (SqlNode o : ((SqlCall) e).getOperandList()) {
                add(o, out);
            }
        } else {
            out.add(e);
        }
    }

    /** The AND of {@code terms} (the one term itself when there is one); null for none. */
    public static SqlNode and(List<SqlNode> terms, SqlParserPos pos) {
        if (terms.isEmpty()) {
            return null;
        }
        SqlNode out = terms.get(0);
        for (int i = 1; i < terms.size(); i++) {
            out = new SqlBasicCall(SqlStdOperatorTable.AND, List.of(out, terms.get(i)), pos);
        }
        return out;
    }

    /**
     * {@code SELECT keywords items FROM from WHERE where GROUP BY groupBy}, each of {@code keywords}, {@code where} and
     * {@code groupBy} left out where null; no HAVING, window, QUALIFY, ORDER BY, OFFSET, FETCH or hints.
     */
    public static SqlSelect select(
            SqlParserPos pos,
            SqlNodeList keywords,
            SqlNodeList items,
            SqlNode from,
            SqlNode where,
            SqlNodeList groupBy) {
        return new SqlSelect(pos, keywords, items, from, where, groupBy, null, null, null, null, null, null, null);
    }

    /** {@code left, right}: the FROM list {@code left} with {@code right} appended (a comma join, no condition). */
    public static SqlJoin commaJoin(SqlParserPos pos, SqlNode left, SqlNode right) {
        return new SqlJoin(
                pos,
                left,
                SqlLiteral.createBoolean(false, SqlParserPos.ZERO),
                JoinType.COMMA.symbol(SqlParserPos.ZERO),
                right,
                JoinConditionType.NONE.symbol(SqlParserPos.ZERO),
                null);
    }
}
