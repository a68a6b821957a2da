package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;
import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.schema.TableSchema;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.Litmus;

/**
 * Turns a FROM list of tables ({@code FROM customer, orders, lineitem WHERE c_custkey = o_custkey AND l_orderkey =
 * o_orderkey ...}, as TPC-H writes its queries) into the cube's shape: the largest table (by the catalog's row counts;
 * the first listed when they are unknown; passed over where a join to it would take a key known to repeat, see
 * {@link #fact}) is the fact table, and every other table is joined, INNER, on one equality
 * of columns in WHERE that links it to a table already joined, in breadth-first order from the fact table (the FROM
 * order breaks ties), and on every other such equality between the same two tables (a key of several columns:
 * {@code ps_partkey = l_partkey AND ps_suppkey = l_suppkey}). The equalities used as join conditions leave WHERE; the others (a second link to a table
 * already joined, {@code c_nationkey = s_nationkey}) stay there as conditions. A table that no such equality links is
 * a cross join, which is refused with its position; so is a join whose key turns out not to be unique (the loader's
 * check, as for an explicit JOIN).
 *
 * <p>Stateless; thread-safe.
 */
final class CommaJoins {

    private CommaJoins() {}

    /** A table of the FROM list: its node (a name, or a name AS alias), schema and the name columns are qualified by. */
    private record Listed(SqlNode node, TableSchema schema, String qualifier) {}

    /** {@code left.column = right.column} in WHERE, a top-level AND term, between two listed tables. */
    private record Link(SqlNode term, int a, String aColumn, int b, String bColumn) {}

    static boolean isCommaJoin(SqlNode from) {
        return from instanceof SqlJoin j && j.getJoinType() == JoinType.COMMA;
    }

    /** Rewrites {@code select}'s FROM list and WHERE in place, as the class comment says. */
    static void rewrite(SqlSelect select, SqlBinder.Catalog catalog) {
        List<Listed> tables = new ArrayList<>();
        flatten(select.getFrom(), catalog, tables);
        List<SqlNode> terms = new ArrayList<>();
        if (select.getWhere() != null) {
            for (SqlNode t : SqlTerms.andTerms(select.getWhere())) {
                terms.addAll(factorOr(t));
            }
        }
        List<Link> links = new ArrayList<>();
        for (SqlNode t : terms) {
            Link l = link(t, tables);
            if (l != null) {
                links.add(l);
            }
        }
        int fact = fact(tables, links, catalog);
        List<Step> steps = steps(fact, links, tables.size());
        boolean[] joined = new boolean[tables.size()];
        joined[fact] = true;
        steps.forEach(st -> joined[st.other()] = true);
        for (int i = 0; i < tables.size(); i++) {
            if (!joined[i]) {
                throw unsupported(
                        tables.get(i).node(),
                        "a table in FROM that no equality of columns in WHERE joins to the others (a cross join): "
                                + tables.get(i).schema().name());
            }
        }
        SqlNode from = tables.get(fact).node();
        List<SqlNode> used = new ArrayList<>();
        for (Step st : steps) {
            from = join(from, tables, st.parent(), st.other(), st.key());
            st.key().forEach(k -> used.add(k.term()));
        }
        refuseSplitAntiKeys(links, used, tables);
        select.setFrom(from);
        List<SqlNode> left = terms.stream().filter(t -> !used.contains(t)).toList();
        select.setWhere(
                left.isEmpty() ? null : SqlTerms.and(left, select.getWhere().getParserPosition()));
    }

    /**
     * Refuses a table joined LEFT ({@link DerivedTables#ANTI_PREFIX}: a NOT EXISTS, NOT IN or marked EXISTS made a
     * join) whose key links it to two tables: it is joined on its links to one of them, and a link left in WHERE would
     * drop the very rows the LEFT join keeps without a match (it did: {@code NOT EXISTS (SELECT 1 FROM h WHERE h.k =
     * f.k AND h.x = g.w)} over {@code FROM g, f} gave no row).
     */
    private static void refuseSplitAntiKeys(List<Link> links, List<SqlNode> used, List<Listed> tables) {
        for (Link l : links) {
            boolean anti = tables.get(l.a()).qualifier().startsWith(DerivedTables.ANTI_PREFIX)
                    || tables.get(l.b()).qualifier().startsWith(DerivedTables.ANTI_PREFIX);
            if (anti && !used.contains(l.term())) {
                throw unsupported(
                        l.term(),
                        "NOT EXISTS, NOT IN (its left operand counting), or EXISTS inside OR or NOT, correlated by"
                                + " equalities to columns of two different tables of the outer query: its anti-join takes its key from one"
                                + " table only — correlate it to the columns of one table");
            }
        }
    }

    /** Table {@code other} joined to {@code parent} on every link {@code key} holds between them. */
    private record Step(int parent, int other, List<Link> key) {}

