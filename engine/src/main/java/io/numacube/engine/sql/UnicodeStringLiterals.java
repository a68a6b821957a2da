package io.numacube.engine.sql;

import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;

/**
 * Guards PostgreSQL's Unicode string literals, {@code U&'d\0061t\+000061'}, which Calcite's parser decodes itself but
 * only in part: it reads four characters after each backslash as a hexadecimal number with {@code Integer.parseInt},
 * so {@code \+000061} (PostgreSQL's six-digit form, the letter a) became a NUL character and the text {@code 061}, and
 * {@code \-001} the character U+FFFF. Such a literal is refused with 0A000 and its position, before parsing: only
 * {@code \XXXX} (four hexadecimal digits) and {@code \\} are read, which Calcite decodes as PostgreSQL does; a
 * {@code UESCAPE} clause (another escape character) is refused too. Stateless.
 */
final class UnicodeStringLiterals {

    private UnicodeStringLiterals() {}

    /**
     * @throws NumacubeException 0A000 at the literal for an escape Calcite would misread
     */
    static void refuseMisread(String text) {
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int eol = text.indexOf('\n', i);
                i = eol < 0 ? n : eol;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int close = text.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
            } else if (c == '"') {
                i = closingQuote(text, i) + 1;
            } else if (c == '\'') {
                int end = closingQuote(text, i);
                if (isUnicodePrefix(text, i)) {
                    check(text, i - 2, text.substring(i + 1, Math.min(end, n)), end + 1);
                }
                i = end + 1;
            } else {
                i++;
            }
        }
    }

    private static boolean isUnicodePrefix(String text, int quote) {
        return quote >= 2
                && text.charAt(quote - 1) == '&'
                && (text.charAt(quote - 2) == 'U' || text.charAt(quote - 2) == 'u')
                && (quote == 2 || !Character.isJavaIdentifierPart(text.charAt(quote - 3)));
    }

    private static void check(String text, int start, String body, int after) {
        for (int j = 0; j < body.length(); j++) {
            if (body.charAt(j) != '\\') {
                continue;
            }
            if (j + 1 < body.length() && body.charAt(j + 1) == '\\') {
                j++;
            } else if (isHex(body, j + 1, j + 5)) {
                j += 4;
            } else {
                throw refused(text, start, "an escape other than \\XXXX (four hexadecimal digits) or \\\\");
            }
        }
        String rest = text.substring(Math.min(after, text.length())).stripLeading();
        if (rest.regionMatches(true, 0, "UESCAPE", 0, 7)) {
            throw refused(text, start, "UESCAPE");
        }
    }

    private static boolean isHex(String s, int from, int to) {
        if (to > s.length()) {
            return false;
        }
        for (int k = from; k < to; k++) {
            char h = s.charAt(k);
            if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'))) {
                return false;
            }
        }
        return true;
    }

    /** The index of the quote that closes the one at {@code open} (a doubled quote is part of the text). */
    private static int closingQuote(String text, int open) {
        char q = text.charAt(open);
        int k = open + 1;
        while (k < text.length()) {
            if (text.charAt(k) == q) {
                if (k + 1 < text.length() && text.charAt(k + 1) == q) {
                    k += 2;
                    continue;
                }
                return k;
            }
            k++;
        }
        return text.length();
    }

    private static NumacubeException refused(String text, int at, String what) {
        int line = 1;
        int col = 1;
        for (int k = 0; k < at; k++) {
            if (text.charAt(k) == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                "0A000",
                "unsupported SQL: a Unicode string literal U&'...' with " + what
                        + " — numacube reads \\XXXX escapes only; write the character itself",
                ErrorPosition.sql(line, col),
                null);
    }
}
