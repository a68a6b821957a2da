package io.numacube.engine;

import io.numacube.engine.sql.DerivedTables;
import io.numacube.engine.sql.SqlBinder;
import io.numacube.engine.sql.SqlTerms;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Litmus;

/**
 * Aggregates the right table of a LEFT JOIN by its join key before the join (eager aggregation), where the query
 * aggregates that table's rows per row of the left side (TPC-H Q13: {@code SELECT c_custkey, COUNT(o_orderkey) FROM
 * customer LEFT JOIN orders ON c_custkey = o_custkey AND o_comment NOT LIKE '...' GROUP BY c_custkey}). The cube joins
 * a table by a unique key; this makes the right table's key unique, so a LEFT JOIN of a key with many rows (one
 * customer's orders) runs:
 *
 * <pre>
 * SELECT ..., agg'(__groupN.__a1) ... FROM left LEFT JOIN
 *     (SELECT o_custkey AS __k, COUNT(o_orderkey) AS __a1 FROM orders WHERE [ON terms of orders alone] GROUP BY o_custkey)
 *     __groupN ON c_custkey = __groupN.__k ...
 * </pre>
 *
 * Each left row meets at most one group, which holds what its matching rows would have given, so the outer query
 * combines partial aggregates exactly: {@code COUNT(x)} is {@code COALESCE(SUM(__a), 0)}, {@code SUM(x)} is {@code
 * SUM(__a)}, {@code MIN} and {@code MAX} are themselves, {@code COUNT(*)} is {@code SUM(COALESCE(__a, 1))} (a left row
 * without a match is one row); a left row without a match adds NULL partials, as it added NULL columns.
 *
 * <p>Not applied where the right table's key is one column the catalog knows to be a key (every value once, no NULL):
 * the join needs no aggregation then, and its tables are kept for later queries. Otherwise applied only when that is
 * plainly so: the FROM clause is {@code left LEFT JOIN t [alias] ON ...} (or {@code USING
 * (k, ...)}, each k of one left table), the left side
 * tables joined to each other and {@code t} a table (a subquery there is run first, as a temporary table); the ON condition is equalities of a left column and a column of
 * {@code t} (at least one), and terms naming {@code t} alone (which filter {@code t} before the join, as ON does);
 * every column of {@code t} the query names elsewhere is inside COUNT, SUM, MIN or MAX (no DISTINCT, FILTER, AVG)
 * whose arguments name {@code t} alone, and no aggregate names a left column (a left row repeated per match would
 * count it again); WHERE and GROUP BY name no column of {@code t}; no subquery, window or {@code *}; an unaliased item
 * holding such an aggregate is the aggregate of a column or {@code COUNT(*)}, aliased by the name it had. Otherwise
 * the query is left as it is. One per statement; not thread-safe.
 */
final class EagerAggregation {

    /** The alias prefix of the partial aggregation, which is never aggregated eagerly again. */
    private static final String GROUP_PREFIX = DerivedTables.PREFIX + "group";

    private static final Set<String> PARTIAL = Set.of("COUNT", "SUM", "MIN", "MAX");
    private static final Set<String> AGGREGATES = Set.of("COUNT", "SUM", "MIN", "MAX", "AVG");

    private final SqlBinder.Catalog catalog;
    private final UnaryOperator<SqlNode> materialize;
    private int counter;

    /**
     * @param catalog     the schema of a table by name (temporary tables included), and whether a column is a key
     * @param materialize a FROM item that is a subquery ({@code (SELECT ...) AS o}) as a temporary table under the same
     *                    alias, so that a LEFT JOIN of a subquery is aggregated eagerly as one of a table is
     */
    EagerAggregation(SqlBinder.Catalog catalog, UnaryOperator<SqlNode> materialize) {
        this.catalog = catalog;
        this.materialize = materialize;
    }

