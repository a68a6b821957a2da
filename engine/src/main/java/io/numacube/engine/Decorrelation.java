package io.numacube.engine;

import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.DerivedTables;
import io.numacube.engine.sql.SqlTerms;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Turns the two commonest correlated subqueries of a query over a FROM list into joins, before {@link Subqueries} runs
 * the subqueries as tables (TPC-H Q2, Q4, Q17). Each must stand as a top-level AND term of WHERE, be correlated by
 * exactly one equality of an inner column and an outer one, and name no other outer column:
 *
 * <ul>
 *   <li>{@code EXISTS (SELECT ... FROM t WHERE t.k = outer.c AND rest)} becomes the FROM item {@code (SELECT DISTINCT
 *       t.k AS __k FROM t WHERE rest) __existsN} and the term {@code outer.c = __existsN.__k}: an inner join to
 *       distinct keys, which keeps each outer row once where a match exists (a semi-join); {@code NOT EXISTS} the
 *       same table joined LEFT ({@link DerivedTables#ANTI_PREFIX}) and the term {@code __antiN.__k IS NULL} (an anti-join);
 *   <li>{@code x op (SELECT agg(...) FROM t WHERE t.k = outer.c AND rest)} (an aggregate other than COUNT, whose empty
 *       value is NULL) becomes the FROM item {@code (SELECT t.k AS __k, agg(...) AS __v FROM t WHERE rest GROUP BY
 *       t.k) __scalarN}, the term {@code outer.c = __scalarN.__k} and {@code x op __scalarN.__v}: a row without a
 *       group had a NULL subquery value, which no comparison passes, and the inner join drops it just the same.
 * </ul>
 *
 * Where the outer column's table has filters of its own in the outer WHERE, the subquery is first joined to the
 * distinct keys that pass them ({@code __magicN}, see {@link #restricted}), so it works on the keys that matter.
 * {@link io.numacube.engine.sql.SqlBinder}'s FROM list rules then join the new items on their keys. Anything else
 * (two correlations, COUNT, a subquery inside an expression) is left as it is, and refused as a correlated
 * subquery when it runs. One per statement; not thread-safe.
 */
final class Decorrelation {

    private final Function<String, Optional<TableSchema>> schemas;
    private int counter;

    /** @param schemas the schema of a table by name (temporary tables included), for telling inner from outer */
    Decorrelation(Function<String, Optional<TableSchema>> schemas) {
        this.schemas = schemas;
    }

    /** A subquery's tables: schema and the name its columns are qualified by. */
    private record Inner(TableSchema schema, String qualifier) {}

    /** A subquery correlated by {@code innerColumn = outerColumn}, with its other WHERE terms. */
    private record Correlated(SqlSelect query, SqlNode innerColumn, SqlNode outerColumn, List<SqlNode> rest) {}

    /** Rewrites {@code select}'s WHERE and FROM in place, as the class comment says. */
    void rewrite(SqlSelect select) {
        if (select.getWhere() == null || !isTableList(select.getFrom())) {
            return;
        }
        List<SqlNode> terms = SqlTerms.andTerms(select.getWhere());
        List<Inner> outerTables = new ArrayList<>();
        Outer outer = tables(select.getFrom(), outerTables) ? new Outer(outerTables, terms) : null;
        List<SqlNode> items = new ArrayList<>();
        List<SqlNode> out = new ArrayList<>();
        for (SqlNode t : terms) {
            if (!exists(t, items, out, outer) && !scalarComparison(t, items, out, outer)) {
                out.add(t);
            }
        }
        if (items.isEmpty()) {
            return;
        }
        SqlNode from = select.getFrom();
        for (SqlNode item : items) {
            from = new SqlJoin(
                    item.getParserPosition(),
                    from,
                    SqlLiteral.createBoolean(false, SqlParserPos.ZERO),
                    JoinType.COMMA.symbol(SqlParserPos.ZERO),
                    item,
                    JoinConditionType.NONE.symbol(SqlParserPos.ZERO),
                    null);
        }
        select.setFrom(from);
        select.setWhere(SqlTerms.and(out, select.getWhere().getParserPosition()));
    }

    private boolean exists(SqlNode t, List<SqlNode> items, List<SqlNode> out, Outer outer) {
        boolean anti = t.getKind() == SqlKind.NOT && ((SqlCall) t).operand(0).getKind() == SqlKind.EXISTS;
        if (t.getKind() != SqlKind.EXISTS && !anti) {
            return false;
        }
        SqlCall exists = anti ? (SqlCall) ((SqlCall) t).operand(0) : (SqlCall) t;
        Correlated c = correlated(exists.operand(0));
        if (c == null || grouped(c.query())) {
            return false;
        }
        c = restricted(c, outer, t);
        SqlParserPos pos = t.getParserPosition();
        String alias = (anti ? DerivedTables.ANTI_PREFIX : DerivedTables.EXISTS_PREFIX) + ++counter;
        SqlSelect keys = select(
                pos,
                SqlNodeList.of(SqlSelectKeyword.DISTINCT.symbol(pos)),
                SqlNodeList.of(as(c.innerColumn(), DerivedTables.KEY, pos)),
                c,
                null);
        items.add(as(keys, alias, pos));
        out.add(SqlStdOperatorTable.EQUALS.createCall(pos, c.outerColumn(), column(alias, DerivedTables.KEY, pos)));
        if (anti) {
            out.add(SqlStdOperatorTable.IS_NULL.createCall(pos, column(alias, DerivedTables.KEY, pos)));
        }
        return true;
    }

    private boolean scalarComparison(SqlNode t, List<SqlNode> items, List<SqlNode> out, Outer outer) {
        if (!isComparison(t)) {
            return false;
        }
        SqlCall cmp = (SqlCall) t;
        int side = cmp.operand(1) instanceof SqlSelect ? 1 : cmp.operand(0) instanceof SqlSelect ? 0 : -1;
        Correlated c = side < 0 ? null : correlated(cmp.operand(side));
        if (c == null
                || grouped(c.query())
                || c.query().getSelectList().size() != 1
                || !hasAggregateOtherThanCount(c.query().getSelectList().get(0))) {
            return false;
        }
        c = restricted(c, outer, t);
        SqlParserPos pos = t.getParserPosition();
        String alias = DerivedTables.SCALAR_PREFIX + ++counter;
        SqlSelect grouped = select(
                pos,
                null,
                SqlNodeList.of(
                        as(c.innerColumn(), DerivedTables.KEY, pos),
                        as(c.query().getSelectList().get(0), DerivedTables.VALUE, pos)),
                c,
                SqlNodeList.of(c.innerColumn()));
        items.add(as(grouped, alias, pos));
        cmp.setOperand(side, column(alias, DerivedTables.VALUE, pos));
        out.add(cmp);
        out.add(SqlStdOperatorTable.EQUALS.createCall(pos, c.outerColumn(), column(alias, DerivedTables.KEY, pos)));
        return true;
    }

    /** The outer query's tables and WHERE terms, for {@link #restricted}. */
    private record Outer(List<Inner> tables, List<SqlNode> terms) {}

    /**
     * {@code c} joined to the distinct keys of the outer rows it can meet (magic sets, as DuckDB pushes a filter into
     * a correlated subquery): where the outer column belongs to one outer table and other WHERE terms filter that
     * table alone, the subquery gets the FROM item {@code (SELECT DISTINCT T.c AS __k FROM T WHERE those terms)
     * __magicN} and the term {@code inner = __magicN.__k}. A subquery key no outer row passing those terms has never
     * meets one, so the answer is the same, and the subquery aggregates or lists only the keys that matter (TPC-H Q4's
     * orders of one quarter, Q17's parts of one brand and container). Otherwise {@code c} itself.
     */
    private Correlated restricted(Correlated c, Outer outer, SqlNode term) {
        if (outer == null || !(c.outerColumn() instanceof SqlIdentifier col)) {
            return c;
        }
        Inner table = ownerOf(col, outer.tables());
        if (table == null) {
            return c;
        }
        List<SqlNode> filters = new ArrayList<>();
        for (SqlNode t : outer.terms()) {
            if (t != term && filtersOnly(t, table, outer.tables())) {
                filters.add(t.clone(t.getParserPosition()));
            }
        }
        if (filters.isEmpty()) {
            return c;
        }
        SqlParserPos pos = term.getParserPosition();
        String alias = DerivedTables.PREFIX + "magic" + ++counter;
        SqlSelect keys = new SqlSelect(
                pos,
                SqlNodeList.of(SqlSelectKeyword.DISTINCT.symbol(pos)),
                SqlNodeList.of(as(column(table.qualifier(), last(col), pos), DerivedTables.KEY, pos)),
                as(new SqlIdentifier(table.schema().name(), pos), table.qualifier(), pos),
                SqlTerms.and(filters, pos),
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        c.query()
                .setFrom(new SqlJoin(
                        pos,
                        c.query().getFrom(),
                        SqlLiteral.createBoolean(false, SqlParserPos.ZERO),
                        JoinType.COMMA.symbol(SqlParserPos.ZERO),
                        as(keys, alias, pos),
                        JoinConditionType.NONE.symbol(SqlParserPos.ZERO),
                        null));
        List<SqlNode> rest = new ArrayList<>(c.rest());
        rest.add(SqlStdOperatorTable.EQUALS.createCall(pos, c.innerColumn(), column(alias, DerivedTables.KEY, pos)));
        return new Correlated(c.query(), c.innerColumn(), c.outerColumn(), rest);
    }

    /** The one outer table a column belongs to, or null (unknown, or a name two tables share). */
    private static Inner ownerOf(SqlIdentifier col, List<Inner> tables) {
        List<Inner> owners = tables.stream()
                .filter(t -> col.names.size() == 2
                        ? t.qualifier().equalsIgnoreCase(col.names.get(0))
                                && t.schema().indexOf(col.names.get(1)) >= 0
                        : col.names.size() == 1 && t.schema().indexOf(col.getSimple()) >= 0)
                .toList();
        return owners.size() == 1 ? owners.get(0) : null;
    }

    /** Whether a WHERE term names columns of {@code table} only (at least one), and no subquery. */
    private static boolean filtersOnly(SqlNode term, Inner table, List<Inner> tables) {
        boolean[] seen = {false, true};
        term.accept(new org.apache.calcite.sql.util.SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                if (!id.isStar()) {
                    seen[0] = true;
                    seen[1] &= ownerOf(id, tables) == table;
                }
                return id;
            }

            @Override
            public SqlNode visit(SqlCall call) {
                seen[1] &= !(call instanceof SqlSelect) && call.getKind() != SqlKind.OVER;
                return call instanceof SqlSelect ? call : super.visit(call);
            }
        });
        return seen[0] && seen[1];
    }

    private static String last(SqlIdentifier id) {
        return id.names.get(id.names.size() - 1);
    }

    /** {@code q} as a subquery correlated by one equality, or null. */
    private Correlated correlated(SqlNode q) {
        if (!(q instanceof SqlSelect s) || s.getWhere() == null || !isTableList(s.getFrom()) || s.getHaving() != null) {
            return null;
        }
        List<Inner> inner = new ArrayList<>();
        if (!tables(s.getFrom(), inner)) {
            return null;
        }
        List<SqlNode> terms = SqlTerms.andTerms(s.getWhere());
        Correlated found = null;
        List<SqlNode> rest = new ArrayList<>();
        for (SqlNode t : terms) {
            if (t.getKind() == SqlKind.EQUALS
                    && ((SqlCall) t).operand(0) instanceof SqlIdentifier a
                    && ((SqlCall) t).operand(1) instanceof SqlIdentifier b
                    && isInner(a, inner) != isInner(b, inner)) {
                if (found != null) {
                    return null;
                }
                found = isInner(a, inner) ? new Correlated(s, a, b, rest) : new Correlated(s, b, a, rest);
            } else if (namesOuter(t, inner)) {
                return null;
            } else {
                rest.add(t);
            }
        }
        return found;
    }

    private boolean tables(SqlNode from, List<Inner> out) {
        if (from instanceof SqlJoin j) {
            return tables(j.getLeft(), out) && tables(j.getRight(), out);
        }
        SqlNode table = from;
        String alias = null;
        if (from.getKind() == SqlKind.AS) {
            table = ((SqlCall) from).operand(0);
            alias = ((SqlIdentifier) ((SqlCall) from).operand(1)).getSimple();
        }
        if (!(table instanceof SqlIdentifier id) || !id.isSimple()) {
            return false;
        }
        String qualifier = alias != null ? alias : id.getSimple();
        Optional<TableSchema> schema = schemas.apply(id.getSimple());
        schema.ifPresent(t -> out.add(new Inner(t, qualifier)));
        return schema.isPresent();
    }

    /** Whether {@code id} names a column of the subquery's own tables (SQL resolves the innermost scope first). */
    private static boolean isInner(SqlIdentifier id, List<Inner> inner) {
        if (id.names.size() == 2) {
            return inner.stream().anyMatch(t -> t.qualifier().equalsIgnoreCase(id.names.get(0)));
        }
        return id.names.size() == 1 && inner.stream().anyMatch(t -> t.schema().indexOf(id.getSimple()) >= 0);
    }

    private static boolean namesOuter(SqlNode e, List<Inner> inner) {
        if (e instanceof SqlIdentifier id) {
            return !id.isStar() && !isInner(id, inner);
        }
        if (e instanceof SqlSelect) {
            return true;
        }
        if (e instanceof SqlCall call) {
            for (SqlNode o : call.getOperandList()) {
                if (o != null && !(o instanceof SqlLiteral) && namesOuter(o, inner)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code e} holds SUM, MIN, MAX or AVG (by name, as the parser leaves them) and no COUNT. */
    private static boolean hasAggregateOtherThanCount(SqlNode e) {
        boolean[] seen = new boolean[2];
        aggregates(e, seen);
        return seen[0] && !seen[1];
    }

    private static void aggregates(SqlNode e, boolean[] seen) {
        if (!(e instanceof SqlCall call)) {
            return;
        }
        String name = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
        seen[0] |= name.equals("SUM") || name.equals("MIN") || name.equals("MAX") || name.equals("AVG");
        seen[1] |= name.equals("COUNT");
        for (SqlNode o : call.getOperandList()) {
            aggregates(o, seen);
        }
    }

    private static SqlSelect select(
            SqlParserPos pos, SqlNodeList keywords, SqlNodeList items, Correlated c, SqlNodeList groupBy) {
        return new SqlSelect(
                pos,
                keywords,
                items,
                c.query().getFrom(),
                SqlTerms.and(c.rest(), pos),
                groupBy,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    private static boolean grouped(SqlSelect s) {
        return s.getGroup() != null && !s.getGroup().isEmpty();
    }

    private static boolean isTableList(SqlNode from) {
        if (from instanceof SqlJoin j) {
            return j.getJoinType() == JoinType.COMMA && isTableList(j.getLeft()) && isTableList(j.getRight());
        }
        SqlNode table = from != null && from.getKind() == SqlKind.AS ? ((SqlCall) from).operand(0) : from;
        return table instanceof SqlIdentifier;
    }

    private static boolean isComparison(SqlNode t) {
        return switch (t.getKind()) {
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> true;
            default -> false;
        };
    }

    private static SqlNode as(SqlNode e, String name, SqlParserPos pos) {
        return SqlStdOperatorTable.AS.createCall(pos, e, new SqlIdentifier(name, pos));
    }

    private static SqlIdentifier column(String table, String column, SqlParserPos pos) {
        return new SqlIdentifier(List.of(table, column), pos);
    }
}
