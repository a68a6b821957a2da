package io.numacube.engine.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    private static String random(SplittableRandom rnd, char[] alphabet, int length) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < length; i++) {
            b.append(alphabet[rnd.nextInt(alphabet.length)]);
        }
        return b.toString();
    }

    private static Pattern regex(String like) {
        StringBuilder b = new StringBuilder();
        for (String run : like.split("%", -1)) {
            b.append(b.isEmpty() ? "" : ".*").append(Pattern.quote(run));
        }
        return Pattern.compile(b.toString(), Pattern.DOTALL);
    }
}