    /**
     * The query with its LEFT JOIN aggregated eagerly where the class comment allows it (the SELECT rewritten in place,
     * under a new ORDER BY where it has one), else {@code query} as it was.
     */
    SqlNode rewrite(SqlNode query) {
        SqlOrderBy orderBy = query instanceof SqlOrderBy ob ? ob : null;
        if (!((orderBy == null ? query : orderBy.query) instanceof SqlSelect select)
                || !(select.getFrom() instanceof SqlJoin join)
                || join.getJoinType() != JoinType.LEFT
                || (join.getConditionType() != JoinConditionType.ON
                        && join.getConditionType() != JoinConditionType.USING)
                || select.isDistinct()) {
            return query;
        }
        if (join.getRight().getKind() == SqlKind.AS
                && ((SqlCall) join.getRight()).operand(0) instanceof SqlCall q
                && (q instanceof SqlSelect || q instanceof SqlOrderBy || q.getKind() == SqlKind.WITH)) {
            join.setRight(materialize.apply(join.getRight()));
        }
        List<Correlation.Table> left = new ArrayList<>();
        List<Correlation.Table> right = new ArrayList<>();
        if (!tables(join.getLeft(), left)
                || !tables(join.getRight(), right)
                || right.size() != 1
                || right.get(0).qualifier().startsWith(GROUP_PREFIX)) {
            return query;
        }
        Columns columns = new Columns(right.get(0), left);
        Partials partials = new Partials(columns);
        Condition on = join.getConditionType() == JoinConditionType.USING
                ? Condition.using((SqlNodeList) join.getCondition(), columns)
                : Condition.of(join.getCondition(), columns);
        if (on == null || isKey(right.get(0), on) || !fits(select, orderBy, columns, partials)) {
            return query;
        }
        return rewritten(select, orderBy, join, on, partials);
    }

    /**
     * Whether WHERE and GROUP BY name no right column, and the select list, HAVING and ORDER BY name right columns
     * only in aggregates that {@code partials} collects, at least one, under names they keep.
     */
    private static boolean fits(SqlSelect select, SqlOrderBy orderBy, Columns columns, Partials partials) {
        List<SqlNode> outside = new ArrayList<>();
        outside.add(select.getWhere());
        outside.add(select.getGroup());
        List<SqlNode> withAggregates = new ArrayList<>(select.getSelectList());
        withAggregates.add(select.getHaving());
        if (orderBy != null) {
            withAggregates.add(orderBy.orderList);
        }
        return outside.stream().allMatch(n -> n == null || columns.outsideAggregates(n, false))
                && withAggregates.stream().allMatch(n -> n == null || partials.collect(n))
                && !partials.isEmpty()
                && select.getSelectList().stream().allMatch(partials::keepsItsName);
    }

    /** {@code select} (under {@code orderBy}, or null) joined to the partial aggregation, its aggregates combined. */
    private SqlNode rewritten(SqlSelect select, SqlOrderBy orderBy, SqlJoin join, Condition on, Partials partials) {
        String alias = GROUP_PREFIX + ++counter;
        SqlParserPos pos = join.getParserPosition();
        select.setFrom(new SqlJoin(
                pos,
                join.getLeft(),
                SqlLiteral.createBoolean(false, pos),
                JoinType.LEFT.symbol(pos),
                Decorrelation.as(partials.select(join.getRight(), on, pos), alias, pos),
                JoinConditionType.ON.symbol(pos),
                on.joined(alias, pos)));
        SqlNodeList items = new SqlNodeList(select.getSelectList().getParserPosition());
        for (SqlNode item : select.getSelectList()) {
            items.add(partials.combinedItem(item, alias));
        }
        select.setSelectList(items);
        if (select.getHaving() != null) {
            select.setHaving(partials.combined(select.getHaving(), alias));
        }
        if (orderBy == null) {
            return select;
        }
        return new SqlOrderBy(
                orderBy.getParserPosition(),
                select,
                (SqlNodeList) partials.combined(orderBy.orderList, alias),
                orderBy.offset,
                orderBy.fetch);
    }

