package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.plan.ScalarFunctions;

/**
 * SQL LIKE matching: {@code %} matches any run of characters, {@code _} one character (a code point), the escape
 * character (when given) makes the next pattern character literal; ILIKE compares the lower-case forms (code point
 * by code point), as DuckDB's does. Iterative, with one backtrack point per {@code %}: linear in practice, never
 * exponential. Keeps the last pattern compiled (immutable, any thread may read it); otherwise stateless.
 */
final class LikePattern {

    private LikePattern() {}

    static boolean matches(String text, Expr.Like like) {
        // code point by code point, as DuckDB's lower: String.toLowerCase maps İ to two code points, which _ missed
        String s = like.ignoreCase() ? ScalarFunctions.lowerCodePoints(text) : text;
        Compiled c = compiled(like);
        return c.runs != null ? c.runs.matches(s) : matches(s.codePoints().toArray(), c.codePoints, like.escape());
    }

    /**
     * A pattern ready to match: its literal runs ({@link #literalRuns}), or else its code points; for the LIKE of the
     * last call, so that a LIKE evaluated per value of a column reads its pattern once.
     */
    private record Compiled(Expr.Like like, LiteralRuns runs, int[] codePoints) {}

    /** The system property that, {@code false}, compiles the pattern at every match (an A/B of the kept one). */
    static final String KEEP_PROPERTY = "numacube.likeKept";

    private static final boolean KEEP_LAST = !"false".equals(System.getProperty(KEEP_PROPERTY));

    /** The last pattern compiled (any thread's; a pattern is compiled again where another came between). */
    private static volatile Compiled last;

    private static Compiled compiled(Expr.Like like) {
        Compiled c = last;
        if (c != null && c.like == like && KEEP_LAST) {
            return c;
        }
        String p = like.ignoreCase() ? ScalarFunctions.lowerCodePoints(like.pattern()) : like.pattern();
        c = literalRuns(p, like.escape())
                ? new Compiled(like, LiteralRuns.of(p), null)
                : new Compiled(like, null, p.codePoints().toArray());
        last = c;
        return c;
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
        return LiteralRuns.of(p).matches(s);
    }

    /**
     * A pattern of literal runs between {@code %}s: {@code exact} when it has no {@code %} (then {@code prefix} is
     * the whole pattern), else the run before the first {@code %}, the run after the last, and the non-empty runs
     * between, in order.
     */
    private record LiteralRuns(boolean exact, String prefix, String suffix, String[] middle) {

        static LiteralRuns of(String p) {
            int first = p.indexOf('%');
            if (first < 0) {
                return new LiteralRuns(true, p, "", new String[0]);
            }
            int last = p.lastIndexOf('%');
            java.util.List<String> middle = new java.util.ArrayList<>();
            int run = first + 1;
            while (run <= last) {
                int next = p.indexOf('%', run);
                if (next > run) {
                    middle.add(p.substring(run, next));
                }
                run = next + 1;
            }
            return new LiteralRuns(false, p.substring(0, first), p.substring(last + 1), middle.toArray(String[]::new));
        }

        boolean matches(String s) {
            if (exact) {
                return s.equals(prefix);
            }
            int end = s.length() - suffix.length();
            if (end < prefix.length() || !s.startsWith(prefix) || !s.startsWith(suffix, end)) {
                return false;
            }
            int at = prefix.length();
            for (String m : middle) {
                int found = s.indexOf(m, at);
                if (found < 0 || found + m.length() > end) {
                    return false;
                }
                at = found + m.length();
            }
            return true;
        }
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
