package io.numacube.engine;

import io.numacube.engine.sql.SqlLexing;
import io.numacube.numa.base.NumacubeException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a statement's text shows before it is parsed, for choosing how to run it: whether it has a FROM clause of its
 * own, whether it is a DELETE or an UPDATE, and a DELETE's text as the SELECT of the rows it deletes. Reads the text
 * as SQL is written: a FROM inside a string literal, a quoted identifier, a comment or parentheses ({@code EXTRACT(YEAR
 * FROM d)}, {@code SUBSTRING(s FROM 2)}, a subquery) is not the statement's FROM clause. Stateless.
 */
final class StatementText {

    /** Blanks and comments (line and block), as PostgreSQL's lexer skips them. */
    private static final String SKIPPED = "(?:\\s|--[^\\n]*|/\\*.*?\\*/)";

    private static final Pattern DELETE_FROM =
            Pattern.compile("(?is)(" + SKIPPED + "*)DELETE(" + SKIPPED + "+)FROM\\b.*");

    private static final Pattern UPDATE = Pattern.compile("(?is)" + SKIPPED + "*UPDATE\\b.*");

    private StatementText() {}

    /** Whether {@code sql} is a {@code DELETE FROM} statement (blanks and comments before it and inside allowed). */
    static boolean isDelete(String sql) {
        return DELETE_FROM.matcher(sql).matches();
    }

    /** Whether {@code sql} is an UPDATE statement (blanks and comments before it allowed). */
    static boolean isUpdate(String sql) {
        return UPDATE.matcher(sql).matches();
    }

    /**
     * The DELETE as {@code SELECT*FROM table WHERE ...}, each character where it was, so positions stay right
     * (comments before it kept, those between DELETE and FROM blanked).
     *
     * @throws NumacubeException of kind SYNTAX when {@code deleteSql} is not a {@code DELETE FROM} statement
     */
    static String selectOfDelete(String deleteSql) {
        Matcher m = DELETE_FROM.matcher(deleteSql);
        if (!m.matches()) {
            throw new NumacubeException(
                    NumacubeException.Kind.SYNTAX, "not a DELETE statement: expected DELETE FROM table [WHERE ...]");
        }
        // DELETE made SELECT, the gap's comments blanked (line breaks kept) and the * on its first blank; what comes
        // before DELETE stays as written, for the parser to skip
        String gap = blanked(m.group(2));
        int star = 0;
        while (star < gap.length() && gap.charAt(star) == '\n') {
            star++;
        }
        String select = star < gap.length()
                ? "SELECT" + gap.substring(0, star) + "*" + gap.substring(star + 1)
                : "SELECT" + gap + "*";
        return m.group(1) + select + deleteSql.substring(m.end(2));
    }

    /** {@code text} (blanks and comments) with every character but a line break made a space. */
    private static String blanked(String text) {
        return text.replaceAll("[^\\n]", " ");
    }

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
