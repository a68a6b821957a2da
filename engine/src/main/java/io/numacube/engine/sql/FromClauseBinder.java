package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;
import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * Binds a FROM clause into a {@link Scope}: one fact table, then dimension tables joined one after another (INNER or
 * LEFT, {@code USING (k)} or {@code ON a.k = b.k}) to the fact table or to a dimension joined before (a snowflake),
 * with optional table aliases. The key on the fact side of each chain must be a coded column (a dimension); the
 * dimension's key must have the same type (integers of either width match).
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
            return Scope.of(fact.schema(), fact.alias());
        }
        if (join.isNatural()) {
            throw unsupported(join, "NATURAL JOIN (use JOIN ... USING (key))");
        }
        JoinType jt = join.getJoinType();
        if (jt != JoinType.INNER && jt != JoinType.LEFT) {
            throw unsupported(join, jt + " JOIN (inner and left joins of dimension tables)");
        }
        Scope left = bind(join.getLeft());
        NamedTable dim = bindTable(join.getRight(), false);
        LogicalQuery.Join unkeyed =
                new LogicalQuery.Join(dim.schema().name(), -1, -1, -1, jt == JoinType.LEFT, left.nextFirstColumn());
        boolean byUsing = join.getConditionType() == JoinConditionType.USING;
        Scope tables = left.with(dim.schema(), dim.alias(), unkeyed, byUsing);
        LogicalQuery.Join keyed = switch (join.getConditionType()) {
            case USING -> joinUsing(tables, (SqlNodeList) join.getCondition(), unkeyed);
            case ON -> joinOn(tables, join.getCondition(), unkeyed);
            default -> throw unsupported(join, "a join without USING or ON");
        };
        checkJoinKeyTypes(join, tables, keyed);
        return left.with(dim.schema(), dim.alias(), keyed, byUsing);
    }

    /** {@code USING (k)}: k of the new table equals k of the fact table, else of the one earlier dimension with k. */
    private static LogicalQuery.Join joinUsing(Scope tables, SqlNodeList keys, LogicalQuery.Join join) {
        if (keys.size() != 1) {
            throw unsupported(keys, "a join on " + keys.size() + " columns (one key column)");
        }
        SqlIdentifier id = (SqlIdentifier) keys.get(0);
        String k = id.getSimple();
        int dim = tables.tables().size() - 1;
        int key = tables.tables().get(dim).indexOf(k);
        if (key < 0) {
            throw bindError(id, "join key must be a column of both tables: key=" + k + " table=" + join.table());
        }
        if (tables.fact().indexOf(k) >= 0) {
            return keyed(join, -1, tables.fact().indexOf(k), key);
        }
        int parent = -1;
        for (int j = 0; j < dim; j++) {
            if (tables.tables().get(j).indexOf(k) >= 0) {
                if (parent >= 0) {
                    throw bindError(id, "42702", "ambiguous join key: key=" + k + " is in several tables — use ON");
                }
                parent = j;
            }
        }
        if (parent < 0) {
            throw bindError(id, "join key must be a column of both tables: key=" + k + " table=" + join.table());
        }
        return keyed(join, parent, tables.tables().get(parent).indexOf(k), key);
    }

    /** {@code ON a.x = b.y}: one side a column of the new table, the other of the fact table or an earlier one. */
    private static LogicalQuery.Join joinOn(Scope tables, SqlNode cond, LogicalQuery.Join join) {
        if (cond.getKind() != SqlKind.EQUALS) {
            throw unsupported(cond, "a join condition other than one equality of key columns");
        }
        SqlCall call = (SqlCall) cond;
        int dim = tables.tables().size() - 1;
        Side a = side(tables, call.operand(0), dim);
        Side b = side(tables, call.operand(1), dim);
        if (a.isNew() == b.isNew()) {
            throw unsupported(
                    cond, "a join condition other than one column of " + join.table() + " = one earlier column");
        }
        Side newSide = a.isNew() ? a : b;
        Side parent = a.isNew() ? b : a;
        return keyed(join, parent.table(), parent.column(), newSide.column());
    }

    /** A column of the ON condition: its table (-1 the fact table) and index, and whether it is the new table's. */
    private record Side(int table, int column, boolean isNew) {}

    private static Side side(Scope tables, SqlNode node, int dim) {
        if (!(node instanceof SqlIdentifier id)) {
            throw unsupported(node, "a join condition on an expression (compare key columns)");
        }
        if (id.names.size() == 2) {
            String q = id.names.get(0);
            String name = id.names.get(1);
            for (int j = tables.tables().size() - 1; j >= 0; j--) {
                if (answersTo(q, tables.tables().get(j).name(), tables.aliases().get(j))) {
                    return new Side(j, column(id, tables.tables().get(j), name), j == dim);
                }
            }
            if (answersTo(q, tables.fact().name(), tables.factAlias())) {
                return new Side(-1, column(id, tables.fact(), name), false);
            }
            throw bindError(id, "42P01", "no such table in FROM: table=" + q);
        }
        String name = id.getSimple();
        if (tables.tables().get(dim).indexOf(name) >= 0) {
            return new Side(dim, tables.tables().get(dim).indexOf(name), true);
        }
        Expr.Column c = tables.column(id);
        if (c.side() == Expr.Side.FACT) {
            return new Side(-1, c.index(), false);
        }
        throw unsupported(id, "an unqualified key of a joined table in ON (qualify it: table.column)");
    }

    private static int column(SqlIdentifier id, TableSchema t, String name) {
        int i = t.indexOf(name);
        if (i < 0) {
            throw bindError(id, "42703", "no such column: column=" + name + " table=" + t.name());
        }
        return i;
    }

    private static boolean answersTo(String qualifier, String table, String alias) {
        return alias != null ? alias.equalsIgnoreCase(qualifier) : table.equalsIgnoreCase(qualifier);
    }

    private static LogicalQuery.Join keyed(LogicalQuery.Join j, int parent, int parentColumn, int keyColumn) {
        return new LogicalQuery.Join(j.table(), parent, parentColumn, keyColumn, j.left(), j.firstColumn());
    }

    /** Both keys of a join must have one type (integers of any width, DECIMALs of one scale), not DOUBLE. */
    private static void checkJoinKeyTypes(SqlJoin join, Scope tables, LogicalQuery.Join j) {
        TableSchema parent = j.parent() < 0 ? tables.fact() : tables.tables().get(j.parent());
        TableSchema dim = tables.tables().getLast();
        ColumnType pt = parent.column(j.parentColumn()).type();
        ColumnType dt = dim.column(j.keyColumn()).type();
        boolean integers = Expr.isInteger(pt) && Expr.isInteger(dt);
        if (pt != dt && !integers) {
            throw bindError(
                    join,
                    "42804",
                    "join keys must be columns of one type: " + parent.name() + "."
                            + parent.column(j.parentColumn()).name() + "=" + pt + " " + dim.name() + "."
                            + dim.column(j.keyColumn()).name() + "=" + dt);
        }
        if (pt == ColumnType.DOUBLE || dt == ColumnType.DOUBLE) {
            throw unsupported(join, "a join on DOUBLE keys");
        }
        if (parent.column(j.parentColumn()).scale() != dim.column(j.keyColumn()).scale()) {
            throw unsupported(
                    join,
                    "a join on keys of different scales: " + parent.name() + "."
                            + parent.column(j.parentColumn()).name() + " is "
                            + parent.column(j.parentColumn()).typeName() + ", " + dim.name() + "."
                            + dim.column(j.keyColumn()).name() + " is "
                            + dim.column(j.keyColumn()).typeName()
                            + " — cast one side in a subquery");
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