    /** The joins breadth-first from table {@code fact}, in order; tables no link reaches are in none. */
    private static List<Step> steps(int fact, List<Link> links, int tables) {
        boolean[] joined = new boolean[tables];
        joined[fact] = true;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(fact);
        List<SqlNode> used = new ArrayList<>();
        List<Step> steps = new ArrayList<>();
        while (!queue.isEmpty()) {
            int parent = queue.poll();
            for (Link l : links) {
                int other = l.a() == parent ? l.b() : l.b() == parent ? l.a() : -1;
                if (other < 0 || joined[other] || used.contains(l.term())) {
                    continue;
                }
                joined[other] = true;
                queue.add(other);
                List<Link> key = links.stream()
                        .filter(k -> !used.contains(k.term()) && linksPair(k, parent, other))
                        .toList();
                key.forEach(k -> used.add(k.term()));
                steps.add(new Step(parent, other, key));
            }
        }
        return steps;
    }

    private static boolean linksPair(Link l, int a, int b) {
        return (l.a() == a && l.b() == b) || (l.a() == b && l.b() == a);
    }

    /** {@code from} joined to table {@code other} on every link {@code key} holds between it and {@code parent}. */
    private static SqlNode join(SqlNode from, List<Listed> tables, int parent, int other, List<Link> key) {
        List<SqlNode> equalities = new ArrayList<>();
        for (Link l : key) {
            SqlParserPos pos = l.term().getParserPosition();
            String parentColumn = l.a() == parent ? l.aColumn() : l.bColumn();
            String otherColumn = l.a() == parent ? l.bColumn() : l.aColumn();
            equalities.add(SqlStdOperatorTable.EQUALS.createCall(
                    pos,
                    new SqlIdentifier(List.of(tables.get(parent).qualifier(), parentColumn), pos),
                    new SqlIdentifier(List.of(tables.get(other).qualifier(), otherColumn), pos)));
        }
        SqlParserPos pos = key.get(0).term().getParserPosition();
        return new SqlJoin(
                tables.get(other).node().getParserPosition(),
                from,
                SqlLiteral.createBoolean(false, pos),
                tables.get(other).qualifier().startsWith(DerivedTables.ANTI_PREFIX)
                        ? JoinType.LEFT.symbol(pos)
                        : JoinType.INNER.symbol(pos),
                tables.get(other).node(),
                JoinConditionType.ON.symbol(pos),
                SqlTerms.and(equalities, pos));
    }

    /**
     * The fact table: the largest table by rows (the first listed where the catalog knows no counts or they tie),
     * unless joining the others to it takes a key of one column that the catalog knows to repeat a value ({@link
     * SqlBinder.Catalog#repeats}: TPC-H's nation outnumbers supplier at a small scale, and {@code s_nationkey} is not
     * a key); then the next largest whose joins take no such key, if there is one.
     */
    private static int fact(List<Listed> tables, List<Link> links, SqlBinder.Catalog catalog) {
        int largest = largest(tables, catalog);
        List<Integer> candidates = new ArrayList<>();
        candidates.add(largest);
        java.util.stream.IntStream.range(0, tables.size())
                .filter(i ->
                        i != largest && !DerivedTables.isDerived(tables.get(i).qualifier()))
                .boxed()
                .sorted(java.util.Comparator.comparingLong(
                        (Integer i) -> -catalog.rows(tables.get(i).schema().name())))
                .forEach(candidates::add);
        for (int c : candidates) {
            if (steps(c, links, tables.size()).stream().noneMatch(st -> repeats(st, tables, catalog))) {
                return c;
            }
        }
        return largest;
    }

    /** The largest table by rows; the first listed where the catalog knows no counts or they tie. */
    private static int largest(List<Listed> tables, SqlBinder.Catalog catalog) {
        int best = 0;
        long most = catalog.rows(tables.get(0).schema().name());
        for (int i = 1; i < tables.size(); i++) {
            long rows = catalog.rows(tables.get(i).schema().name());
            if (rows > most && !DerivedTables.isDerived(tables.get(i).qualifier())) {
                most = rows;
                best = i;
            }
        }
        return best;
    }

    /** Whether a join takes a key of one column that the catalog knows to repeat a value. */
    private static boolean repeats(Step st, List<Listed> tables, SqlBinder.Catalog catalog) {
        if (st.key().size() != 1) {
            return false;
        }
        Link l = st.key().get(0);
        String column = l.a() == st.other() ? l.aColumn() : l.bColumn();
        return catalog.repeats(tables.get(st.other()).schema().name(), column);
    }

