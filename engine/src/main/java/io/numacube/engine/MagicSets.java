package io.numacube.engine;

import io.numacube.engine.sql.DerivedTables;
import io.numacube.engine.sql.SqlTerms;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.ToLongFunction;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Restricts a correlated subquery to the keys of the outer rows it can meet (magic sets, as DuckDB pushes a filter into
 * a correlated subquery), for {@link Decorrelation}: where the outer key's columns all belong to one outer table T and
 * other WHERE terms filter T alone, the subquery gets the FROM item {@code (SELECT DISTINCT T.c AS __k [, T.d AS __k2
 * ...] FROM T WHERE those terms) __magicN} and the terms {@code inner = __magicN.__k ...}. Where T is the largest of
 * the outer tables (the outer query's fact table, which that query of distinct keys scans anyway) and the outer WHERE
 * links every outer table to it by equalities, the query of distinct keys is the whole outer FROM list under every
 * outer WHERE term without a subquery (TPC-H Q21: the orders of a late line of a supplier of one nation, not every
 * order with a late line). A subquery key that no outer row passing those terms has never meets one, so the answer is
 * the same, and the subquery aggregates or lists only the keys that matter (TPC-H Q4's orders of one quarter, Q17's
 * parts of one brand and container). One per statement; not thread-safe.
 */
final class MagicSets {

    /** The outer query's tables, WHERE terms and FROM list. */
    record Outer(List<Correlation.Table> tables, List<SqlNode> terms, SqlNode from) {}

    private final IntSupplier numbers;
    private final ToLongFunction<String> rows;
    private final java.util.function.Function<String, java.util.Optional<io.numacube.engine.schema.TableSchema>>
            schemas;

    /**
     * @param numbers the next number for a FROM item's alias, shared with the caller's own items
     * @param rows    the rows of a table by name, or -1 where unknown
     * @param schemas the schema of a table by name, for the types of the subquery's key columns
     */
    MagicSets(
            IntSupplier numbers,
            ToLongFunction<String> rows,
            java.util.function.Function<String, java.util.Optional<io.numacube.engine.schema.TableSchema>> schemas) {
        this.numbers = numbers;
        this.rows = rows;
        this.schemas = schemas;
    }

    /** {@code c} restricted as the class comment says, or {@code c} itself; {@code term} is the subquery's term. */
    Correlation restricted(Correlation c, Outer outer, SqlNode term) {
        if (outer == null) {
            return c;
        }
        Correlation.Table table = ownerOf(c.outer().get(0), outer.tables());
        if (table == null || c.outer().stream().anyMatch(o -> ownerOf(o, outer.tables()) != table)) {
            return c;
        }
        boolean wide = isLargest(table, outer.tables()) && linked(table, outer, term);
        List<SqlNode> filters = new ArrayList<>();
        for (SqlNode t : outer.terms()) {
            if (t != term && (wide ? ofOuterTables(t, outer.tables()) : filtersOnly(t, table, outer.tables()))) {
                filters.add(t.clone(t.getParserPosition()));
            }
        }
        if (filters.isEmpty()) {
            return c;
        }
        SqlParserPos pos = term.getParserPosition();
        SqlNode from = wide
                ? outer.from().clone(pos)
                : Decorrelation.as(new SqlIdentifier(table.schema().name(), pos), table.qualifier(), pos);
        // rows of the one table T list its keys at most once a row; a join of the outer tables may repeat them
        boolean oneTable = !wide || outer.tables().size() == 1;
        return joined(c, table, distinctKeys(c, table, from, filters, pos), oneTable, pos);
    }

    /** {@code SELECT DISTINCT T.c AS __k, ... FROM from WHERE filters}. */
    private static SqlSelect distinctKeys(
            Correlation c, Correlation.Table table, SqlNode from, List<SqlNode> filters, SqlParserPos pos) {
        SqlNodeList keys = new SqlNodeList(pos);
        for (int i = 0; i < c.outer().size(); i++) {
            SqlIdentifier col = c.outer().get(i);
            keys.add(Decorrelation.as(
                    Decorrelation.column(table.qualifier(), col.names.getLast(), pos), DerivedTables.key(i), pos));
        }
        return SqlTerms.select(
                pos,
                SqlNodeList.of(SqlSelectKeyword.DISTINCT.symbol(pos)),
                keys,
                from,
                SqlTerms.and(filters, pos),
                null);
    }

    /**
     * {@code c} with the distinct keys joined to its FROM list and its key columns equated to them; a key of one
     * integer column (inner and outer) with key sets on is instead the term {@code inner IN (distinct keys that are
     * not NULL)}, which {@link Subqueries} gives as a key set: the same rows pass (a NULL key joins nothing). Where the
     * keys are one table's ({@code oneTable}), that subquery has no DISTINCT ({@link
     * SubqueryValues#keySetsWithoutDistinct()}): the key set is made distinct where it is built.
     */
    private Correlation joined(
            Correlation c, Correlation.Table table, SqlSelect distinct, boolean oneTable, SqlParserPos pos) {
        List<Correlation.Table> innerTables = new ArrayList<>();
        if (SubqueryValues.keySets()
                && c.inner().size() == 1
                && Correlation.tables(c.query().getFrom(), schemas, innerTables)
                && isInteger(c.inner().get(0), innerTables)
                && isInteger(c.outer().get(0), List.of(table))) {
            SqlNode key = ((SqlCall) distinct.getSelectList().get(0)).operand(0);
            distinct.setWhere(SqlTerms.and(
                    List.of(distinct.getWhere(), SqlStdOperatorTable.IS_NOT_NULL.createCall(pos, key.clone(pos))),
                    pos));
            distinct.setSelectList(SqlNodeList.of(key));
            if (oneTable && SubqueryValues.keySetsWithoutDistinct()) {
                // the key set is made distinct where it is built, and a short list's repeated literal is as one
                distinct.setOperand(0, new SqlNodeList(pos));
            }
            List<SqlNode> rest = new ArrayList<>(c.rest());
            rest.add(SqlStdOperatorTable.IN.createCall(pos, c.inner().get(0).clone(pos), distinct));
            return new Correlation(c.query(), c.inner(), c.outer(), c.inequality(), rest);
        }
        String alias = DerivedTables.PREFIX + "magic" + numbers.getAsInt();
        c.query().setFrom(SqlTerms.commaJoin(pos, c.query().getFrom(), Decorrelation.as(distinct, alias, pos)));
        List<SqlNode> rest = new ArrayList<>(c.rest());
        for (int i = 0; i < c.inner().size(); i++) {
            rest.add(SqlStdOperatorTable.EQUALS.createCall(
                    pos, c.inner().get(i), Decorrelation.column(alias, DerivedTables.key(i), pos)));
        }
        return new Correlation(c.query(), c.inner(), c.outer(), c.inequality(), rest);
    }

    /** Whether {@code table} has more rows than every other outer table (and the row counts are known). */
    private boolean isLargest(Correlation.Table table, List<Correlation.Table> tables) {
        long most = rows.applyAsLong(table.schema().name());
        return most >= 0
                && tables.stream()
                        .filter(t -> t != table)
                        .allMatch(t -> rows.applyAsLong(t.schema().name()) < most);
    }

    /** Whether equalities of columns among the outer terms other than {@code term} link every outer table to {@code table}. */
    private static boolean linked(Correlation.Table table, Outer outer, SqlNode term) {
        Set<Correlation.Table> reached = new HashSet<>(List.of(table));
        boolean grew = true;
        while (grew) {
            grew = false;
            for (SqlNode t : outer.terms()) {
                if (t == term
                        || t.getKind() != SqlKind.EQUALS
                        || !(((SqlCall) t).operand(0) instanceof SqlIdentifier a)
                        || !(((SqlCall) t).operand(1) instanceof SqlIdentifier b)) {
                    continue;
                }
                Correlation.Table ta = ownerOf(a, outer.tables());
                Correlation.Table tb = ownerOf(b, outer.tables());
                if (ta != null && tb != null && reached.contains(ta) != reached.contains(tb)) {
                    reached.add(ta);
                    reached.add(tb);
                    grew = true;
                }
            }
        }
        return reached.size() == outer.tables().size();
    }

    /** Whether a WHERE term names columns of the outer tables only (each of one of them), and no subquery. */
    private static boolean ofOuterTables(SqlNode term, List<Correlation.Table> tables) {
        boolean[] ok = {true};
        term.accept(new org.apache.calcite.sql.util.SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                ok[0] &= id.isStar() || ownerOf(id, tables) != null;
                return id;
            }

            @Override
            public SqlNode visit(SqlCall call) {
                ok[0] &= !(call instanceof SqlSelect) && call.getKind() != SqlKind.OVER;
                return call instanceof SqlSelect ? call : super.visit(call);
            }
        });
        return ok[0];
    }

    /** Whether {@code col} is a column of one of {@code tables} (and of one only) of type INT or BIGINT. */
    static boolean isInteger(SqlIdentifier col, List<Correlation.Table> tables) {
        Correlation.Table t = ownerOf(col, tables);
        if (t == null) {
            return false;
        }
        io.numacube.engine.schema.ColumnSpec spec = t.schema().column(t.schema().indexOf(col.names.getLast()));
        // a DECIMAL is held as a LONG with a precision (and scale) beside it: not an integer here
        return spec.precision() == 0
                && (spec.type() == io.numacube.engine.schema.ColumnType.INT
                        || spec.type() == io.numacube.engine.schema.ColumnType.LONG);
    }

    /** The one outer table a column belongs to, or null (unknown, or a name two tables share). */
    private static Correlation.Table ownerOf(SqlIdentifier col, List<Correlation.Table> tables) {
        List<Correlation.Table> owners = tables.stream()
                .filter(t -> col.names.size() == 2
                        ? t.qualifier().equalsIgnoreCase(col.names.get(0))
                                && t.schema().indexOf(col.names.get(1)) >= 0
                        : col.names.size() == 1 && t.schema().indexOf(col.getSimple()) >= 0)
                .toList();
        return owners.size() == 1 ? owners.get(0) : null;
    }

    /** Whether a WHERE term names columns of {@code table} only (at least one), and no subquery. */
    private static boolean filtersOnly(SqlNode term, Correlation.Table table, List<Correlation.Table> tables) {
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
}
