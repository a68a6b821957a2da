package io.numacube.engine.sql;

import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Refuses, right after parsing, the clauses numacube does not run and that would otherwise fail later with a message
 * about something else: a window function ({@code ROW_NUMBER() OVER (...)}, which binding took for a column missing
 * from GROUP BY) and {@code WITH RECURSIVE} (whose own name was then "no such table"). Each is 0A000 at its position.
 * Stateless.
 */
final class UnsupportedClauses {

    private UnsupportedClauses() {}

    /** @throws NumacubeException 0A000 at the first window function or recursive WITH item of {@code statement} */
    static SqlNode refuse(SqlNode statement) {
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call.getKind() == SqlKind.OVER) {
                    throw refused(
                            call.getParserPosition(),
                            "window functions (" + call.operand(0).toString().replace("`", "")
                                    + " OVER ...): numacube aggregates by GROUP BY only");
                }
                if (call instanceof SqlWithItem item
                        && item.recursive != null
                        && Boolean.TRUE.equals(item.recursive.getValueAs(Boolean.class))) {
                    throw refused(item.getParserPosition(), "WITH RECURSIVE (" + item.name + ")");
                }
                return super.visit(call);
            }
        });
        return statement;
    }

    private static NumacubeException refused(SqlParserPos pos, String what) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                "0A000",
                "unsupported SQL: " + what,
                pos == null || pos.getLineNum() < 1 ? null : ErrorPosition.sql(pos.getLineNum(), pos.getColumnNum()),
                null);
    }
}
