package io.numacube.engine.sql;

import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The binder's errors: INVALID_INPUT 0A000 for SQL numacube does not run, BIND for names and types that do not
 * resolve; each carries the position of the syntax node it is about, when the parser gave it one.
 *
 * <p>Stateless; thread-safe.
 */
final class BindErrors {

    private BindErrors() {}

    /** Where {@code node} starts in the statement, or null when the parser gave it no position. */
    static ErrorPosition at(SqlNode node) {
        SqlParserPos p = node.getParserPosition();
        return p == null || p.getLineNum() < 1 ? null : ErrorPosition.sql(p.getLineNum(), p.getColumnNum());
    }

    static NumacubeException unsupported(SqlNode node, String what) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                "0A000",
                "unsupported SQL: " + what
                        + " — numacube runs SELECT dims, aggregates FROM t [JOIN l USING (k)] [WHERE] [GROUP BY]"
                        + " [HAVING] [ORDER BY] [LIMIT]",
                at(node),
                null);
    }

    static NumacubeException bindError(SqlNode node, String what) {
        return bindError(node, null, what);
    }

    /** @param code the SQLSTATE (42703 undefined column, 42P01 undefined table, 42804 datatype mismatch), or null */
    static NumacubeException bindError(SqlNode node, String code, String what) {
        return new NumacubeException(NumacubeException.Kind.BIND, code, what, at(node), null);
    }
}
