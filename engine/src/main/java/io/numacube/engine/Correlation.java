package io.numacube.engine;

import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.sql.SqlTerms;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;

/**
 * How a subquery over a FROM list of tables names its outer query, for {@link Decorrelation}: its WHERE terms split
 * into equalities of an inner column and an outer one ({@code l_partkey = ps_partkey AND l_suppkey = ps_suppkey}: a
 * key of one or more columns), at most one comparison of an expression of inner columns with an expression of outer
 * columns by {@code <> < <= > >=} (TPC-H Q21's {@code l2.l_suppkey <> l1.l_suppkey}), and the rest, which names no
 * outer column. A subquery with any other reference to the outer query, or without an equality, is not such a
 * subquery ({@link #of} gives null). A subquery whose tables are joined by INNER JOIN ... ON is taken as the same
 * query over their FROM list, its ON conditions WHERE terms ({@link InnerJoinList}). Immutable.
 *
 * @param query      the subquery
 * @param inner      the inner column of each equality, in WHERE order
 * @param outer      the outer column of each equality, in the same order
 * @param inequality the one other comparison with the outer query, or null
 * @param rest       the other WHERE terms, naming inner columns only
 */
record Correlation(
        SqlSelect query,
        List<SqlIdentifier> inner,
        List<SqlIdentifier> outer,
        Inequality inequality,
        List<SqlNode> rest) {

    Correlation {
        inner = List.copyOf(inner);
        outer = List.copyOf(outer);
        rest = List.copyOf(rest);
    }

    /**
     * {@code innerSide op outerSide}, normalized so that the inner expression is on the left.
     *
     * @param op        NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN or GREATER_THAN_OR_EQUAL
     * @param innerSide an expression of inner columns only
     * @param outerSide an expression of outer columns only
     */
    record Inequality(SqlKind op, SqlNode innerSide, SqlNode outerSide) {}

    /** A table of a FROM list: its schema and the name its columns are qualified by. */
    record Table(TableSchema schema, String qualifier) {}

    /** {@code q} as a correlated subquery, or null when it is none of the shape the class comment says. */
    static Correlation of(SqlNode q, Function<String, Optional<TableSchema>> schemas) {
        if (!(q instanceof SqlSelect query)
                || query.getWhere() == null
                || query.getHaving() != null
                || query.getFetch() != null
                || query.getOffset() != null) {
            return null;
        }
        SqlSelect s = asTableList(query);
        if (s == null) {
            return null;
        }
        List<Table> tables = new ArrayList<>();
        if (!tables(s.getFrom(), schemas, tables)) {
            return null;
        }
        List<SqlIdentifier> inner = new ArrayList<>();
        List<SqlIdentifier> outer = new ArrayList<>();
        List<SqlNode> rest = new ArrayList<>();
        Inequality inequality = null;
        for (SqlNode t : SqlTerms.andTerms(s.getWhere())) {
            if (t.getKind() == SqlKind.EQUALS
                    && ((SqlCall) t).operand(0) instanceof SqlIdentifier a
                    && ((SqlCall) t).operand(1) instanceof SqlIdentifier b
                    && isInner(a, tables) != isInner(b, tables)) {
                inner.add(isInner(a, tables) ? a : b);
                outer.add(isInner(a, tables) ? b : a);
            } else if (namesOuter(t, tables)) {
                Inequality i = inequality(t, tables);
                if (i == null || inequality != null) {
                    return null;
                }
                inequality = i;
            } else {
                rest.add(t);
            }
        }
        return inner.isEmpty() ? null : new Correlation(s, inner, outer, inequality, rest);
    }

    /**
     * {@code s} itself where its FROM is a FROM list; where it joins its tables by INNER JOIN ... ON, a copy of it (the
     * statement's {@code s} untouched) over the FROM list with the ON conditions as WHERE terms ({@link
     * InnerJoinList}); else null.
     */
    private static SqlSelect asTableList(SqlSelect s) {
        InnerJoinList list = InnerJoinList.of(s.getFrom());
        if (list == null || list.on().isEmpty()) {
            return list == null ? null : s;
        }
        SqlSelect copy = (SqlSelect) s.clone(s.getParserPosition());
        List<SqlNode> terms = new ArrayList<>(list.on());
        terms.addAll(SqlTerms.andTerms(s.getWhere()));
        copy.setFrom(list.from());
        copy.setWhere(SqlTerms.and(terms, s.getWhere().getParserPosition()));
        return copy;
    }

    /** {@code t} as an inequality between inner and outer expressions, or null. */
    private static Inequality inequality(SqlNode t, List<Table> tables) {
        SqlKind op = t.getKind();
        if (op != SqlKind.NOT_EQUALS
                && op != SqlKind.LESS_THAN
                && op != SqlKind.LESS_THAN_OR_EQUAL
                && op != SqlKind.GREATER_THAN
                && op != SqlKind.GREATER_THAN_OR_EQUAL) {
            return null;
        }
        SqlNode a = ((SqlCall) t).operand(0);
        SqlNode b = ((SqlCall) t).operand(1);
        if (innerOnly(a, tables) && outerOnly(b, tables)) {
            return new Inequality(op, a, b);
        }
        if (innerOnly(b, tables) && outerOnly(a, tables)) {
            return new Inequality(op.reverse(), b, a);
        }
        return null;
    }

    /** Whether {@code e} names columns (at least one), all of the subquery's own tables, and holds no subquery. */
    private static boolean innerOnly(SqlNode e, List<Table> tables) {
        return namesColumn(e) && !namesOuter(e, tables);
    }

    /** Whether {@code e} names columns (at least one), none of the subquery's own tables, and holds no subquery. */
    private static boolean outerOnly(SqlNode e, List<Table> tables) {
        if (e instanceof SqlIdentifier id) {
            return !id.isStar() && !isInner(id, tables);
        }
        if (e instanceof SqlSelect || !(e instanceof SqlCall call)) {
            return false;
        }
        boolean any = false;
        for (SqlNode o : operands(call)) {
            if (o == null || o instanceof SqlLiteral) {
                continue;
            }
            if (!outerOnly(o, tables)) {
                return false;
            }
            any = true;
        }
        return any;
    }

    private static boolean namesColumn(SqlNode e) {
        if (e instanceof SqlIdentifier id) {
            return !id.isStar();
        }
        if (e instanceof SqlCall call && !(e instanceof SqlSelect)) {
            return operands(call).stream().anyMatch(o -> o != null && namesColumn(o));
        }
        return false;
    }

    /** The operands of {@code call}, with those of a list spread out (a CASE keeps its WHENs and THENs in lists). */
    private static List<SqlNode> operands(SqlCall call) {
        List<SqlNode> out = new ArrayList<>();
        for (SqlNode o : call.getOperandList()) {
            if (o instanceof org.apache.calcite.sql.SqlNodeList list) {
                list.forEach(out::add);
            } else {
                out.add(o);
            }
        }
        return out;
    }

    /** Adds the tables of a FROM list of table names; false (nothing certain added) for anything else. */
    static boolean tables(SqlNode from, Function<String, Optional<TableSchema>> schemas, List<Table> out) {
        if (from instanceof SqlJoin j) {
            return tables(j.getLeft(), schemas, out) && tables(j.getRight(), schemas, out);
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
        schema.ifPresent(t -> out.add(new Table(t, qualifier)));
        return schema.isPresent();
    }

    /** Whether {@code id} names a column of the subquery's own tables (SQL resolves the innermost scope first). */
    private static boolean isInner(SqlIdentifier id, List<Table> tables) {
        if (id.names.size() == 2) {
            return tables.stream().anyMatch(t -> t.qualifier().equalsIgnoreCase(id.names.get(0)));
        }
        return id.names.size() == 1 && tables.stream().anyMatch(t -> t.schema().indexOf(id.getSimple()) >= 0);
    }

    /** Whether {@code e} names a column that is not the subquery's own, or holds a subquery. */
    private static boolean namesOuter(SqlNode e, List<Table> tables) {
        if (e instanceof SqlIdentifier id) {
            return !id.isStar() && !isInner(id, tables);
        }
        if (e instanceof SqlSelect) {
            return true;
        }
        if (e instanceof SqlCall call) {
            for (SqlNode o : operands(call)) {
                if (o != null && !(o instanceof SqlLiteral) && namesOuter(o, tables)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code from} is a table name, or a FROM list (comma joins) of table names, each with an alias or not. */
    static boolean isTableList(SqlNode from) {
        if (from instanceof SqlJoin j) {
            return j.getJoinType() == JoinType.COMMA && isTableList(j.getLeft()) && isTableList(j.getRight());
        }
        SqlNode table = from != null && from.getKind() == SqlKind.AS ? ((SqlCall) from).operand(0) : from;
        return table instanceof SqlIdentifier;
    }
}
