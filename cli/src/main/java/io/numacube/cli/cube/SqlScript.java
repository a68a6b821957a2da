package io.numacube.cli.cube;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a SQL script into statements at semicolons that are outside {@code '...'} strings, {@code "..."}
 * identifiers and {@code --} line comments; blank statements are dropped, comment-only text too. Stateless.
 */
public final class SqlScript {

    private SqlScript() {
    }

    public static List<String> statements(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean hasCode = false;
        int n = script.length();
        for (int i = 0; i < n; i++) {
            char c = script.charAt(i);
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
                add(out, cur, hasCode);
                cur.setLength(0);
                hasCode = false;
                continue;
            }
            cur.append(c);
            hasCode |= !Character.isWhitespace(c);
        }
        add(out, cur, hasCode);
        return out;
    }

    private static void add(List<String> out, StringBuilder cur, boolean hasCode) {
        if (hasCode) {
            out.add(cur.toString().strip());
        }
    }
}
