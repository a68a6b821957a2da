package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.unsupported;

import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Finds a clock of type TIMESTAMP WITH TIME ZONE ({@code now()}, {@code current_timestamp},
 * {@code transaction_timestamp()}, {@code get_current_timestamp()}) whose value reaches a column of a result: an item of
 * any SELECT list that holds one outside a CAST, a comparison or an EXTRACT, which all give the same answer from the
 * wall clock numacube puts in its place ({@link StatementClock}). PostgreSQL sends such a column as a {@code
 * timestamptz} with the session's offset ({@code 2026-01-02 03:04:05+01}) where numacube's engine would send a
 * TIMESTAMP, so a PostgreSQL client refuses the statement rather than read another type. Stateless.
 */
public final class ZonedClockResults {

    private static final Set<String> ZONED =
            Set.of("now", "current_timestamp", "get_current_timestamp", "transaction_timestamp");

    private ZonedClockResults() {}

    /**
     * Refuses query {@code sql} when a zoned clock reaches a column of its result, or of a subquery's (conservatively:
     * a derived table's column may reach the result).
     *
     * @throws io.numacube.numa.base.NumacubeException 0A000 with the clock's position; a parse error as a query's
     */
    public static void refuse(String sql) {
        refuseExcept(SqlTextParser.parseUnclocked(sql), Set.of());
    }

    /**
     * The columns of query {@code sql}'s result that are a zoned clock alone ({@code SELECT id, now() FROM t}, {@code
     * current_timestamp AS at}), by position, each with PostgreSQL's name for it ({@code now}, {@code
     * current_timestamp}; empty where an alias names it): its top SELECT's items, when that SELECT has no {@code *}. A
     * PostgreSQL client is sent such a column as the transaction's {@code timestamptz}, each row the same value, which
     * is PostgreSQL's answer; a zoned clock reaching the result any other way ({@code now() - INTERVAL '1' DAY}, a
     * derived table's column, a UNION) is refused as {@link #refuse} refuses it.
     *
     * @throws io.numacube.numa.base.NumacubeException 0A000 with the clock's position; a parse error as a query's
     */
    public static java.util.Map<Integer, String> bareColumns(String sql) {
        SqlNode root = SqlTextParser.parseUnclocked(sql);
        SqlNode top = root instanceof org.apache.calcite.sql.SqlOrderBy o ? o.query : root;
        java.util.Map<Integer, String> out = new java.util.TreeMap<>();
        Set<SqlNode> bare = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        if (top instanceof SqlSelect select && select.getSelectList() != null) {
            SqlNodeList items = select.getSelectList();
            boolean star = items.stream().anyMatch(i -> i instanceof SqlIdentifier id && id.isStar());
            for (int i = 0; i < items.size() && !star; i++) {
                SqlNode item = items.get(i);
                boolean aliased = item.getKind() == SqlKind.AS;
                SqlNode value = aliased ? ((SqlCall) item).operand(0) : item;
                if (isZoned(value)) {
                    bare.add(item);
                    out.put(i, aliased ? "" : shown(value).replace("()", "").toLowerCase(Locale.ROOT));
                }
            }
        }
        refuseExcept(root, bare);
        return out;
    }

    private static void refuseExcept(SqlNode root, Set<SqlNode> bare) {
        root.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.getSelectList() != null) {
                    for (SqlNode item : select.getSelectList()) {
                        SqlNode clock = bare.contains(item) ? null : zonedIn(item);
                        if (clock != null) {
                            throw unsupported(
                                    clock,
                                    "a TIMESTAMP WITH TIME ZONE as a result column: PostgreSQL sends it with the "
                                            + "session's time zone offset, numacube's engine as a TIMESTAMP; write "
                                            + "CAST(" + shown(clock) + " AS TIMESTAMP) for the session's wall clock, "
                                            + "or " + shown(clock) + " alone as a column");
                        }
                    }
                }
                return super.visit(call);
            }
        });
    }

    /** The zoned clock in {@code node} that its value carries, or null. */
    private static SqlNode zonedIn(SqlNode node) {
        if (isZoned(node)) {
            return node;
        }
        if (node instanceof SqlNodeList list) {
            return first(list.getList());
        }
        if (!(node instanceof SqlCall call) || call instanceof SqlSelect) {
            return null;
        }
        SqlKind kind = call.getKind();
        if (kind == SqlKind.CAST || kind == SqlKind.EXTRACT || SqlKind.COMPARISON.contains(kind)) {
            return null;
        }
        if (kind == SqlKind.AS) {
            return zonedIn(call.operand(0));
        }
        return first(call.getOperandList());
    }

    private static SqlNode first(java.util.List<SqlNode> nodes) {
        for (SqlNode node : nodes) {
            SqlNode found = node == null ? null : zonedIn(node);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static boolean isZoned(SqlNode node) {
        if (node instanceof SqlIdentifier id && id.isSimple() && !id.isComponentQuoted(0)) {
            return ZONED.contains(id.getSimple().toLowerCase(Locale.ROOT));
        }
        return node instanceof SqlCall call
                && !(call instanceof SqlSelect)
                && call.operandCount() == 0
                && call.getOperator().getName() != null
                && ZONED.contains(call.getOperator().getName().toLowerCase(Locale.ROOT));
    }

    private static String shown(SqlNode clock) {
        return clock instanceof SqlIdentifier id
                ? id.getSimple()
                : clock instanceof SqlCall call
                        ? call.getOperator().getName().toLowerCase(Locale.ROOT) + "()"
                        : "now()";
    }
}