    /**
     * Whether the right table's join key is one column that the catalog knows to be a key ({@link
     * SqlBinder.Catalog#unique}): it joins as a dimension as it is, and its join tables are kept for the next query.
     */
    private boolean isKey(Correlation.Table right, Condition on) {
        return on.rightKeys().size() == 1
                && catalog.unique(
                        right.schema().name(), on.rightKeys().get(0).names.getLast());
    }

    /** Adds the tables of a FROM clause of table names joined any way; false for anything else. */
    private boolean tables(SqlNode from, List<Correlation.Table> out) {
        if (from instanceof SqlJoin j) {
            return tables(j.getLeft(), out) && tables(j.getRight(), out);
        }
        return Correlation.tables(from, catalog::schema, out);
    }

    /** Which side of the join a column is on. */
    private record Columns(Correlation.Table right, List<Correlation.Table> left) {

        /** Whether {@code id} may name a column of the right table (an unqualified name any of its columns has). */
        boolean isRight(SqlIdentifier id) {
            if (id.isStar()) {
                return true;
            }
            if (id.names.size() == 2) {
                return right.qualifier().equalsIgnoreCase(id.names.get(0));
            }
            return id.names.size() == 1 && right.schema().indexOf(id.getSimple()) >= 0;
        }

        /** Whether {@code id} is a column of a left table and no right one. */
        boolean isLeft(SqlIdentifier id) {
            if (isRight(id) || id.names.size() > 2) {
                return false;
            }
            return left.stream()
                    .anyMatch(t -> id.names.size() == 2
                            ? t.qualifier().equalsIgnoreCase(id.names.get(0))
                                    && t.schema().indexOf(id.names.get(1)) >= 0
                            : t.schema().indexOf(id.getSimple()) >= 0);
        }

        /**
         * Whether {@code e} holds no subquery, window or FILTER, and names no column of the right table ({@code
         * rightOnly} false) or columns of the right table only, at least one ({@code rightOnly} true); aggregates
         * count as any other call.
         */
        boolean outsideAggregates(SqlNode e, boolean rightOnly) {
            boolean[] ok = {true, false};
            e.accept(new SqlShuttle() {
                @Override
                public SqlNode visit(SqlIdentifier id) {
                    ok[0] &= rightOnly ? isRight(id) : !isRight(id);
                    ok[1] = true;
                    return id;
                }

                @Override
                public SqlNode visit(SqlCall call) {
                    if (call instanceof SqlSelect
                            || call.getKind() == SqlKind.OVER
                            || call.getKind() == SqlKind.FILTER) {
                        ok[0] = false;
                        return call;
                    }
                    return super.visit(call);
                }
            });
            return ok[0] && (!rightOnly || ok[1]);
        }
    }

    /** The ON condition: the key equalities (a left column = a right column) and the terms of the right table alone. */
    private record Condition(List<SqlIdentifier> leftKeys, List<SqlIdentifier> rightKeys, List<SqlNode> filters) {

        static Condition of(SqlNode on, Columns columns) {
            List<SqlIdentifier> leftKeys = new ArrayList<>();
            List<SqlIdentifier> rightKeys = new ArrayList<>();
            List<SqlNode> filters = new ArrayList<>();
            for (SqlNode t : SqlTerms.andTerms(on)) {
                if (t.getKind() == SqlKind.EQUALS
                        && ((SqlCall) t).operand(0) instanceof SqlIdentifier a
                        && ((SqlCall) t).operand(1) instanceof SqlIdentifier b
                        && columns.isLeft(a) != columns.isLeft(b)
                        && (columns.isLeft(a) ? columns.isRight(b) : columns.isRight(a))) {
                    leftKeys.add(columns.isLeft(a) ? a : b);
                    rightKeys.add(columns.isLeft(a) ? b : a);
                } else if (columns.outsideAggregates(t, true)) {
                    filters.add(t);
                } else {
                    return null;
                }
            }
            return leftKeys.isEmpty() ? null : new Condition(leftKeys, rightKeys, filters);
        }

