package io.numacube.server.auth;

import java.text.Normalizer;

/**
 * SASLprep (RFC 4013) of a password, as PostgreSQL's {@code pg_saslprep} applies it before SCRAM: an ASCII password
 * is used as it is; any other has non-ASCII spaces mapped to a space, the "commonly mapped to nothing" characters
 * removed, and NFKC normalisation; a result with a prohibited or unassigned character, or that breaks the
 * bidirectional rule, makes the password be used as it was given, which is what PostgreSQL (libpq, the server and
 * pgjdbc) does too. Unassigned means unassigned in the JVM's Unicode version, not Unicode 3.2. Stateless.
 */
final class SaslPrep {

    private SaslPrep() {}

    static String prepare(String password) {
        if (password.chars().allMatch(c -> c < 0x80)) {
            return password;
        }
        StringBuilder mapped = new StringBuilder(password.length());
        password.codePoints().forEach(cp -> {
            if (nonAsciiSpace(cp)) {
                mapped.append(' ');
            } else if (!mappedToNothing(cp)) {
                mapped.appendCodePoint(cp);
            }
        });
        String normalized = Normalizer.normalize(mapped, Normalizer.Form.NFKC);
        if (normalized.codePoints().anyMatch(SaslPrep::prohibited) || !bidiOk(normalized)) {
            return password;
        }
        return normalized;
    }

    /** RFC 3454 table C.1.2. */
    private static boolean nonAsciiSpace(int cp) {
        return cp == 0xA0
                || cp == 0x1680
                || (cp >= 0x2000 && cp <= 0x200B)
                || cp == 0x202F
                || cp == 0x205F
                || cp == 0x3000;
    }

    /** RFC 3454 table B.1. */
    private static boolean mappedToNothing(int cp) {
        return cp == 0xAD
                || cp == 0x34F
                || cp == 0x1806
                || (cp >= 0x180B && cp <= 0x180D)
                || (cp >= 0x200B && cp <= 0x200D)
                || cp == 0x2060
                || (cp >= 0xFE00 && cp <= 0xFE0F)
                || cp == 0xFEFF;
    }

    /** RFC 4013 section 2.3 (tables C.1.2, C.2.1 to C.9) and unassigned code points (A.1). */
    private static boolean prohibited(int cp) {
        return nonAsciiSpace(cp)
                || cp < 0x20
                || (cp >= 0x7F && cp <= 0x9F)
                || cp == 0x6DD
                || cp == 0x70F
                || cp == 0x180E
                || (cp >= 0x200C && cp <= 0x200F)
                || (cp >= 0x2028 && cp <= 0x202E)
                || (cp >= 0x2060 && cp <= 0x2063)
                || (cp >= 0x206A && cp <= 0x206F)
                || (cp >= 0x2FF0 && cp <= 0x2FFB)
                || (cp >= 0xE000 && cp <= 0xF8FF)
                || (cp >= 0xFDD0 && cp <= 0xFDEF)
                || cp == 0xFEFF
                || (cp >= 0xFFF9 && cp <= 0xFFFF)
                || (cp & 0xFFFE) == 0xFFFE
                || (cp >= 0x1D173 && cp <= 0x1D17A)
                || cp >= 0xF0000
                || cp == 0xE0001
                || (cp >= 0xE0020 && cp <= 0xE007F)
                || cp == 0x340
                || cp == 0x341
                || Character.getType(cp) == Character.SURROGATE
                || !Character.isDefined(cp);
    }

    /** RFC 3454 section 6: with a right-to-left character, no left-to-right one, and one at each end. */
    private static boolean bidiOk(String s) {
        int[] cps = s.codePoints().toArray();
        boolean rtl = false;
        boolean ltr = false;
        for (int cp : cps) {
            rtl |= rightToLeft(cp);
            ltr |= Character.getDirectionality(cp) == Character.DIRECTIONALITY_LEFT_TO_RIGHT;
        }
        return !rtl || (!ltr && rightToLeft(cps[0]) && rightToLeft(cps[cps.length - 1]));
    }

    private static boolean rightToLeft(int cp) {
        byte d = Character.getDirectionality(cp);
        return d == Character.DIRECTIONALITY_RIGHT_TO_LEFT || d == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC;
    }
}
