package io.numacube.engine.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A pattern of literal runs between {@code %}s is matched by finding the runs ({@link LikePattern#matchesLiteralRuns}):
 * the same answer as a regular expression made from the pattern, over seeded random texts and patterns of a small
 * alphabet (so runs repeat, overlap and meet the text's ends).
 */
class LikePatternTest {

    private static final char[] TEXT = {'a', 'b', 'c', 'é'};

    @Test
    void literalRunsMatchAsTheRegularExpressionOfThePattern() {
        long seed = 16;
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < 200_000; i++) {
            String s = random(rnd, TEXT, rnd.nextInt(9));
            String p = random(rnd, new char[] {'a', 'b', 'é', '%', '%'}, rnd.nextInt(7));
            assertTrue(LikePattern.literalRuns(p, '\0'), p);
            assertEquals(
                    regex(p).matcher(s).matches(),
                    LikePattern.matchesLiteralRuns(s, p),
                    "seed=" + seed + " '" + s + "' LIKE '" + p + "'");
        }
    }

    @Test
    void aPatternWithAnUnderscoreTheEscapeOrASurrogateTakesTheGeneralMatcher() {
        assertFalse(LikePattern.literalRuns("%a_b%", '\0'));
        assertFalse(LikePattern.literalRuns("%a!%", '!'));
        assertFalse(LikePattern.literalRuns("%\uD83D\uDE00%", '\0'));
        assertTrue(LikePattern.literalRuns("%special%requests%", '\0'));
        assertTrue(LikePattern.literalRuns("%a!%", '\0'));
    }

    @Test
    void knownCases() {
        assertTrue(LikePattern.matchesLiteralRuns("dark green almond", "%green%"));
        assertFalse(LikePattern.matchesLiteralRuns("dark gree", "%green%"));
        assertTrue(LikePattern.matchesLiteralRuns("PROMO BRUSHED", "PROMO%"));
        assertTrue(LikePattern.matchesLiteralRuns("LARGE BRASS", "%BRASS"));
        assertFalse(LikePattern.matchesLiteralRuns("ab", "ab%b"));
        assertTrue(LikePattern.matchesLiteralRuns("abb", "ab%b"));
        assertTrue(LikePattern.matchesLiteralRuns("", "%"));
        assertTrue(LikePattern.matchesLiteralRuns("", ""));
        assertFalse(LikePattern.matchesLiteralRuns("x", ""));
        assertTrue(LikePattern.matchesLiteralRuns("special packages requests", "%special%requests%"));
        assertFalse(LikePattern.matchesLiteralRuns("requests special", "%special%requests%"));
    }

    /**
     * {@link LikePattern#matches} keeps the last pattern compiled: LIKEs that take turns (literal runs, one with
     * {@code _}, an ILIKE, the same pattern text in another LIKE) each match as their own regular expression says.
     */
    @Test
    void likesTakingTurnsEachMatchTheirOwnPattern() {
        Expr.Column s = new Expr.Column(Expr.Side.FACT, 0, ColumnType.STRING, "s");
        SplittableRandom rnd = new SplittableRandom(18);
        for (int i = 0; i < 20_000; i++) {
            String p = random(rnd, new char[] {'a', 'b', 'é', '%', '%', '_'}, rnd.nextInt(6));
            boolean ignoreCase = rnd.nextBoolean();
            Expr.Like like = new Expr.Like(s, p, '\0', ignoreCase, false);
            Expr.Like same = new Expr.Like(s, p, '\0', ignoreCase, false);
            for (int j = 0; j < 4; j++) {
                String text = random(rnd, new char[] {'a', 'b', 'A', 'B', 'é', 'É'}, rnd.nextInt(8));
                Expr.Like l = j % 2 == 0 ? like : same;
                String t = ignoreCase ? text.toLowerCase(java.util.Locale.ROOT) : text;
                String q = ignoreCase ? p.toLowerCase(java.util.Locale.ROOT) : p;
                assertEquals(
                        regex(q).matcher(t).matches(), LikePattern.matches(text, l), "'" + text + "' LIKE '" + p + "'");
            }
        }
    }

    private static String random(SplittableRandom rnd, char[] alphabet, int length) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < length; i++) {
            b.append(alphabet[rnd.nextInt(alphabet.length)]);
        }
        return b.toString();
    }

    /** The pattern as a regular expression: {@code %} any run, {@code _} one character, the rest literal. */
    private static Pattern regex(String like) {
        StringBuilder b = new StringBuilder();
        for (String run : like.split("%", -1)) {
            b.append(b.isEmpty() ? "" : ".*");
            for (String part : run.split("_", -1)) {
                b.append(Pattern.quote(part)).append(".");
            }
            b.setLength(b.length() - 1);
        }
        return Pattern.compile(b.toString(), Pattern.DOTALL);
    }
}
