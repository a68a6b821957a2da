package io.numacube.engine.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A SELECT without FROM that has a WHERE, GROUP BY or HAVING clause ({@code SELECT 1 WHERE false}), which DuckDB and
 * PostgreSQL answer and Calcite's grammar refuses (it takes those clauses only after a FROM). Before parsing, the text
 * gets a placeholder FROM clause ({@link #PLACEHOLDER}) in front of each such clause, at any nesting level; after
 * parsing, {@link #restore} takes the placeholders out again (the SELECT has no FROM, as the user wrote it) and moves
 * every node's position back to the user's text, so errors name the place the user sees.
 *
 * <p>The text is read as {@link io.numacube.engine.sql} reads it elsewhere: words in string literals, quoted names and
 * comments are not keywords, and each parenthesis level is its own statement. Insertions hold no line break, so only
 * columns move. Immutable; thread-safe.
 */
final class SelectWithoutFrom {

    /** The table name the placeholder FROM clause names; never a table's (it has no user-visible meaning). */
    static final String PLACEHOLDER = "__numacube_no_from";

    private static final String INSERTED = "FROM " + PLACEHOLDER + " ";

    private final String text;

    /** Per line (0-based), the 1-based columns in {@link #text} where an insertion starts. */
    private final List<List<Integer>> insertedAt;

    private SelectWithoutFrom(String text, List<List<Integer>> insertedAt) {
        this.text = text;
        this.insertedAt = insertedAt;
    }

    /** The rewrite of {@code sql}, or null when no SELECT of it lacks a FROM before WHERE, GROUP BY or HAVING. */
    static SelectWithoutFrom of(String sql) {
        List<Integer> at = clausesWithoutFrom(sql);
        if (at.isEmpty()) {
            return null;
        }
        StringBuilder out = new StringBuilder(sql.length() + at.size() * INSERTED.length());
        List<List<Integer>> inserted = new ArrayList<>();
        inserted.add(new ArrayList<>());
        int column = 1;
        int next = 0;
        for (int i = 0; i < sql.length(); i++) {
            if (next < at.size() && at.get(next) == i) {
                inserted.getLast().add(column);
                out.append(INSERTED);
                column += INSERTED.length();
                next++;
            }
            char c = sql.charAt(i);
            out.append(c);
            column++;
            if (c == '\n') {
                inserted.add(new ArrayList<>());
                column = 1;
            }
        }
        return new SelectWithoutFrom(out.toString(), inserted);
    }

    /** The text to parse: the user's, with the placeholder FROM clauses. */
    String text() {
        return text;
    }

    /** {@code pos} of {@link #text} as a position in the user's text. */
    SqlParserPos original(SqlParserPos pos) {
        if (pos == null || pos.getLineNum() < 1) {
            return pos;
        }
        return new SqlParserPos(
                pos.getLineNum(),
                column(pos.getLineNum(), pos.getColumnNum()),
                pos.getEndLineNum(),
                column(pos.getEndLineNum(), pos.getEndColumnNum()));
    }

    /** The 1-based {@code column} of {@link #text}'s line {@code line} as a column of the user's line. */
    int column(int line, int column) {
        if (line < 1 || line > insertedAt.size()) {
            return column;
        }
        int shift = 0;
        for (int start : insertedAt.get(line - 1)) {
            if (column >= start + INSERTED.length()) {
                shift += INSERTED.length();
            } else if (column >= start) {
                shift += column - start;
            }
        }
        return Math.max(1, column - shift);
    }

    /** {@code root} parsed from {@link #text}: its placeholder FROM clauses removed, its positions the user's. */
    SqlNode restore(SqlNode root) {
        return copy(root);
    }

    private SqlNode copy(SqlNode node) {
        if (node == null) {
            return null;
        }
        SqlParserPos pos = original(node.getParserPosition());
        if (node instanceof SqlNodeList list) {
            List<SqlNode> items = new ArrayList<>(list.size());
            list.forEach(item -> items.add(copy(item)));
            return new SqlNodeList(items, pos);
        }
        if (node instanceof SqlIdentifier id) {
            List<SqlParserPos> parts = new ArrayList<>(id.names.size());
            for (int i = 0; i < id.names.size(); i++) {
                parts.add(original(id.getComponentParserPosition(i)));
            }
            return new SqlIdentifier(id.names, id.getCollation(), pos, parts);
        }
        if (node instanceof SqlCall call) {
            List<SqlNode> operands = call.getOperandList();
            SqlNode[] copied = new SqlNode[operands.size()];
            for (int i = 0; i < copied.length; i++) {
                copied[i] = copy(operands.get(i));
            }
            SqlCall out = call.getOperator().createCall(call.getFunctionQuantifier(), pos, copied);
            if (out instanceof SqlSelect select && isPlaceholder(select.getFrom())) {
                select.setFrom(null);
            }
            return out;
        }
        return node.clone(pos);
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
    private static List<Integer> clausesWithoutFrom(String sql) {
        List<Integer> at = new ArrayList<>();
        // per parenthesis level: whether a SELECT is open there without a FROM yet
        boolean[] open = new boolean[8];
        int depth = 0;
        int n = sql.length();
        for (int i = 0; i < n; i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = closingQuote(sql, i, c);
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
        return isWordChar(sql.charAt(i)) && (i == 0 || !isWordChar(sql.charAt(i - 1)));
    }

    private static int wordEnd(String sql, int from) {
        int end = from;
        while (end < sql.length() && isWordChar(sql.charAt(end))) {
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
                && (i + word.length() == sql.length() || !isWordChar(sql.charAt(i + word.length())));
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /** The index of the quote closing the one at {@code open} (a doubled quote is part of the text), or the end. */
    private static int closingQuote(String sql, int open, char quote) {
        for (int i = open + 1; i < sql.length(); i++) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i++;
                } else {
                    return i;
                }
            }
        }
        return sql.length();
    }
}
