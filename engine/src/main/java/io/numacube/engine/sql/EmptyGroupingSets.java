package io.numacube.engine.sql;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * The empty grouping set {@code ()} of a GROUP BY list, taken out after parsing: {@code GROUP BY g, ()} groups by
 * {@code g} alone, and {@code GROUP BY ()} is no GROUP BY (one row over all rows, of an empty table too), as in DuckDB
 * and PostgreSQL. Calcite parses {@code ()} as an empty node list, which the binders do not take. Every SELECT at any
 * nesting level; stateless.
 */
final class EmptyGroupingSets {

    private EmptyGroupingSets() {}

    /** {@code root}, each SELECT's GROUP BY without empty grouping sets (changed in place). */
    static SqlNode drop(SqlNode root) {
        root.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.getGroup() != null) {
                    List<SqlNode> kept = select.getGroup().stream()
                            .filter(g -> !(g instanceof SqlNodeList l && l.isEmpty()))
                            .toList();
                    if (kept.size() != select.getGroup().size()) {
                        select.setGroupBy(
                                kept.isEmpty()
                                        ? null
                                        : new SqlNodeList(
                                                kept, select.getGroup().getParserPosition()));
                    }
                }
                return super.visit(call);
            }
        });
        return root;
    }
}
