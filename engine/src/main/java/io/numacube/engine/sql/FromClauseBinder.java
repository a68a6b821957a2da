package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;
import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * Binds a FROM clause into a {@link Scope}: one table, or one fact table inner-joined to one lookup table on one key
 * column ({@code USING (k)} or {@code ON a.k = b.k}), with optional table aliases. The join keys must be dimension
 * columns of one type.
 *
 * <p>Stateless apart from the catalog it reads; as thread-safe as that catalog.
 */
final class FromClauseBinder {

    private final SqlBinder.Catalog catalog;

    FromClauseBinder(SqlBinder.Catalog catalog) {
        this.catalog = catalog;
    }

    /** A table the FROM clause names, resolved in the catalog, and its alias (null when none). */
    private record NamedTable(TableSchema schema, String alias) {}

    Scope bind(SqlNode from) {
        if (!(from instanceof SqlJoin join)) {
            NamedTable fact = bindTable(from, true);
            return new Scope(fact.schema(), fact.alias(), null, null, -1, -1);
        }
        if (join.isNatural()) {
            throw unsupported(join, "NATURAL JOIN (use JOIN ... USING (key))");
        }
        JoinType jt = join.getJoinType();
        if (jt != JoinType.INNER) {
            throw unsupported(join, jt + " JOIN (only inner joins of a lookup table)");
        }
        NamedTable fact = bindTable(join.getLeft(), true);
        NamedTable lookup = bindTable(join.getRight(), false);
        Scope tables = new Scope(fact.schema(), fact.alias(), lookup.schema(), lookup.alias(), -1, -1);
        Scope joined = switch (join.getConditionType()) {
            case USING -> joinUsing(tables, (SqlNodeList) join.getCondition());
            case ON -> joinOn(tables, join.getCondition());
            default -> throw unsupported(join, "a join without USING or ON");
        };
        checkJoinKeyTypes(join, joined);
        return joined;
    }

    private static Scope joinUsing(Scope tables, SqlNodeList keys) {
        if (keys.size() != 1) {
            throw unsupported(keys, "a join on " + keys.size() + " columns (one key column)");
        }
        String k = ((SqlIdentifier) keys.get(0)).getSimple();
        int factKey = tables.fact().indexOf(k);
        int lookupKey = tables.lookup().indexOf(k);
        if (factKey < 0 || lookupKey < 0) {
            throw bindError(
                    keys.get(0),
                    "join key must be a column of both tables: key=" + k + " tables="
                            + tables.fact().name() + "," + tables.lookup().name());
        }
        return tables.withJoinKeys(factKey, lookupKey);
    }

    private static Scope joinOn(Scope tables, SqlNode cond) {
        if (cond.getKind() != SqlKind.EQUALS) {
            throw unsupported(cond, "a join condition other than one equality of key columns");
        }
        SqlCall call = (SqlCall) cond;
        Expr a = tables.column(call.operand(0));
        Expr b = tables.column(call.operand(1));
        if (a instanceof Expr.Column ca && b instanceof Expr.Column cb && ca.side() != cb.side()) {
            Expr.Column f = ca.side() == Expr.Side.FACT ? ca : cb;
            Expr.Column l = ca.side() == Expr.Side.FACT ? cb : ca;
            return tables.withJoinKeys(f.index(), l.index());
        }
        throw unsupported(cond, "a join condition other than fact.key = lookup.key");
    }

    private static void checkJoinKeyTypes(SqlJoin join, Scope s) {
        TableSchema fact = s.fact();
        TableSchema lookup = s.lookup();
        ColumnType ft = fact.column(s.factKey()).type();
        ColumnType lt = lookup.column(s.lookupKey()).type();
        if (!fact.column(s.factKey()).isDimension() || ft != lt) {
            throw bindError(
                    join,
                    "42804",
                    "join keys must be dimension columns of one type: " + fact.name() + "."
                            + fact.column(s.factKey()).name() + "=" + ft + " " + lookup.name() + "."
                            + lookup.column(s.lookupKey()).name() + "=" + lt);
        }
    }

    private NamedTable bindTable(SqlNode node, boolean isFact) {
        String alias = null;
        SqlNode t = node;
        if (t.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) t;
            if (as.operandCount() > 2) {
                throw unsupported(as, "column aliases on a table");
            }
            t = as.operand(0);
            alias = ((SqlIdentifier) as.operand(1)).getSimple();
        }
        if (!(t instanceof SqlIdentifier id) || id.names.size() != 1) {
            throw unsupported(t, isFact ? "FROM other than a table name" : "a join with something other than a table");
        }
        String name = id.getSimple();
        TableSchema schema =
                catalog.schema(name).orElseThrow(() -> bindError(id, "42P01", "no such table: table=" + name));
        return new NamedTable(schema, alias);
    }
}
