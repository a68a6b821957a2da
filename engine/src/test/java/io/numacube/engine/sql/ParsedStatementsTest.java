package io.numacube.engine.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.util.Litmus;
import org.junit.jupiter.api.Test;

class ParsedStatementsTest {

    private static final List<String> TEXTS = List.of(
            "SELECT desk, SUM(pnl) AS p FROM trades t JOIN books b ON t.book = b.book WHERE d BETWEEN DATE '2025-01-01'"
                    + " AND DATE '2025-02-01' GROUP BY desk HAVING SUM(pnl) > (SELECT SUM(pnl) * 0.0001 FROM trades)"
                    + " ORDER BY 2 DESC NULLS LAST LIMIT 5 OFFSET 1",
            "WITH w (a, b) AS (SELECT k, COUNT(DISTINCT v) FROM t GROUP BY k) SELECT a, CASE WHEN b > 1 THEN 'x'"
                    + " WHEN b IS NULL THEN NULL ELSE 'y' END FROM w WHERE a IN (1, 2, NULL) AND NOT EXISTS (SELECT 1"
                    + " FROM u WHERE u.k = w.a)",
            "SELECT CAST(x AS DECIMAL(15, 2)), x::INTEGER, d + INTERVAL '3' MONTH, s LIKE '%BRASS' FROM t"
                    + " LEFT JOIN l USING (k) UNION ALL SELECT 1, 2, DATE '2025-01-01', TRUE FROM t",
            "SELECT SUM(v) FILTER (WHERE k > 1), extract(year FROM d), COALESCE(a, b) FROM t, u WHERE t.k = u.k"
                    + " AND ps_supplycost = (SELECT MIN(ps_supplycost) FROM partsupp WHERE p_partkey = ps_partkey)");

    @Test
    void keepsATextFromItsSecondParseAndHandsOutCopiesEqualToAFreshParse() {
        ParsedStatements parsed = new ParsedStatements();
        for (String sql : TEXTS) {
            AtomicInteger parses = new AtomicInteger();
            java.util.function.Function<String, SqlNode> parser = text -> {
                parses.incrementAndGet();
                return SqlTextParser.parse(text);
            };
            SqlNode first = parsed.parse(sql, parser);
            SqlNode second = parsed.parse(sql, parser);
            SqlNode third = parsed.parse(sql, parser);
            SqlNode fourth = parsed.parse(sql, parser);
            assertEquals(2, parses.get(), sql);
            SqlNode fresh = SqlTextParser.parse(sql);
            for (SqlNode n : List.of(first, second, third, fourth)) {
                assertTrue(n.equalsDeep(fresh, Litmus.IGNORE), sql);
                assertEquals(fresh.toString(), n.toString());
            }
            assertDisjoint(third, fourth);
            assertDisjoint(second, third);
        }
    }

    @Test
    void aChangeToAHandedOutTreeDoesNotReachTheNextCopy() {
        ParsedStatements parsed = new ParsedStatements();
        String sql = "SELECT k, SUM(v) FROM t WHERE k > 1 GROUP BY k";
        java.util.function.Function<String, SqlNode> parser = SqlTextParser::parse;
        parsed.parse(sql, parser);
        SqlSelect changed = (SqlSelect) parsed.parse(sql, parser);
        changed.setWhere(null);
        ((SqlNodeList) changed.getSelectList()).set(0, new SqlIdentifier("other", changed.getParserPosition()));
        SqlSelect next = (SqlSelect) parsed.parse(sql, parser);
        SqlSelect again = (SqlSelect) parsed.parse(sql, parser);
        assertTrue(next.equalsDeep(SqlTextParser.parse(sql), Litmus.IGNORE));
        next.setWhere(null);
        assertTrue(again.getWhere() != null);
    }

    @Test
    void aTextThatFailsToParseFailsEveryTime() {
        ParsedStatements parsed = new ParsedStatements();
        for (int i = 0; i < 3; i++) {
            NumacubeException e = assertThrows(
                    NumacubeException.class, () -> parsed.parse("SELECT FROM WHERE", SqlTextParser::parse));
            assertEquals("42601", e.code());
        }
    }

    @Test
    void theClockIsReadAtEveryParseOfAKeptText() {
        String sql = "SELECT now() AS t, current_date AS d FROM trades";
        for (int i = 0; i < 3; i++) {
            SqlSelect s = (SqlSelect) SqlTextParser.parse(sql);
            String items = s.getSelectList().toString();
            assertFalse(items.toLowerCase(java.util.Locale.ROOT).contains("now"), items);
            assertTrue(items.contains("TIMESTAMP"), items);
        }
    }

    @Test
    void withThePropertyFalseEveryCallParses() {
        ParsedStatements parsed = new ParsedStatements();
        AtomicInteger parses = new AtomicInteger();
        System.setProperty(ParsedStatements.PROPERTY, "false");
        try {
            for (int i = 0; i < 3; i++) {
                parsed.parse("SELECT 1 FROM t", text -> {
                    parses.incrementAndGet();
                    return SqlTextParser.parse(text);
                });
            }
        } finally {
            System.clearProperty(ParsedStatements.PROPERTY);
        }
        assertEquals(3, parses.get());
    }

    /** Asserts no call, node list or identifier is in both trees. */
    private static void assertDisjoint(SqlNode a, SqlNode b) {
        Set<SqlNode> nodes = mutableNodes(a);
        for (SqlNode n : mutableNodes(b)) {
            assertFalse(nodes.contains(n), () -> "shared node " + n);
        }
        assertNotSame(a, b);
    }

    private static Set<SqlNode> mutableNodes(SqlNode root) {
        Set<SqlNode> nodes = Collections.newSetFromMap(new IdentityHashMap<>());
        root.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                nodes.add(call);
                return super.visit(call);
            }

            @Override
            public Void visit(SqlNodeList list) {
                nodes.add(list);
                return super.visit(list);
            }

            @Override
            public Void visit(SqlIdentifier id) {
                nodes.add(id);
                return null;
            }
        });
        return nodes;
    }
}
