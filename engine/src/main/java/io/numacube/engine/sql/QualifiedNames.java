package io.numacube.engine.sql;

import io.numacube.engine.schema.TableNames;
import io.numacube.numa.base.NumacubeException;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Replaces the schema-qualified names of a parsed statement by the names the catalog knows ({@link TableNames}), in
 * place, before binding: a table in FROM or JOIN ({@code public.trades}, {@code numacube.public.trades},
 * {@code information_schema.columns}) and a column or star qualified by such a table ({@code public.trades.desk},
 * {@code public.trades.*}). Names of
 * one part, and of two parts outside FROM ({@code t.desk}), are left as they are. A name of an unknown schema is an
 * error at its position. Stateless.
 */
final class QualifiedNames {

    private QualifiedNames() {}

    /** {@code root}, its qualified names replaced. */
    static SqlNode unqualify(SqlNode root) {
        root.accept(new Visitor());
        return root;
    }

    /** The table {@code id} names, resolved; {@code id} becomes that one name. */
    static String table(SqlIdentifier id) {
        if (id.names.size() > 1) {
            id.setNames(List.of(resolved(id, id.names)), null);
        }
        return id.getSimple();
    }

    private static String resolved(SqlIdentifier id, List<String> parts) {
        try {
            return TableNames.resolve(parts);
        } catch (NumacubeException e) {
            throw BindErrors.bindError(id, e.code(), e.detail());
        }
    }

    private static final class Visitor extends SqlBasicVisitor<Void> {

        @Override
        public Void visit(SqlCall call) {
            if (call instanceof SqlSelect select && select.getFrom() != null) {
                fromItem(select.getFrom());
                for (SqlNode operand : select.getOperandList()) {
                    if (operand != null && operand != select.getFrom()) {
                        operand.accept(this);
                    }
                }
                return null;
            }
            return super.visit(call);
        }

        @Override
        public Void visit(SqlIdentifier id) {
            if (id.names.size() >= 3) {
                int n = id.names.size();
                String table = resolved(id, id.names.subList(0, n - 1));
                id.setNames(List.of(table, id.names.get(n - 1)), null);
            }
            return null;
        }

        private void fromItem(SqlNode item) {
            if (item instanceof SqlIdentifier id) {
                table(id);
            } else if (item instanceof SqlJoin join) {
                fromItem(join.getLeft());
                fromItem(join.getRight());
                if (join.getCondition() != null) {
                    join.getCondition().accept(this);
                }
            } else if (item.getKind() == SqlKind.AS && ((SqlCall) item).operand(0) instanceof SqlIdentifier) {
                fromItem(((SqlCall) item).operand(0));
            } else {
                item.accept(this);
            }
        }
    }
}
