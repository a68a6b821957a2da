package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import java.util.Locale;

/**
 * SQL LIKE matching: {@code %} matches any run of characters, {@code _} one character (a code point), the escape
 * character (when given) makes the next pattern character literal; ILIKE compares the lower-case forms, as DuckDB's
 * does. Iterative, with one backtrack point per {@code %}: linear in practice, never exponential. Stateless.
 */
final class LikePattern {

    private LikePattern() {}

    static boolean matches(String text, Expr.Like like) {
        String s = like.ignoreCase() ? text.toLowerCase(Locale.ROOT) : text;
        String p = like.ignoreCase() ? like.pattern().toLowerCase(Locale.ROOT) : like.pattern();
        return matches(s.codePoints().toArray(), p.codePoints().toArray(), like.escape());
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
