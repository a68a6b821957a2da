package io.numacube.server.query;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a query string into statements at the semicolons that are code ({@link SqlLexer}), as PostgreSQL's simple
 * query protocol does; statements that are blank or only comments are dropped. Stateless.
 */
public final class SqlStatements {

    /**
     * One statement: its text, stripped, and the UTF-16 index in the whole string where that text starts, so that a
     * position inside the statement can be given as a position in the string the client sent.
     */
    public record Statement(String sql, int offset) {}

    private SqlStatements() {}

    public static List<Statement> split(String text) {
        List<Statement> out = new ArrayList<>();
        int start = 0;
        int i = 0;
        while (i < text.length()) {
            int j = SqlLexer.skipNonCode(text, i);
            if (j > i) {
                i = j;
                continue;
            }
            if (text.charAt(i) == ';') {
                add(out, text, start, i);
                start = i + 1;
            }
            i++;
        }
        add(out, text, start, text.length());
        return out;
    }

    /** Whether the text holds no statement: only whitespace, comments and semicolons. */
    public static boolean isBlank(String text) {
        return split(text).isEmpty();
    }

    private static void add(List<Statement> out, String text, int from, int to) {
        String part = text.substring(from, to);
        if (SqlLexer.normalize(part).isEmpty()) {
            return;
        }
        int lead = 0;
        while (Character.isWhitespace(part.charAt(lead))) {
            lead++;
        }
        out.add(new Statement(part.strip(), from + lead));
    }
}
