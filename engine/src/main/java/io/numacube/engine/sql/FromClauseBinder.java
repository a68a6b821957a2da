package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;
import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.LogicalQuery;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
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
 * LEFT, {@code USING (k, ...)} or {@code ON a.k = b.k [AND a.l = b.m ...]}) to the fact table or to a dimension joined
 * before (a snowflake), with optional table aliases; a key of several columns takes them all from one earlier table. The key on the fact side of each chain must be a coded column (a dimension); the
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
        LogicalQuery.Join unkeyed = new LogicalQuery.Join(
                dim.schema().name(), -1, List.of(), List.of(), jt == JoinType.LEFT, left.nextFirstColumn());
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

    /**
     * {@code USING (k, ...)}: each k of the new table equals k of the fact table, else of the one earlier dimension
     * with k; a key of several columns must find them all in one table.
     */
    private static LogicalQuery.Join joinUsing(Scope tables, SqlNodeList keys, LogicalQuery.Join join) {
        int dim = tables.tables().size() - 1;
        int parent = Integer.MIN_VALUE;
        List<Integer> parentColumns = new ArrayList<>();
        List<Integer> keyColumns = new ArrayList<>();
        for (SqlNode node : keys) {
            SqlIdentifier id = (SqlIdentifier) node;
            String k = id.getSimple();
            int key = tables.tables().get(dim).indexOf(k);
            if (key < 0) {
                throw bindError(id, "join key must be a column of both tables: key=" + k + " table=" + join.table());
            }
            int from = usingParent(tables, id, join);
            if (parent != Integer.MIN_VALUE && from != parent) {
                throw unsupported(id, "a join whose key columns are in different tables: key=" + k);
            }
            parent = from;
            TableSchema t = from < 0 ? tables.fact() : tables.tables().get(from);
            parentColumns.add(t.indexOf(k));
            keyColumns.add(key);
        }
        return keyed(join, parent, parentColumns, keyColumns);
    }

    /** The table {@code USING} takes key {@code id} from: the fact table (-1), else the one earlier dimension with it. */
    private static int usingParent(Scope tables, SqlIdentifier id, LogicalQuery.Join join) {
        String k = id.getSimple();
        if (tables.fact().indexOf(k) >= 0) {
            return -1;
        }
        int parent = -1;
        for (int j = 0; j < tables.tables().size() - 1; j++) {
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
        return parent;
    }

    /**
     * {@code ON a.x = b.y [AND a.z = b.w ...]}: in each equality one side a column of the new table, the other of the
     * fact table or an earlier one, the same earlier table for every equality (a key of several columns).
     */
    private static LogicalQuery.Join joinOn(Scope tables, SqlNode cond, LogicalQuery.Join join) {
        int dim = tables.tables().size() - 1;
        int parent = Integer.MIN_VALUE;
        List<Integer> parentColumns = new ArrayList<>();
        List<Integer> keyColumns = new ArrayList<>();
        for (SqlNode term : SqlTerms.andTerms(cond)) {
            if (term.getKind() != SqlKind.EQUALS) {
                throw unsupported(
                        term,
                        "a join condition other than equalities of key columns (move a filter of the joined table"
                                + " into WHERE for an inner join, or into a subquery in FROM for a LEFT join)");
            }
            SqlCall call = (SqlCall) term;
            Side a = side(tables, call.operand(0), dim);
            Side b = side(tables, call.operand(1), dim);
            if (a.isNew() == b.isNew()) {
                throw unsupported(
                        term, "a join condition other than one column of " + join.table() + " = one earlier column");
            }
            Side newSide = a.isNew() ? a : b;
            Side earlier = a.isNew() ? b : a;
            if (parent != Integer.MIN_VALUE && earlier.table() != parent) {
                throw unsupported(term, "a join of " + join.table() + " on columns of two different earlier tables");
            }
            parent = earlier.table();
            parentColumns.add(earlier.column());
            keyColumns.add(newSide.column());
        }
        return keyed(join, parent, parentColumns, keyColumns);
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
                if (Scope.answersTo(
                        q, tables.tables().get(j).name(), tables.aliases().get(j))) {
                    return new Side(j, column(id, tables.tables().get(j), name), j == dim);
                }
            }
            if (Scope.answersTo(q, tables.fact().name(), tables.factAlias())) {
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
            throw bindError(id, "42703", "no such column: column=" + name + " table=" + Scope.shown(t, null));
        }
        return i;
    }

    /**
     * The join with its key pairs in one order, by parent column (then key column), whatever order ON or USING named
     * them in: {@code ps_suppkey = l_suppkey AND ps_partkey = l_partkey} and the reverse hang from the same composite
     * of the fact columns, so that a query finds the codes and index another query (or {@code prepareJoin}) built.
     */
    private static LogicalQuery.Join keyed(
            LogicalQuery.Join j, int parent, List<Integer> parentColumns, List<Integer> keyColumns) {
        Integer[] order = new Integer[parentColumns.size()];
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        java.util.Arrays.sort(
                order,
                java.util.Comparator.<Integer>comparingInt(parentColumns::get).thenComparingInt(keyColumns::get));
        List<Integer> parents = new ArrayList<>();
        List<Integer> keys = new ArrayList<>();
        for (int k : order) {
            parents.add(parentColumns.get(k));
            keys.add(keyColumns.get(k));
        }
        return new LogicalQuery.Join(j.table(), parent, parents, keys, j.left(), j.firstColumn());
    }

    /** Every pair of key columns of a join must have one type (integers of any width, DECIMALs of one scale). */
    private static void checkJoinKeyTypes(SqlJoin join, Scope tables, LogicalQuery.Join j) {
        for (int k = 0; k < j.keyColumns().size(); k++) {
            checkJoinKeyTypes(
                    join, tables, j, j.parentColumns().get(k), j.keyColumns().get(k));
        }
    }

    /** Both keys of a join must have one type (integers of any width, DECIMALs of one scale), not DOUBLE. */
    private static void checkJoinKeyTypes(
            SqlJoin join, Scope tables, LogicalQuery.Join j, int parentColumn, int keyColumn) {
        TableSchema parent = j.parent() < 0 ? tables.fact() : tables.tables().get(j.parent());
        TableSchema dim = tables.tables().getLast();
        ColumnType pt = parent.column(parentColumn).type();
        ColumnType dt = dim.column(keyColumn).type();
        boolean integers = Expr.isInteger(pt) && Expr.isInteger(dt);
        if (pt != dt && !integers) {
            throw bindError(
                    join,
                    "42804",
                    "join keys must be columns of one type: " + parent.name() + "."
                            + parent.column(parentColumn).name() + "=" + pt + " " + dim.name() + "."
                            + dim.column(keyColumn).name() + "=" + dt);
        }
        if (pt == ColumnType.DOUBLE || dt == ColumnType.DOUBLE) {
            throw unsupported(join, "a join on DOUBLE keys");
        }
        if (parent.column(parentColumn).scale() != dim.column(keyColumn).scale()) {
            throw unsupported(
                    join,
                    "a join on keys of different scales: " + parent.name() + "."
                            + parent.column(parentColumn).name() + " is "
                            + parent.column(parentColumn).typeName() + ", " + dim.name() + "."
                            + dim.column(keyColumn).name() + " is "
                            + dim.column(keyColumn).typeName()
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