        /** {@code USING (k, ...)}: each k of the one left table that has it equals the right table's k. */
        static Condition using(SqlNodeList keys, Columns columns) {
            List<SqlIdentifier> leftKeys = new ArrayList<>();
            List<SqlIdentifier> rightKeys = new ArrayList<>();
            for (SqlNode k : keys) {
                String name = ((SqlIdentifier) k).getSimple();
                List<Correlation.Table> owners = columns.left().stream()
                        .filter(t -> t.schema().indexOf(name) >= 0)
                        .toList();
                if (owners.size() != 1 || columns.right().schema().indexOf(name) < 0) {
                    return null;
                }
                SqlParserPos pos = k.getParserPosition();
                leftKeys.add(new SqlIdentifier(List.of(owners.get(0).qualifier(), name), pos));
                rightKeys.add(new SqlIdentifier(List.of(columns.right().qualifier(), name), pos));
            }
            return new Condition(leftKeys, rightKeys, List.of());
        }

        /** {@code left1 = alias.__k AND left2 = alias.__k2 ...}. */
        SqlNode joined(String alias, SqlParserPos pos) {
            List<SqlNode> terms = new ArrayList<>();
            for (int i = 0; i < leftKeys.size(); i++) {
                terms.add(SqlStdOperatorTable.EQUALS.createCall(
                        pos, leftKeys.get(i), Decorrelation.column(alias, DerivedTables.key(i), pos)));
            }
            return SqlTerms.and(terms, pos);
        }
    }

    /** The distinct aggregates of the right table the query computes, each a partial column {@code __aN}. */
    private static final class Partials {
        private final Columns columns;
        private final List<SqlCall> aggregates = new ArrayList<>();

        Partials(Columns columns) {
            this.columns = columns;
        }

        boolean isEmpty() {
            return aggregates.isEmpty();
        }

        /**
         * Collects the aggregates of {@code e} (a select item, HAVING or the ORDER BY list); false where {@code e}
         * does what the class comment excludes.
         */
        boolean collect(SqlNode e) {
            if (e instanceof SqlNodeList list) {
                return list.stream().allMatch(i -> i == null || collect(i));
            }
            SqlNode n = e.getKind() == SqlKind.AS ? ((SqlCall) e).operand(0) : e;
            if (n instanceof SqlIdentifier id) {
                return !columns.isRight(id);
            }
            if (!(n instanceof SqlCall call) || n instanceof SqlSelect) {
                return !(n instanceof SqlSelect);
            }
            if (call.getKind() == SqlKind.OVER || call.getKind() == SqlKind.FILTER) {
                return false;
            }
            String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
            if (AGGREGATES.contains(name)) {
                return partial(call, name);
            }
            for (SqlNode o : call.getOperandList()) {
                if (o != null && !(o instanceof SqlLiteral) && !collect(o)) {
                    return false;
                }
            }
            return true;
        }

        private boolean partial(SqlCall call, String name) {
            boolean star = name.equals("COUNT")
                    && call.operandCount() == 1
                    && call.operand(0) instanceof SqlIdentifier id
                    && id.isStar();
            if (!PARTIAL.contains(name)
                    || call.getFunctionQuantifier() != null
                    || call.operandCount() != 1
                    || (!star && !columns.outsideAggregates(call.operand(0), true))) {
                return false;
            }
            if (aggregates.stream().noneMatch(a -> a.equalsDeep(call, Litmus.IGNORE))) {
                aggregates.add(call);
            }
            return true;
        }

        /**
         * Whether an unaliased item keeps its name once combined: it holds no aggregate, or is one aggregate of a
         * column or {@code COUNT(*)}, which {@link #combinedItem} aliases as the binder names it.
         */
        boolean keepsItsName(SqlNode item) {
            return item.getKind() == SqlKind.AS || nameOf(item) != null || !holdsPartial(item);
        }