    private static void flatten(SqlNode from, SqlBinder.Catalog catalog, List<Listed> out) {
        if (from instanceof SqlJoin j) {
            if (j.getJoinType() != JoinType.COMMA) {
                throw unsupported(j, "an explicit JOIN inside a FROM list of tables (write all joins one way)");
            }
            flatten(j.getLeft(), catalog, out);
            flatten(j.getRight(), catalog, out);
            return;
        }
        SqlNode table = from;
        String alias = null;
        if (from.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) from;
            table = as.operand(0);
            alias = ((SqlIdentifier) as.operand(1)).getSimple();
        }
        if (!(table instanceof SqlIdentifier id) || !id.isSimple()) {
            throw unsupported(from, "a FROM list item other than a table name");
        }
        TableSchema schema = catalog.schema(id.getSimple())
                .orElseThrow(() -> bindError(id, "42P01", "no such table: table=" + id.getSimple()));
        out.add(new Listed(from, schema, alias != null ? alias : id.getSimple()));
    }

    /**
     * {@code term}, or where it is an OR whose every branch holds some same conditions ({@code (p_partkey = l_partkey
     * AND a) OR (p_partkey = l_partkey AND b)}, TPC-H Q19), those conditions and the OR of what is left of the
     * branches: {@code (x AND a) OR (x AND b)} is {@code x AND (a OR b)} in SQL's three-valued logic too.
     */
    private static List<SqlNode> factorOr(SqlNode term) {
        if (term.getKind() != SqlKind.OR) {
            return List.of(term);
        }
        List<List<SqlNode>> branches = new ArrayList<>();
        for (SqlNode b : orTerms(term)) {
            branches.add(new ArrayList<>(SqlTerms.andTerms(b)));
        }
        List<SqlNode> common = new ArrayList<>();
        for (SqlNode candidate : branches.get(0)) {
            if (branches.stream().allMatch(b -> b.stream().anyMatch(x -> x.equalsDeep(candidate, Litmus.IGNORE)))
                    && common.stream().noneMatch(x -> x.equalsDeep(candidate, Litmus.IGNORE))) {
                common.add(candidate);
            }
        }
        if (common.isEmpty()) {
            return List.of(term);
        }
        List<SqlNode> rest = new ArrayList<>();
        for (List<SqlNode> b : branches) {
            b.removeIf(x -> common.stream().anyMatch(c -> c.equalsDeep(x, Litmus.IGNORE)));
            if (b.isEmpty()) {
                // a branch of only common conditions is TRUE once they hold: so is the OR
                return common;
            }
            rest.add(SqlTerms.and(b, term.getParserPosition()));
        }
        SqlNode or = rest.get(0);
        for (int i = 1; i < rest.size(); i++) {
            or = new SqlBasicCall(SqlStdOperatorTable.OR, List.of(or, rest.get(i)), term.getParserPosition());
        }
        List<SqlNode> out = new ArrayList<>(common);
        out.add(or);
        return out;
    }

    private static List<SqlNode> orTerms(SqlNode e) {
        if (e.getKind() != SqlKind.OR) {
            return List.of(e);
        }
        List<SqlNode> out = new ArrayList<>();
        for (SqlNode o : ((SqlCall) e).getOperandList()) {
            out.addAll(orTerms(o));
        }
        return out;
    }

    /** The link {@code term} states between two different listed tables, or null when it is no such equality. */
    private static Link link(SqlNode term, List<Listed> tables) {
        if (term.getKind() != SqlKind.EQUALS) {
            return null;
        }
        SqlCall eq = (SqlCall) term;
        int a = owner(eq.operand(0), tables);
        int b = owner(eq.operand(1), tables);
        if (a < 0
                || b < 0
                || a == b
                || !joinable(tables.get(a), eq.operand(0))
                || !joinable(tables.get(b), eq.operand(1))) {
            return null;
        }
        return new Link(term, a, last(eq.operand(0)), b, last(eq.operand(1)));
    }

    /**
     * Whether a join may go through this column of this table: any column, except that a table a decorrelated
     * subquery became ({@link DerivedTables}) is joined by its key only, its value being compared, not joined on.
     */
    private static boolean joinable(Listed t, SqlNode column) {
        return !DerivedTables.isDerived(t.qualifier()) || DerivedTables.isKey(last(column));
    }

    /** The one listed table whose column {@code node} names, or -1 (not a column, unknown, or ambiguous). */
    private static int owner(SqlNode node, List<Listed> tables) {
        if (!(node instanceof SqlIdentifier id) || id.names.size() > 2) {
            return -1;
        }
        int found = -1;
        for (int i = 0; i < tables.size(); i++) {
            Listed t = tables.get(i);
            boolean qualifies = id.names.size() == 1 || t.qualifier().equalsIgnoreCase(id.names.get(0));
            if (qualifies && t.schema().indexOf(id.names.getLast()) >= 0) {
                if (found >= 0) {
                    return -1;
                }
                found = i;
            }
        }
        return found;
    }

    private static String last(SqlNode node) {
        return ((SqlIdentifier) node).names.getLast();
    }
}
