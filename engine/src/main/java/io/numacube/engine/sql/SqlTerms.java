package io.numacube.engine.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The AND terms of a condition and back, for the rewrites that move terms between WHERE and FROM (FROM lists of
 * tables, decorrelated subqueries). Stateless; thread-safe.
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
}
