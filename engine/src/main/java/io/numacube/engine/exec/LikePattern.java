package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.ScalarFunctions;

/**
 * SQL LIKE matching: {@code %} matches any run of characters, {@code _} one character (a code point), the escape
 * character (when given) makes the next pattern character literal; ILIKE compares the lower-case forms (code point
 * by code point), as DuckDB's does. Iterative, with one backtrack point per {@code %}: linear in practice, never exponential. Stateless.
 */
final class LikePattern {

    private LikePattern() {}

    static boolean matches(String text, Expr.Like like) {
        // code point by code point, as DuckDB's lower: String.toLowerCase maps İ to two code points, which _ missed
        String s = like.ignoreCase() ? ScalarFunctions.lowerCodePoints(text) : text;
        String p = like.ignoreCase() ? ScalarFunctions.lowerCodePoints(like.pattern()) : like.pattern();
        if (literalRuns(p, like.escape())) {
            return matchesLiteralRuns(s, p);
        }
        return matches(s.codePoints().toArray(), p.codePoints().toArray(), like.escape());
    }

    /**
     * Whether {@code p} is literal runs between {@code %}s only: no {@code _}, no escape character, no surrogate (so a
     * run found among the text's chars is found among its code points, at the same place).
     */
    static boolean literalRuns(String p, char escape) {
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '_' || (escape != 0 && c == escape) || Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code s LIKE p} for a pattern of {@link #literalRuns}: the run before the first {@code %} starts {@code s},
     * the run after the last ends it, and the runs between are found in order, each at its leftmost place after the
     * previous one (leftmost leaves the most room for the rest, so no other choice matches where it fails).
     */
    static boolean matchesLiteralRuns(String s, String p) {
        int first = p.indexOf('%');
        if (first < 0) {
            return s.equals(p);
        }
        int last = p.lastIndexOf('%');
        int suffix = p.length() - last - 1;
        int end = s.length() - suffix;
        if (end < first || !s.startsWith(p.substring(0, first)) || !s.startsWith(p.substring(last + 1), end)) {
            return false;
        }
        int at = first;
        int run = first + 1;
        while (run <= last) {
            int next = p.indexOf('%', run);
            if (next > run) {
                int found = s.indexOf(p.substring(run, next), at);
                if (found < 0 || found + (next - run) > end) {
                    return false;
                }
                at = found + (next - run);
            }
            run = next + 1;
        }
        return true;
    }

    private static boolean matches(int[] s, int[] p, char escape) {
        int i = 0;
        int j = 0;
        int starP = -1;
        int starS = -1;
        while (i < s.length) {
            if (j < p.length && p[j] == '%') {
                starP = ++j;
                starS = i;
            } else if (j < p.length && p[j] == escape && escape != 0 && j + 1 < p.length && p[j + 1] == s[i]) {
                i++;
                j += 2;
            } else if (j < p.length && (p[j] == '_' || (p[j] == s[i] && p[j] != escape))) {
                i++;
                j++;
            } else if (starP >= 0) {
                j = starP;
                i = ++starS;
            } else {
                return false;
            }
        }
        while (j < p.length && p[j] == '%') {
            j++;
        }
        return j == p.length;
    }
}
