package io.numacube.engine.sql;

import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;

/**
 * Guards the string literals with escapes that Calcite's parser decodes itself, but not as PostgreSQL does, refusing
 * what it would misread with 0A000 and the literal's position, before parsing:
 * <ul>
 *   <li>Unicode literals, {@code U&'d\0061t\+000061'}: Calcite reads four characters after each backslash as a
 *       hexadecimal number with {@code Integer.parseInt}, so {@code \+000061} (PostgreSQL's six-digit form, the letter
 *       a) became a NUL character and the text {@code 061}, and {@code \-001} the character U+FFFF. Only {@code \XXXX}
 *       (four hexadecimal digits) and {@code \\} are read; a {@code UESCAPE} clause is refused too.
 *   <li>Escape literals, {@code E'...'}: Calcite kept the backslash of an escape PostgreSQL reads as the character
 *       itself ({@code E'\q'} was {@code \q}, PostgreSQL's and DuckDB's {@code q}; {@code E'\"'} and the one-digit
 *       octal {@code E'\7'} kept theirs too), and made {@code E'a\000b'} a text
 *       holding a NUL character, which both refuse. Only {@code \b \f \n \r \t \\ \'}, three-digit octal, {@code \x}
 *       hexadecimal, and four- and eight-digit Unicode escapes ({@code u} and {@code U} after the backslash) of a
 *       character other than NUL are read.
 * </ul>
 * Stateless.
 */
final class EscapedStringLiterals {

    private static final java.util.regex.Pattern ESCAPE = java.util.regex.Pattern.compile(
            "\\\\(?:[bfnrt\\\\']|[0-7]{3}|x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})");
    private static final java.util.regex.Pattern NUL_ESCAPE =
            java.util.regex.Pattern.compile("\\\\(?:000|x0{1,2}|u0{4}|U0{8})");

    private EscapedStringLiterals() {}

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
            } else if (c == '\'' && hasPrefix(text, i, 'E')) {
                int end = closingEscapedQuote(text, i);
                checkEscapes(text, i - 1, text.substring(i + 1, Math.min(end, n)));
                i = end + 1;
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

    /** Whether the quote at {@code quote} follows the letter {@code prefix} (either case) as a word of its own. */
    private static boolean hasPrefix(String text, int quote, char prefix) {
        return quote >= 1
                && Character.toUpperCase(text.charAt(quote - 1)) == prefix
                && (quote == 1 || !Character.isJavaIdentifierPart(text.charAt(quote - 2)));
    }

    /** Each backslash of an {@code E'...'} body must start an escape Calcite decodes as PostgreSQL does. */
    private static void checkEscapes(String text, int start, String body) {
        java.util.regex.Matcher m = ESCAPE.matcher(body);
        int j = body.indexOf('\\');
        while (j >= 0) {
            if (!m.find(j) || m.start() != j) {
                throw refused(
                        text,
                        start,
                        "an escape other than \\b \\f \\n \\r \\t \\\\ \\', three-digit octal, \\x, \\u or \\U",
                        "E'...'");
            }
            if (NUL_ESCAPE.matcher(m.group()).matches()) {
                throw refused(text, start, "a NUL character, which text cannot hold", "E'...'");
            }
            j = body.indexOf('\\', m.end());
        }
    }

    /** The index of the quote that closes the {@code E'} at {@code open}: a backslash escapes the next character. */
    private static int closingEscapedQuote(String text, int open) {
        int k = open + 1;
        while (k < text.length()) {
            char c = text.charAt(k);
            if (c == '\\') {
                k += 2;
            } else if (c == '\'' && k + 1 < text.length() && text.charAt(k + 1) == '\'') {
                k += 2;
            } else if (c == '\'') {
                return k;
            } else {
                k++;
            }
        }
        return text.length();
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
                if (body.startsWith("0000", j + 1)) {
                    throw refused(text, start, "a NUL character, which text cannot hold", "U&'...'");
                }
                j += 4;
            } else {
                throw refused(text, start, "an escape other than \\XXXX (four hexadecimal digits) or \\\\", "U&'...'");
            }
        }
        String rest = text.substring(Math.min(after, text.length())).stripLeading();
        if (rest.regionMatches(true, 0, "UESCAPE", 0, 7)) {
            throw refused(text, start, "UESCAPE", "U&'...'");
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

    private static NumacubeException refused(String text, int at, String what, String form) {
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
                "unsupported SQL: a string literal " + form + " with " + what
                        + " — write the character itself, in a plain '...' literal",
                ErrorPosition.sql(line, col),
                null);
    }
}
