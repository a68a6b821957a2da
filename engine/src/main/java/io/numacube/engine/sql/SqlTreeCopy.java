package io.numacube.engine.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.util.SqlVisitor;

/**
 * A deep copy of a Calcite syntax tree: every call (SELECT, JOIN, ORDER BY, WITH, CASE, operators and functions), node
 * list and identifier is a new node, each call rebuilt by its operator from its copied operands (as Calcite's own
 * {@code SqlCall.clone} does, one level); literals, type specifications, interval qualifiers and dynamic parameters,
 * which nothing changes after parsing, are shared. Positions are kept. The binders and the subquery rewrites change
 * the trees they are given in place, so a parse tree kept for later statements ({@link ParsedStatements}) hands out
 * copies only.
 *
 * <p>Stateless; thread-safe. The source tree is only read.
 */
final class SqlTreeCopy implements SqlVisitor<SqlNode> {

    private static final SqlTreeCopy INSTANCE = new SqlTreeCopy();

    private SqlTreeCopy() {}

    /** A copy of {@code root} that shares no call, node list or identifier with it. */
    static SqlNode of(SqlNode root) {
        return root.accept(INSTANCE);
    }

    @Override
    public SqlNode visit(SqlLiteral literal) {
        return literal;
    }

    @Override
    public SqlNode visit(SqlCall call) {
        List<SqlNode> operands = call.getOperandList();
        SqlNode[] copied = new SqlNode[operands.size()];
        for (int i = 0; i < copied.length; i++) {
            SqlNode o = operands.get(i);
            copied[i] = o == null ? null : o.accept(this);
        }
        return call.getOperator().createCall(call.getFunctionQuantifier(), call.getParserPosition(), copied);
    }

    @Override
    public SqlNode visit(SqlNodeList nodeList) {
        List<SqlNode> copied = new ArrayList<>(nodeList.size());
        for (SqlNode n : nodeList) {
            copied.add(n == null ? null : n.accept(this));
        }
        return new SqlNodeList(copied, nodeList.getParserPosition());
    }

    @Override
    public SqlNode visit(SqlIdentifier id) {
        return id.clone(id.getParserPosition());
    }

    @Override
    public SqlNode visit(SqlDataTypeSpec type) {
        return type;
    }

    @Override
    public SqlNode visit(SqlDynamicParam param) {
        return param;
    }

    @Override
    public SqlNode visit(SqlIntervalQualifier intervalQualifier) {
        return intervalQualifier;
    }
}
