package io.numacube.server.pgwire.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One SELECT of a catalog query: the query itself, or a {@code SELECT * FROM (...) alias} that wraps one (pgjdbc's
 * getColumns), with its clauses as text. Immutable.
 *
 * @param select the select list
 * @param from   the FROM clause, without the word
 * @param where  the WHERE condition, without the word; blank for none
 * @param order  the ORDER BY list, without the words; blank for none
 * @param alias  the alias this level gives the query it wraps, or null (the innermost level)
 * @param plain  whether the level has no clause but those (no GROUP BY, HAVING, LIMIT, OFFSET, FETCH, WINDOW, set
 *               operation, DISTINCT, locking)
 */
record QueryLevel(SelectList select, String from, String where, String order, String alias, boolean plain) {

    private static final List<String> ENDS = List.of(
            "WHERE",
            "GROUP",
            "HAVING",
            "WINDOW",
            "ORDER",
            "LIMIT",
            "OFFSET",
            "FETCH",
            "FOR",
            "UNION",
            "INTERSECT",
            "EXCEPT");
    private static final List<String> OTHER =
            List.of("GROUP", "HAVING", "WINDOW", "LIMIT", "OFFSET", "FETCH", "FOR", "UNION", "INTERSECT", "EXCEPT");
    private static final Pattern ALIAS = Pattern.compile("(?is)\\s*(?:AS\\s+)?([A-Za-z_]\\w*)\\s*");
    private static final Pattern DISTINCT = Pattern.compile("(?is)^\\s*SELECT\\s+DISTINCT\\b");

    /** The levels of {@code query} (normalized), outermost first: a wrapped query is the next level. */
    static List<QueryLevel> of(String query) {
        List<QueryLevel> out = new ArrayList<>();
        String q = query.strip();
        if (q.endsWith(";")) {
            q = q.substring(0, q.length() - 1);
        }
        while (true) {
            QueryLevel level = one(q);
            SelectList.Item only =
                    level.select().items().size() == 1 ? level.select().items().getFirst() : null;
            if (only == null || !only.expression().equals("*") || !level.from().startsWith("(")) {
                out.add(new QueryLevel(
                        level.select(), level.from(), level.where(), level.order(), null, level.plain()));
                return out;
            }
            int close = JoinList.closing(level.from(), 0);
            Matcher alias = ALIAS.matcher(close < 0 ? "" : level.from().substring(close + 1));
            if (close < 0 || !alias.matches()) {
                out.add(new QueryLevel(new SelectList(List.of()), "", "", "", null, false));
                return out;
            }
            out.add(new QueryLevel(
                    level.select(), level.from(), level.where(), level.order(), alias.group(1), level.plain()));
            q = level.from().substring(1, close);
        }
    }

    private static QueryLevel one(String q) {
        int select = SelectList.indexOfWord(q, "SELECT", 0);
        int from = SelectList.indexOfWord(q, "FROM", Math.max(0, select));
        boolean plain = select == 0 && from > 0 && !DISTINCT.matcher(q).find();
        for (String word : OTHER) {
            plain &= from < 0 || SelectList.indexOfWord(q, word, from) < 0;
        }
        return new QueryLevel(
                SelectList.of(q), clause(q, from, "FROM"), clause(q, from, "WHERE"), order(q, from), null, plain);
    }

    private static String order(String q, int from) {
        String order = clause(q, from, "ORDER");
        return order.regionMatches(true, 0, "BY", 0, 2) ? order.substring(2).strip() : order;
    }

    /** The clause that starts with {@code word} after FROM (at {@code from}), without the word; blank for none. */
    private static String clause(String q, int from, String word) {
        int start = from < 0 ? -1 : word.equals("FROM") ? from : SelectList.indexOfWord(q, word, from);
        if (start < 0) {
            return "";
        }
        int end = q.length();
        for (String next : ENDS) {
            int at = SelectList.indexOfWord(q, next, start + word.length());
            if (at >= 0) {
                end = Math.min(end, at);
            }
        }
        return q.substring(start + word.length(), end).strip();
    }
}
