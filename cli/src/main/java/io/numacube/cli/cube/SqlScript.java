package io.numacube.cli.cube;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a SQL script into statements at semicolons that are outside {@code '...'} strings, {@code "..."}
 * identifiers and {@code --} line comments; blank statements are dropped, comment-only text too. Each statement
 * knows where it starts in the script, so that a position inside it can be given as a position in the file.
 * Stateless.
 */
public final class SqlScript {

    /**
     * One statement, stripped, with the 1-based line and column of its first character in the script.
     * Invariant: line and column point at {@code sql.charAt(0)}; comments inside became line breaks, so the lines
     * of {@code sql} are the script's lines from {@code line} on.
     */
    public record Statement(String sql, int line, int column) {

        /** The script position of line {@code l}, column {@code c} of this statement (both 1-based). */
        public int[] scriptPosition(int l, int c) {
            return new int[] {line + l - 1, l == 1 ? column + c - 1 : c};
        }
    }

    private SqlScript() {
    }

    public static List<String> statements(String script) {
        return located(script).stream().map(Statement::sql).toList();
    }

    public static List<Statement> located(String script) {
        List<Statement> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean hasCode = false;
        int start = -1;
        int n = script.length();
        for (int i = 0; i < n; i++) {
            char c = script.charAt(i);
            if (start < 0 && !Character.isWhitespace(c) && !(c == '-' && i + 1 < n && script.charAt(i + 1) == '-')
                    && c != ';') {
                start = i;
            }
            if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
                while (i < n && script.charAt(i) != '\n') {
                    i++;
                }
                cur.append('\n');
                continue;
            }
            if (c == '\'' || c == '"') {
                int end = i + 1;
                while (end < n) {
                    if (script.charAt(end) == c) {
                        if (end + 1 < n && script.charAt(end + 1) == c) {
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    end++;
                }
                cur.append(script, i, Math.min(end + 1, n));
                hasCode = true;
                i = end;
                continue;
            }
            if (c == ';') {
                add(out, cur, hasCode, script, start);
                cur.setLength(0);
                hasCode = false;
                start = -1;
                continue;
            }
            cur.append(c);
            hasCode |= !Character.isWhitespace(c);
        }
        add(out, cur, hasCode, script, start);
        return out;
    }

    private static void add(List<Statement> out, StringBuilder cur, boolean hasCode, String script, int start) {
        if (hasCode) {
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < start; i++) {
                if (script.charAt(i) == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            out.add(new Statement(cur.toString().strip(), line, start - lineStart + 1));
        }
    }
}
