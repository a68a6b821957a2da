package io.numacube.server.pgwire.catalog;

import io.numacube.server.query.SqlLexer;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The items of a query's outermost select list, each with the name its column gets: the alias after {@code AS}, or
 * the last name of a column reference ({@code c.relname} is {@code relname}), or PostgreSQL's name for a function call
 * (its name), else {@code ?column?}. Enough to answer catalog queries item by item. Immutable.
 *
 * @param items the select items, in order
 */
record SelectList(List<Item> items) {

    /** One select item: its expression text and its column name. */
    record Item(String expression, String name) {}

    private static final Pattern ALIAS =
            Pattern.compile("(?is)(.*?)\\s+(?:AS\\s+)?(\"(?:[^\"]++|\"\")+\"|[A-Za-z_][A-Za-z0-9_]*)");
    private static final Pattern COLUMN = Pattern.compile("(?is)(?:[A-Za-z_][\\w]*\\.){0,2}([A-Za-z_][\\w]*)");
    private static final java.util.Set<String> KEYWORDS =
            java.util.Set.of("END", "NULL", "TRUE", "FALSE", "AND", "OR", "NOT", "THEN", "ELSE", "IS", "DISTINCT");
    private static final Pattern CALL = Pattern.compile("(?is)(?:[A-Za-z_][\\w]*\\.)?([A-Za-z_][\\w]*)\\s*\\(.*");

    /** The outermost select list of {@code sql} (from its first SELECT to its FROM at the same depth). */
    static SelectList of(String sql) {
        String s = sql.strip();
        int start = indexOfWord(s, "SELECT", 0);
        if (start < 0) {
            return new SelectList(List.of());
        }
        start += "SELECT".length();
        int end = indexOfWord(s, "FROM", start);
        String list = s.substring(start, end < 0 ? s.length() : end);
        List<Item> items = new ArrayList<>();
        for (String text : nonBlank(SqlLexer.splitTopLevel(list))) {
            items.add(item(text.strip()));
        }
        return new SelectList(items);
    }

    private static Item item(String text) {
        Matcher a = ALIAS.matcher(text);
        if (a.matches()
                && !a.group(1).isBlank()
                && !KEYWORDS.contains(a.group(2).toUpperCase())) {
            String alias = a.group(2);
            return new Item(
                    a.group(1).strip(),
                    alias.startsWith("\"") ? alias.substring(1, alias.length() - 1) : alias.toLowerCase());
        }
        Matcher c = COLUMN.matcher(text);
        if (c.matches()) {
            return new Item(text, c.group(1).toLowerCase());
        }
        Matcher f = CALL.matcher(text);
        if (f.matches()) {
            return new Item(text, f.group(1).toLowerCase());
        }
        return new Item(text, "?column?");
    }

    /** The index of {@code word} as a whole word at parenthesis depth 0, outside strings and comments, from {@code from}. */
    static int indexOfWord(String s, String word, int from) {
        int depth = 0;
        int i = from;
        while (i < s.length()) {
            int j = SqlLexer.skipNonCode(s, i);
            if (j > i) {
                i = j;
                continue;
            }
            char c = s.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0
                    && s.regionMatches(true, i, word, 0, word.length())
                    && !SqlLexer.identifierAt(s, i - 1)
                    && !SqlLexer.identifierAt(s, i + word.length())) {
                return i;
            }
            i++;
        }
        return -1;
    }

    private static List<String> nonBlank(List<String> parts) {
        if (!parts.isEmpty() && parts.get(parts.size() - 1).isBlank()) {
            return parts.subList(0, parts.size() - 1);
        }
        return parts;
    }
}
