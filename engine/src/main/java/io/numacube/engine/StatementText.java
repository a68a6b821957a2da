package io.numacube.engine;

import io.numacube.engine.sql.SqlLexing;

/**
 * What a statement's text shows before it is parsed, for choosing how to run it: whether it has a FROM clause of its
 * own. Reads the text as SQL is written: a FROM inside a string literal, a quoted identifier, a comment or parentheses
 * ({@code EXTRACT(YEAR FROM d)}, {@code SUBSTRING(s FROM 2)}, a subquery) is not the statement's FROM clause. Stateless.
 */
final class StatementText {

    private StatementText() {}

    /** Whether {@code sql} has the keyword FROM outside literals, quoted names, comments and parentheses. */
    static boolean hasTopLevelFrom(String sql) {
        int depth = 0;
        int n = sql.length();
        for (int i = 0; i < n; i++) {
            char c = sql.charAt(i);
            switch (c) {
                case '\'', '"' -> i = SqlLexing.closingQuote(sql, i, c);
                case '-' -> i = i + 1 < n && sql.charAt(i + 1) == '-' ? SqlLexing.lineEnd(sql, i) : i;
                case '/' -> i = i + 1 < n && sql.charAt(i + 1) == '*' ? SqlLexing.commentEnd(sql, i) : i;
                case '(' -> depth++;
                case ')' -> depth = Math.max(0, depth - 1);
                default -> {
                    if (depth == 0 && isFromAt(sql, i)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean isFromAt(String sql, int i) {
        return sql.regionMatches(true, i, "from", 0, 4)
                && (i == 0 || !SqlLexing.isWordChar(sql.charAt(i - 1)))
                && (i + 4 == sql.length() || !SqlLexing.isWordChar(sql.charAt(i + 4)));
    }
}
