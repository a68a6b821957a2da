package io.numacube.engine;

import io.numacube.engine.sql.SqlTerms;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Merges a derived table that only filters and computes columns into the query over it (view merging, as every SQL
 * planner does): {@code SELECT g, SUM(v) FROM (SELECT a AS g, x * y AS v FROM t, u WHERE p) s WHERE q GROUP BY g}
 * becomes {@code SELECT a AS g, SUM(x * y) FROM t, u WHERE p AND q GROUP BY a}, one aggregation over the tables
 * (TPC-H Q7, Q8, Q22), instead of materializing every row of the derived table first. The same rows reach the same
 * expressions, so the answer is the same.
 *
 * <p>Merged only when that is plainly so: the derived table is the outer query's only FROM item, a SELECT without
 * GROUP BY, HAVING, aggregates, DISTINCT, window functions, ORDER BY, LIMIT or {@code *}, whose output names are
 * distinct; the outer select list has no {@code *} (it stands for the derived table's outputs, which the merged FROM
 * would not have); every column the outer query names (its select list, WHERE, GROUP BY, HAVING and ORDER BY) is one of
 * those outputs, bare or qualified by the derived table's alias (an outer subquery, naming its own tables, stops
 * the merge); and every outer select item keeps its name (aliased, a column, or of no column). Otherwise the query
 * is left as it is. Stateless.
 */
final class DerivedTableMerge {

    private DerivedTableMerge() {}

    /** {@code query} merged with its derived table where the class comment allows it, else {@code query} itself. */
    static SqlNode merge(SqlNode query) {
        SqlOrderBy orderBy = query instanceof SqlOrderBy ob ? ob : null;
        if (!((orderBy == null ? query : orderBy.query) instanceof SqlSelect outer)) {
            return query;
        }
        Derived derived = Derived.of(outer.getFrom());
        if (derived == null) {
            return query;
        }
        Substitution sub = new Substitution(derived);
        List<SqlNode> parts = new ArrayList<>();
        outer.getSelectList().forEach(item -> parts.add(unaliased(item)));
        addIfPresent(parts, outer.getWhere(), outer.getGroup(), outer.getHaving());
        List<String> outputs = outputNames(outer.getSelectList());
        List<SqlNode> orderItems = orderBy == null ? List.of() : orderBy.orderList;
        for (SqlNode item : orderItems) {
            if (!namesOutput(item, outputs)) {
                parts.add(item);
            }
        }
        if (!parts.stream().allMatch(sub::resolves)
                || outer.getSelectList().stream().anyMatch(DerivedTableMerge::isStar)
                || !outer.getSelectList().stream().allMatch(DerivedTableMerge::keepsItsName)) {
            return query;
        }
        SqlNodeList items = new SqlNodeList(outer.getSelectList().getParserPosition());
        for (SqlNode item : outer.getSelectList()) {
            items.add(mergedItem(item, sub));
        }
        outer.setSelectList(items);
        outer.setFrom(derived.select.getFrom());
        outer.setWhere(and(derived.select.getWhere(), substituted(outer.getWhere(), sub)));
        if (outer.getGroup() != null) {
            outer.setGroupBy((SqlNodeList) outer.getGroup().accept(sub));
        }
        outer.setHaving(substituted(outer.getHaving(), sub));
        if (orderBy == null) {
            return outer;
        }
        SqlNodeList order = new SqlNodeList(orderBy.orderList.getParserPosition());
        for (SqlNode item : orderBy.orderList) {
            order.add(namesOutput(item, outputs) ? item : item.accept(sub));
        }
        return new SqlOrderBy(orderBy.getParserPosition(), outer, order, orderBy.offset, orderBy.fetch);
    }

