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
        return c.runs != null ? c.runs.matches(s) : matches(s.codePoints().toArray(), c.tokens);
    }

    /**
     * A pattern ready to match: its literal runs ({@link #literalRuns}), or else its {@link #tokens}; for the LIKE of
     * the last call, so that a LIKE evaluated per value of a column reads its pattern once.
     */
    private record Compiled(Expr.Like like, LiteralRuns runs, int[] tokens) {}

    /** The token of an unescaped {@code _}: any one code point (code points are never negative). */
    private static final int ANY_ONE = -1;

    /** The token of an unescaped {@code %}: any run of code points. */
    private static final int ANY_RUN = -2;

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
        c = literalRuns(like.pattern(), like.escape()) && literalRuns(p, like.escape())
                ? new Compiled(like, LiteralRuns.of(p), null)
                : new Compiled(like, null, tokens(like.pattern(), like.escape(), like.ignoreCase()));
        last = c;
        return c;
    }

    /**
     * The pattern as tokens: {@link #ANY_ONE}, {@link #ANY_RUN}, or a literal code point (lower-cased for ILIKE).
     * The escape character is found in the pattern as written, before any lower-casing (as PostgreSQL does), and
     * makes the next code point literal even when the escape is itself {@code %} or {@code _} ({@code 'a%%' ESCAPE
     * '%'} is the text {@code a%}); the binder refuses a pattern that ends with its escape.
     */
    private static int[] tokens(String pattern, char escape, boolean lowerCase) {
        int[] cps = pattern.codePoints().toArray();
        int[] tokens = new int[cps.length];
        int n = 0;
        for (int i = 0; i < cps.length; i++) {
            int cp = cps[i];
            if (escape != 0 && cp == escape && i + 1 < cps.length) {
                cp = cps[++i];
            } else if (cp == '%') {
                tokens[n++] = ANY_RUN;
                continue;
            } else if (cp == '_') {
                tokens[n++] = ANY_ONE;
                continue;
            }
            tokens[n++] = lowerCase ? Character.toLowerCase(cp) : cp;
        }
        return java.util.Arrays.copyOf(tokens, n);
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

    private static boolean matches(int[] s, int[] p) {
        int i = 0;
        int j = 0;
        int starP = -1;
        int starS = -1;
        while (i < s.length) {
            if (j < p.length && p[j] == ANY_RUN) {
                starP = ++j;
                starS = i;
            } else if (j < p.length && (p[j] == ANY_ONE || p[j] == s[i])) {
                i++;
                j++;
            } else if (starP >= 0) {
                j = starP;
                i = ++starS;
            } else {
                return false;
            }
        }
        while (j < p.length && p[j] == ANY_RUN) {
            j++;
        }
        return j == p.length;
    }
}