        private boolean holdsPartial(SqlNode e) {
            if (e instanceof SqlCall call && !(e instanceof SqlSelect)) {
                if (aggregates.stream().anyMatch(a -> a.equalsDeep(call, Litmus.IGNORE))) {
                    return true;
                }
                return call.getOperandList().stream().anyMatch(o -> o != null && holdsPartial(o));
            }
            return false;
        }

        /** The name the binder gives {@code agg(column)} or {@code COUNT(*)}, or null for another item. */
        private static String nameOf(SqlNode item) {
            if (!(item instanceof SqlCall call)
                    || call.operandCount() != 1
                    || !(call.operand(0) instanceof SqlIdentifier id)
                    || !PARTIAL.contains(call.getOperator().getName().toUpperCase(Locale.ROOT))) {
                return null;
            }
            if (id.isStar()) {
                return "count_star()";
            }
            return call.getOperator().getName().toLowerCase(Locale.ROOT) + "(" + id.names.getLast() + ")";
        }

        /** The partial aggregation: {@code SELECT keys AS __k..., aggregates AS __a1... FROM right WHERE ...}. */
        SqlSelect select(SqlNode right, Condition on, SqlParserPos pos) {
            SqlNodeList items = new SqlNodeList(pos);
            SqlNodeList groupBy = new SqlNodeList(pos);
            for (int i = 0; i < on.rightKeys().size(); i++) {
                items.add(Decorrelation.as(on.rightKeys().get(i), DerivedTables.key(i), pos));
                groupBy.add(on.rightKeys().get(i).clone(pos));
            }
            for (int i = 0; i < aggregates.size(); i++) {
                items.add(Decorrelation.as(aggregates.get(i).clone(pos), partialName(i), pos));
            }
            return SqlTerms.select(pos, null, items, right, SqlTerms.and(on.filters(), pos), groupBy);
        }

        private static String partialName(int i) {
            return DerivedTables.PREFIX + "a" + (i + 1);
        }

        /** A select item combined from the partials, under the name it had. */
        SqlNode combinedItem(SqlNode item, String alias) {
            String name = item.getKind() == SqlKind.AS ? null : nameOf(item);
            SqlNode combined = combined(item, alias);
            return name == null || combined == item
                    ? combined
                    : Decorrelation.as(combined, name, item.getParserPosition());
        }

        /** {@code e} with each collected aggregate replaced by its combination of the partials. */
        SqlNode combined(SqlNode e, String alias) {
            return e.accept(new SqlShuttle() {
                @Override
                public SqlNode visit(SqlCall call) {
                    for (int i = 0; i < aggregates.size(); i++) {
                        if (aggregates.get(i).equalsDeep(call, Litmus.IGNORE)) {
                            return combination(
                                    aggregates.get(i),
                                    Decorrelation.column(alias, partialName(i), call.getParserPosition()));
                        }
                    }
                    return super.visit(call);
                }
            });
        }

        private static SqlNode combination(SqlCall aggregate, SqlIdentifier partial) {
            SqlParserPos pos = aggregate.getParserPosition();
            String name = aggregate.getOperator().getName().toUpperCase(Locale.ROOT);
            boolean star = aggregate.operand(0) instanceof SqlIdentifier id && id.isStar();
            SqlLiteral zero = SqlLiteral.createExactNumeric("0", pos);
            SqlLiteral one = SqlLiteral.createExactNumeric("1", pos);
            return switch (name) {
                case "COUNT" ->
                    star
                            ? SqlStdOperatorTable.SUM.createCall(
                                    pos, SqlStdOperatorTable.COALESCE.createCall(pos, partial, one))
                            : SqlStdOperatorTable.COALESCE.createCall(
                                    pos, SqlStdOperatorTable.SUM.createCall(pos, partial), zero);
                case "SUM" -> SqlStdOperatorTable.SUM.createCall(pos, partial);
                case "MIN" -> SqlStdOperatorTable.MIN.createCall(pos, partial);
                case "MAX" -> SqlStdOperatorTable.MAX.createCall(pos, partial);
                default -> throw new IllegalStateException("not a partial aggregate: " + name);
            };
        }
    }
}
