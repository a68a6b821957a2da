package io.numacube.server.pgwire.catalog;

import io.numacube.server.query.SqlLexer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The catalog relations a FROM clause names at its top level (outside parentheses), in order, each with its alias,
 * whether it is LEFT joined, and its ON condition: enough to tell which LEFT JOINs of catalogs numacube's tables have
 * no rows in extend every row with NULLs. Immutable.
 *
 * @param joins the relations, in the order the FROM clause names them
 */
record JoinList(List<Join> joins) {

    /**
     * One relation of the FROM clause.
     *
     * @param relation the catalog's name, lower case ({@code pg_constraint})
     * @param alias    its alias, or null
     * @param left     whether it is LEFT (OUTER) joined
     * @param on       its ON condition, blank for none
     * @param subquery the text inside the parentheses of a joined subquery ({@code relation} is then
     *                 {@code (subquery)}), else null
     */
    record Join(String relation, String alias, boolean left, String on, String subquery) {

        /** Whether {@code qualifier} ({@code cls_ref}, {@code pg_catalog.pg_constraint}) names this relation. */
        boolean namedBy(String qualifier) {
            String q = qualifier.toLowerCase(Locale.ROOT);
            return alias != null
                    ? q.equals(alias.toLowerCase(Locale.ROOT))
                    : q.equals(relation) || q.equals("pg_catalog." + relation);
        }
    }

    private static final Pattern RELATION =
            Pattern.compile("(?is)(?<=^|,|\\bJOIN)\\s*(?:pg_catalog\\s*\\.\\s*)?(pg_\\w++)(?!\\s*\\.)"
                    + "(?:\\s+(?:AS\\s+)?(?!(?:ON|LEFT|RIGHT|FULL|INNER|CROSS|JOIN|OUTER|WHERE)\\b)(\\w+))?");
    private static final Pattern NEXT_JOIN =
            Pattern.compile("(?is)\\s(?:(?:LEFT|RIGHT|FULL)\\s+(?:OUTER\\s+)?|INNER\\s+|CROSS\\s+)?JOIN\\s|,");

    private static final Pattern SUBQUERY = Pattern.compile("(?is)\\b(LEFT\\s+(?:OUTER\\s+)?)?JOIN\\s*\\(");
    private static final Pattern ALIAS = Pattern.compile("(?is)\\s*(?:AS\\s+)?(\\w+)");

    static JoinList of(String from) {
        List<Join> joins = new ArrayList<>();
        Matcher m = RELATION.matcher(from);
        while (m.find()) {
            if (depth(from, m.start()) != 0) {
                continue;
            }
            String before =
                    from.substring(0, m.start()).toUpperCase(Locale.ROOT).stripTrailing();
            boolean left = before.endsWith("LEFT JOIN") || before.endsWith("LEFT OUTER JOIN");
            joins.add(new Join(m.group(1).toLowerCase(Locale.ROOT), m.group(2), left, on(from, m.end()), null));
        }
        Matcher sub = SUBQUERY.matcher(from);
        while (sub.find()) {
            int open = sub.end() - 1;
            int close = closing(from, open);
            close = close < 0 ? from.length() - 1 : close;
            Matcher alias = ALIAS.matcher(from.substring(close + 1));
            if (depth(from, open) == 0 && alias.lookingAt()) {
                int after = close + 1 + alias.end();
                joins.add(new Join(
                        "(subquery)",
                        alias.group(1),
                        sub.group(1) != null,
                        on(from, after),
                        from.substring(open + 1, close)));
            }
        }
        return new JoinList(joins);
    }

    /** The ON condition after {@code at}, up to the next join at the same depth. */
    private static String on(String from, int at) {
        String rest = from.substring(at).stripLeading();
        if (!rest.regionMatches(true, 0, "ON ", 0, 3)) {
            return "";
        }
        int end = rest.length();
        Matcher next = NEXT_JOIN.matcher(rest);
        while (next.find()) {
            if (depth(rest, next.start()) == 0) {
                end = next.start();
                break;
            }
        }
        return rest.substring(3, end).strip();
    }

    /** The index of the parenthesis that closes the one at {@code open}, outside strings and comments; -1 if none. */
    static int closing(String s, int open) {
        int depth = 0;
        int i = open;
        while (i < s.length()) {
            int j = SqlLexer.skipNonCode(s, i);
            if (j > i) {
                i = j;
                continue;
            }
            depth += s.charAt(i) == '(' ? 1 : s.charAt(i) == ')' ? -1 : 0;
            if (depth == 0) {
                return i;
            }
            i++;
        }
        return -1;
    }

    static int depth(String s, int at) {
        int depth = 0;
        int i = 0;
        while (i < at) {
            int j = SqlLexer.skipNonCode(s, i);
            if (j > i) {
                i = j;
                continue;
            }
            depth += s.charAt(i) == '(' ? 1 : s.charAt(i) == ')' ? -1 : 0;
            i++;
        }
        return depth;
    }
}
