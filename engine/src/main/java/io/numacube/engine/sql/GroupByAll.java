package io.numacube.engine.sql;

import io.numacube.engine.sql.SqlTokens.Token;
import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * DuckDB's {@code GROUP BY ALL} and {@code ORDER BY ALL}: grouping by every select item that calls no aggregate
 * (no GROUP BY where there is none), and ordering by every select item from the first, {@code ORDER BY ALL DESC} and
 * {@code NULLS FIRST|LAST} applying to each. Calcite's parser takes {@code ALL} of GROUP BY as a quantifier that needs
 * a grouping element after it, so a placeholder name is put there before parsing ({@link #placeholders}); after
 * parsing {@link #expand} replaces the placeholder, and an ORDER BY whose one item is the word ALL, with the select
 * items' ordinals. A select list with {@code *} is refused
 * (0A000): its items are known only once bound. Every query at any nesting level; stateless.
 */
final class GroupByAll {

    /** The name put after {@code GROUP BY ALL}, which no user's column has. */
    static final String PLACEHOLDER = "numacube: group by all";

    /** What may follow {@code GROUP BY ALL}: the next clause, the query's end. */
    private static final Set<String> AFTER = Set.of(
            "having",
            "order",
            "limit",
            "offset",
            "fetch",
            "qualify",
            "window",
            "union",
            "intersect",
            "except",
            "minus");

    private static final java.util.regex.Pattern MAYBE = java.util.regex.Pattern.compile("(?i)\\bby\\s+all\\b");

    private GroupByAll() {}

    /** The placeholders to insert (offset to text): after each {@code GROUP BY ALL} that names nothing after it. */
    static Map<Integer, String> placeholders(String sql) {
        Map<Integer, String> insertions = new TreeMap<>();
        if (!MAYBE.matcher(sql).find()) {
            return insertions;
        }
        List<Token> tokens = SqlTokens.of(sql);
        for (int i = 0; i + 2 < tokens.size(); i++) {
            if (isWord(tokens.get(i), "group") && isWord(tokens.get(i + 1), "by") && isWord(tokens.get(i + 2), "all")) {
                Token next = i + 3 < tokens.size() ? tokens.get(i + 3) : null;
                if (next == null
                        || next.kind() == ')'
                        || next.kind() == ';'
                        || (next.kind() == 'w' && AFTER.contains(next.word()))) {
                    insertions.put(tokens.get(i + 2).end(), " \"" + PLACEHOLDER + "\"");
                }
            }
        }
        return insertions;
    }

    /** {@code root} with each GROUP BY ALL and ORDER BY ALL replaced by ordinals (changed in place). */
    static SqlNode expand(SqlNode root) {
        root.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select) {
                    groupBy(select);
                    if (select.getOrderList() != null) {
                        orderBy(select.getOrderList(), select);
                    }
                } else if (call instanceof SqlOrderBy orderBy) {
                    orderBy(orderBy.orderList, orderBy.query);
                }
                return super.visit(call);
            }
        });
        return root;
    }

    private static void groupBy(SqlSelect select) {
        SqlNodeList group = select.getGroup();
        if (group == null
                || group.size() != 1
                || !(group.get(0) instanceof SqlIdentifier id)
                || !id.isSimple()
                || !id.getSimple().equals(PLACEHOLDER)) {
            return;
        }
        SqlNodeList items = items(select, group.get(0).getParserPosition(), "GROUP BY ALL");
        List<SqlNode> keys = new ArrayList<>();
        List<SqlNode> constants = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            SqlNode item = items.get(i);
            if (!callsAggregate(item)) {
                (readsAColumn(item) ? keys : constants).add(ordinal(i + 1, group.getParserPosition()));
            }
        }
        if (keys.isEmpty()) {
            keys = constants;
        }
        select.setGroupBy(keys.isEmpty() ? null : new SqlNodeList(keys, group.getParserPosition()));
    }

    private static void orderBy(SqlNodeList order, SqlNode query) {
        if (order.size() != 1 || !isAll(core(order.get(0)))) {
            return;
        }
        SqlNode item = order.get(0);
        SqlNodeList items = items(firstSelect(query), item.getParserPosition(), "ORDER BY ALL");
        List<SqlNode> ordered = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            ordered.add(rewrapped(item, ordinal(i + 1, item.getParserPosition())));
        }
        order.set(0, ordered.getFirst());
        for (int i = 1; i < ordered.size(); i++) {
            order.add(ordered.get(i));
        }
    }

    /** The select list of {@code select}, refused where it holds a star. */
    private static SqlNodeList items(SqlSelect select, SqlParserPos at, String clause) {
        if (select == null) {
            throw refusal(at, clause + " of a query that is not a SELECT");
        }
        for (SqlNode item : select.getSelectList()) {
            if (item instanceof SqlIdentifier id && id.isStar()) {
                throw refusal(id.getParserPosition(), clause + " with * in the select list — name the columns");
            }
        }
        return select.getSelectList();
    }

    private static SqlSelect firstSelect(SqlNode query) {
        SqlNode q = query;
        while (q instanceof SqlCall call && !(q instanceof SqlSelect)) {
            if (call.getKind() != SqlKind.UNION
                    && call.getKind() != SqlKind.INTERSECT
                    && call.getKind() != SqlKind.EXCEPT
                    && !(call instanceof SqlOrderBy)) {
                return null;
            }
            q = call.operand(0);
        }
        return q instanceof SqlSelect s ? s : null;
    }

    /** The node inside any DESC, NULLS FIRST and NULLS LAST around an ORDER BY item. */
    private static SqlNode core(SqlNode item) {
        SqlNode n = item;
        while (isWrapper(n)) {
            n = ((SqlCall) n).operand(0);
        }
        return n;
    }

    /** {@code inner} with the DESC, NULLS FIRST and NULLS LAST that are around {@code item}'s core. */
    private static SqlNode rewrapped(SqlNode item, SqlNode inner) {
        if (!isWrapper(item)) {
            return inner;
        }
        SqlCall call = (SqlCall) item;
        return call.getOperator().createCall(call.getParserPosition(), rewrapped(call.operand(0), inner));
    }

    private static boolean isWrapper(SqlNode n) {
        return n instanceof SqlCall call
                && (call.getKind() == SqlKind.DESCENDING
                        || call.getKind() == SqlKind.NULLS_FIRST
                        || call.getKind() == SqlKind.NULLS_LAST);
    }

    private static boolean isAll(SqlNode n) {
        return n instanceof SqlIdentifier id
                && id.isSimple()
                && !id.isComponentQuoted(0)
                && id.getSimple().equalsIgnoreCase("all");
    }

    /** Whether {@code n} calls an aggregate outside any subquery (an aggregate's FILTER or OVER included). */
    private static boolean callsAggregate(SqlNode n) {
        if (n instanceof SqlNodeList list) {
            return list.stream().anyMatch(e -> e != null && callsAggregate(e));
        }
        if (!(n instanceof SqlCall call) || n instanceof SqlSelect) {
            return false;
        }
        if (call.getKind() == SqlKind.FILTER
                || call.getKind() == SqlKind.OVER
                || call.getOperator().isAggregator()
                || AggregateBinder.kind(call) != null) {
            return true;
        }
        return call.getOperandList().stream().anyMatch(o -> o != null && callsAggregate(o));
    }

    /**
     * Whether {@code n} reads a column or holds a subquery: a constant item groups nothing apart, so it is left out of
     * the keys where others are (numacube refuses a GROUP BY of a constant alone, as it refuses {@code GROUP BY 1} of
     * one).
     */
    private static boolean readsAColumn(SqlNode n) {
        if (n instanceof SqlIdentifier || n instanceof SqlSelect) {
            return true;
        }
        if (n instanceof SqlNodeList list) {
            return list.stream().anyMatch(e -> e != null && readsAColumn(e));
        }
        return n instanceof SqlCall call
                && (call.getKind() == SqlKind.AS
                        ? readsAColumn(call.operand(0))
                        : call.getOperandList().stream().anyMatch(o -> o != null && readsAColumn(o)));
    }

    private static SqlNode ordinal(int i, SqlParserPos pos) {
        return SqlLiteral.createExactNumeric(String.valueOf(i), pos);
    }

    private static boolean isWord(Token t, String word) {
        return t.kind() == 'w' && t.word().equals(word);
    }

    private static NumacubeException refusal(SqlParserPos at, String what) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                "0A000",
                "unsupported SQL: " + what,
                ErrorPosition.sql(Math.max(1, at.getLineNum()), Math.max(1, at.getColumnNum())),
                null);
    }
}
