package io.numacube.engine.sql;

/**
 * The few lexical rules that the passes reading a statement's text before the parser share: where a quoted literal or
 * name ends (a doubled quote is part of it), where a {@code --} or {@code /* *}{@code /} comment ends, and which
 * characters make a word. Stateless.
 */
public final class SqlLexing {

    private SqlLexing() {}

    /** Whether {@code c} can be part of a name or keyword. */
    public static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /**
     * The index of the quote closing the one at {@code open} (a doubled quote is part of the text), or the text's
     * length when it is not closed.
     */
    public static int closingQuote(String sql, int open, char quote) {
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

    /** The index of the line end after a {@code --} comment starting at {@code from}, or the text's length. */
    public static int lineEnd(String sql, int from) {
        int end = sql.indexOf('\n', from);
        return end < 0 ? sql.length() : end;
    }

    /** The index of the {@code /} closing a block comment opened at {@code from}, or the text's length. */
    public static int commentEnd(String sql, int from) {
        int end = sql.indexOf("*/", from + 2);
        return end < 0 ? sql.length() : end + 1;
    }
}
