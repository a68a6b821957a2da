package io.numacube.engine.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;

/**
 * A SELECT without FROM that has a WHERE, GROUP BY or HAVING clause ({@code SELECT 1 WHERE false}), which DuckDB and
 * PostgreSQL answer and Calcite's grammar refuses (it takes those clauses only after a FROM). Before parsing, the text
 * gets a placeholder FROM clause ({@link #INSERTED}) in front of each such clause, at any nesting level ({@link
 * InsertedText} moves positions back); after parsing, {@link #dropPlaceholders} takes them out again, so the SELECT
 * has no FROM, as the user wrote it.
 *
 * <p>Words in string literals, quoted names and comments are not keywords, and each parenthesis level is its own
 * statement. Stateless.
 */
final class SelectWithoutFrom {

    /** The table name the placeholder FROM clause names; never a table's (it has no user-visible meaning). */
    static final String PLACEHOLDER = "__numacube_no_from";

    /** The text inserted before each clause that {@link #clauseOffsets} finds. */
    static final String INSERTED = "FROM " + PLACEHOLDER + " ";

    private SelectWithoutFrom() {}

    /** {@code root}, parsed with {@link #INSERTED} before each clause of {@link #clauseOffsets}, without them again. */
    static SqlNode dropPlaceholders(SqlNode root) {
        root.accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select && isPlaceholder(select.getFrom())) {
                    select.setFrom(null);
                }
                return super.visit(call);
            }
        });
        return root;
    }

    private static boolean isPlaceholder(SqlNode from) {
        return from instanceof SqlIdentifier id
                && id.isSimple()
                && id.getSimple().equals(PLACEHOLDER);
    }

    /**
     * The offsets in {@code sql} of each WHERE, GROUP BY or HAVING keyword whose SELECT, at the same parenthesis
     * level, has no FROM before it.
     */
    static List<Integer> clauseOffsets(String sql) {
        List<Integer> at = new ArrayList<>();
        // per parenthesis level: whether a SELECT is open there without a FROM yet
        boolean[] open = new boolean[8];
        int depth = 0;
        int n = sql.length();
        for (int i = 0; i < n; i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = SqlLexing.closingQuote(sql, i, c);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 1;
            } else if (c == '(') {
                depth++;
                if (depth == open.length) {
                    open = java.util.Arrays.copyOf(open, depth * 2);
                }
                open[depth] = false;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
            } else if (isWordStart(sql, i)) {
                int end = wordEnd(sql, i);
                String word = sql.substring(i, end).toLowerCase(Locale.ROOT);
                switch (word) {
                    case "select" -> open[depth] = true;
                    case "from" -> open[depth] = false;
                    case "where", "having" -> clause(open, depth, i, at);
                    case "group" -> {
                        if (nextWordIs(sql, end, "by")) {
                            clause(open, depth, i, at);
                        }
                    }
                    default -> {}
                }
                i = end - 1;
            }
        }
        return at;
    }

    private static void clause(boolean[] open, int depth, int offset, List<Integer> at) {
        if (open[depth]) {
            at.add(offset);
            open[depth] = false;
        }
    }

    private static boolean isWordStart(String sql, int i) {
        return SqlLexing.isWordChar(sql.charAt(i)) && (i == 0 || !SqlLexing.isWordChar(sql.charAt(i - 1)));
    }

    private static int wordEnd(String sql, int from) {
        int end = from;
        while (end < sql.length() && SqlLexing.isWordChar(sql.charAt(end))) {
            end++;
        }
        return end;
    }

    private static boolean nextWordIs(String sql, int from, String word) {
        int i = from;
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        return sql.regionMatches(true, i, word, 0, word.length())
                && (i + word.length() == sql.length() || !SqlLexing.isWordChar(sql.charAt(i + word.length())));
    }
}