    /** A select item over the merged tables, under the name it had: {@code g} becomes {@code a AS g}. */
    private static SqlNode mergedItem(SqlNode item, Substitution sub) {
        if (item.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) item;
            return SqlStdOperatorTable.AS.createCall(
                    as.getParserPosition(), as.operand(0).accept(sub), as.operand(1));
        }
        SqlNode merged = item.accept(sub);
        return item instanceof SqlIdentifier id && merged != item
                ? SqlStdOperatorTable.AS.createCall(
                        id.getParserPosition(), merged, new SqlIdentifier(lastName(id), id.getParserPosition()))
                : merged;
    }

    /**
     * Whether a select item is named the same after the merge: aliased, a column (aliased by its name then), or an
     * expression of no column ({@code COUNT(*)}); {@code SUM(p)} would be named {@code sum(x * y)} after it.
     */
    /** {@code *} or {@code x.*} as a select item: it stands for the derived table's outputs, not its tables' columns. */
    private static boolean isStar(SqlNode item) {
        return item instanceof SqlIdentifier id && id.isStar();
    }

    private static boolean keepsItsName(SqlNode item) {
        if (item.getKind() == SqlKind.AS || item instanceof SqlIdentifier) {
            return true;
        }
        boolean[] column = {false};
        item.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                column[0] |= !id.isStar();
                return id;
            }
        });
        return !column[0];
    }

    private static SqlNode unaliased(SqlNode item) {
        return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
    }

    /** Whether an ORDER BY item ({@code x}, {@code x DESC}, {@code x NULLS FIRST}) names an output of the outer query. */
    private static boolean namesOutput(SqlNode item, List<String> outputs) {
        SqlNode n = item;
        while (n.getKind() == SqlKind.DESCENDING
                || n.getKind() == SqlKind.NULLS_FIRST
                || n.getKind() == SqlKind.NULLS_LAST) {
            n = ((SqlCall) n).operand(0);
        }
        return n instanceof SqlIdentifier id && id.isSimple() && outputs.contains(lower(id.getSimple()));
    }

    /** A mergeable derived table: its query and its output expressions by lower-case name. */
    private record Derived(String alias, SqlSelect select, Map<String, SqlNode> outputs) {

        static Derived of(SqlNode from) {
            if (from == null || from.getKind() != SqlKind.AS) {
                return null;
            }
            SqlCall as = (SqlCall) from;
            if (!(as.operand(0) instanceof SqlSelect s) || !plain(s)) {
                return null;
            }
            List<String> renamed = new ArrayList<>();
            for (int i = 2; i < as.operandCount(); i++) {
                renamed.add(lower(((SqlIdentifier) as.operand(i)).getSimple()));
            }
            if (!renamed.isEmpty() && renamed.size() != s.getSelectList().size()) {
                return null;
            }
            Map<String, SqlNode> outputs = new HashMap<>();
            for (int i = 0; i < s.getSelectList().size(); i++) {
                SqlNode item = s.getSelectList().get(i);
                String name = renamed.isEmpty() ? outputName(item) : renamed.get(i);
                SqlNode expr = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
                if (name == null || outputs.put(name, expr) != null) {
                    return null;
                }
            }
            return new Derived(lower(((SqlIdentifier) as.operand(1)).getSimple()), s, outputs);
        }

        private static boolean plain(SqlSelect s) {
            return s.getGroup() == null
                    && s.getHaving() == null
                    && s.getWindowList().isEmpty()
                    && (s.getModifierNode(org.apache.calcite.sql.SqlSelectKeyword.DISTINCT) == null)
                    && s.getOrderList() == null
                    && s.getFetch() == null
                    && s.getOffset() == null
                    && s.getFrom() != null
                    && s.getSelectList().stream().noneMatch(Derived::aggregateOrStar);
        }

        private static boolean aggregateOrStar(SqlNode n) {
            boolean[] found = {false};
            n.accept(new SqlShuttle() {
                @Override
                public SqlNode visit(SqlIdentifier id) {
                    found[0] |= id.isStar();
                    return id;
                }

                @Override
                public SqlNode visit(SqlCall call) {
                    found[0] |= call.getOperator().isAggregator()
                            || call.getKind() == SqlKind.OVER
                            || call.getKind() == SqlKind.SELECT;
                    return super.visit(call);
                }
            });
            return found[0];
        }
    }

    /** Replaces the derived table's output names by its expressions; {@link #resolves} tells whether it can. */
    private static final class Substitution extends SqlShuttle {
        private final Derived derived;

        Substitution(Derived derived) {
            this.derived = derived;
        }

        private SqlNode target(SqlIdentifier id) {
            if (id.isStar()) {
                return null;
            }
            if (id.isSimple()) {
                return derived.outputs.get(lower(id.getSimple()));
            }
            return id.names.size() == 2 && lower(id.names.get(0)).equals(derived.alias)
                    ? derived.outputs.get(lower(id.names.get(1)))
                    : null;
        }

        /** Whether every column under {@code n} is an output of the derived table (a {@code COUNT(*)} star is fine). */
        boolean resolves(SqlNode n) {
            boolean[] ok = {true};
            n.accept(new SqlShuttle() {
                @Override
                public SqlNode visit(SqlIdentifier id) {
                    ok[0] &= id.isStar() && id.names.size() <= 1 || target(id) != null;
                    return id;
                }

                @Override
                public SqlNode visit(SqlCall call) {
                    ok[0] &= call.getKind() != SqlKind.SELECT && call.getKind() != SqlKind.OVER;
                    return super.visit(call);
                }

                @Override
                public SqlNode visit(SqlDataTypeSpec type) {
                    return type;
                }
            });
            return ok[0];
        }

        @Override
        public SqlNode visit(SqlIdentifier id) {
            SqlNode t = target(id);
            return t == null ? id : t.clone(t.getParserPosition());
        }

        @Override
        public SqlNode visit(SqlDataTypeSpec type) {
            return type;
        }
    }

    private static void addIfPresent(List<SqlNode> parts, SqlNode... nodes) {
        for (SqlNode n : nodes) {
            if (n != null) {
                parts.add(n);
            }
        }
    }

    private static SqlNode substituted(SqlNode n, Substitution sub) {
        return n == null ? null : n.accept(sub);
    }

    private static SqlNode and(SqlNode a, SqlNode b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        List<SqlNode> terms = new ArrayList<>(SqlTerms.andTerms(a));
        terms.addAll(SqlTerms.andTerms(b));
        return SqlTerms.and(terms, a.getParserPosition());
    }

    private static List<String> outputNames(SqlNodeList items) {
        List<String> names = new ArrayList<>();
        for (SqlNode item : items) {
            String name = outputName(item);
            if (name != null) {
                names.add(name);
            }
        }
        return names;
    }

    /** The name of a select item: its alias, or a column's last name; null for an unnamed expression. */
    private static String outputName(SqlNode item) {
        if (item.getKind() == SqlKind.AS) {
            return lower(((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple());
        }
        return item instanceof SqlIdentifier id && !id.isStar() ? lower(lastName(id)) : null;
    }

    private static String lastName(SqlIdentifier id) {
        return id.names.get(id.names.size() - 1);
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
