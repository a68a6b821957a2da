package io.numacube.engine.schema;

import java.util.Locale;

/**
 * BOOLEAN text as PostgreSQL's {@code boolin} reads it: surrounding blanks (space, tab, newline, carriage return,
 * vertical tab, form feed) dropped, then, in any case, a non-empty prefix of {@code true}, {@code false}, {@code yes} or
 * {@code no}, {@code on}, {@code off} or {@code of} (not {@code o}, which is both), or exactly {@code 1} or {@code 0}.
 * Every text DuckDB's CAST to BOOLEAN takes is among them. Stateless; thread-safe.
 */
public final class BooleanText {

    private BooleanText() {}

    /** 1 for a true text, 0 for a false one, -1 for a text PostgreSQL refuses as a boolean. */
    public static int parse(String text) {
        int from = 0;
        int to = text.length();
        while (from < to && blank(text.charAt(from))) {
            from++;
        }
        while (to > from && blank(text.charAt(to - 1))) {
            to--;
        }
        String w = text.substring(from, to).toLowerCase(Locale.ROOT);
        if (w.isEmpty()) {
            return -1;
        }
        if ("true".startsWith(w) || "yes".startsWith(w) || w.length() >= 2 && w.equals("on") || w.equals("1")) {
            return 1;
        }
        if ("false".startsWith(w) || "no".startsWith(w) || w.length() >= 2 && "off".startsWith(w) || w.equals("0")) {
            return 0;
        }
        return -1;
    }

    private static boolean blank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\u000b' || c == '\f';
    }
}
