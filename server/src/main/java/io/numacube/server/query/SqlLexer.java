package io.numacube.server.query;

/**
 * The lexical rules of PostgreSQL's SQL text that decide what is code: {@code '...'} strings (a doubled quote inside,
 * backslash escapes after {@code E}), {@code "..."} identifiers, {@code $tag$...$tag$} strings, {@code --} comments
 * to the end of the line and nested {@code /* *}{@code /} comments. Statement splitting, parameter markers and
 * statement recognition all read text through it, so a {@code ;} or {@code $1} inside a string is never taken for
 * code. Unterminated constructs run to the end of the text. Stateless.
 */
public final class SqlLexer {

    private SqlLexer() {}

    /**
     * {@code list} split at the commas outside parentheses, quotes and comments (a select list's items), each part as
     * written; the last part is kept even when blank.
     */
    public static java.util.List<String> splitTopLevel(String list) {
        java.util.List<String> out = new java.util.ArrayList<>();
        int depth = 0;
        int start = 0;
        int i = 0;
        while (i < list.length()) {
            int j = skipNonCode(list, i);
            if (j > i) {
                i = j;
                continue;
            }
            char c = list.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (c == ',' && depth == 0) {
                out.add(list.substring(start, i));
                start = i + 1;
            }
            i++;
        }
        out.add(list.substring(start));
        return out;
    }

    /**
     * The index just past the string, quoted identifier or comment that starts at {@code i}, or {@code i} when none
     * starts there.
     */
    public static int skipNonCode(String s, int i) {
        int n = s.length();
        char c = s.charAt(i);
        if (c == '\'') {
            boolean escapes = i > 0 && (s.charAt(i - 1) == 'E' || s.charAt(i - 1) == 'e') && !identifierAt(s, i - 2);
            return quoted(s, i, '\'', escapes);
        }
        if (c == '"') {
            return quoted(s, i, '"', false);
        }
        if (c == '-' && i + 1 < n && s.charAt(i + 1) == '-') {
            int end = s.indexOf('\n', i);
            return end < 0 ? n : end + 1;
        }
        if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
            return blockComment(s, i);
        }
        if (c == '$' && !identifierAt(s, i - 1)) {
            return dollarQuoted(s, i);
        }
        return i;
    }

    /** Whether the character at {@code i} exists and may be part of an identifier or a number. */
    public static boolean identifierAt(String s, int i) {
        if (i < 0 || i >= s.length()) {
            return false;
        }
        char c = s.charAt(i);
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /**
     * The text with every comment replaced by one space and runs of whitespace outside strings collapsed to one
     * space, stripped: the form statement recognition matches against.
     */
    public static String normalize(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            int j = skipNonCode(s, i);
            char c = s.charAt(i);
            boolean comment = j > i && (c == '-' || c == '/');
            if (j > i && !comment) {
                out.append(s, i, j);
                i = j;
                continue;
            }
            i = comment ? j : i + 1;
            if (!comment && !Character.isWhitespace(c)) {
                out.append(c);
            } else if (!out.isEmpty() && out.charAt(out.length() - 1) != ' ') {
                out.append(' ');
            }
        }
        return out.toString().strip();
    }

    /** The text with every string replaced by {@code ''} and every comment by a space: only its code. */
    public static String codeOnly(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            int j = skipNonCode(s, i);
            if (j > i) {
                char c = s.charAt(i);
                out.append(c == '\'' ? "''" : c == '"' ? s.substring(i, j) : c == '$' ? "''" : " ");
                i = j;
                continue;
            }
            out.append(s.charAt(i++));
        }
        return out.toString();
    }

    private static int quoted(String s, int i, char quote, boolean backslashEscapes) {
        int n = s.length();
        int j = i + 1;
        while (j < n) {
            char c = s.charAt(j);
            if (backslashEscapes && c == '\\') {
                j += 2;
                continue;
            }
            if (c == quote) {
                if (j + 1 < n && s.charAt(j + 1) == quote) {
                    j += 2;
                    continue;
                }
                return j + 1;
            }
            j++;
        }
        return n;
    }

    private static int blockComment(String s, int i) {
        int n = s.length();
        int depth = 0;
        int j = i;
        while (j + 1 < n) {
            if (s.charAt(j) == '/' && s.charAt(j + 1) == '*') {
                depth++;
                j += 2;
            } else if (s.charAt(j) == '*' && s.charAt(j + 1) == '/') {
                depth--;
                j += 2;
                if (depth == 0) {
                    return j;
                }
            } else {
                j++;
            }
        }
        return n;
    }

    /** {@code $$...$$} or {@code $tag$...$tag$}; a {@code $} that starts no tag (a parameter {@code $1}) is code. */
    private static int dollarQuoted(String s, int i) {
        int j = i + 1;
        while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) {
            j++;
        }
        if (j >= s.length() || s.charAt(j) != '$' || (j > i + 1 && Character.isDigit(s.charAt(i + 1)))) {
            return i;
        }
        String tag = s.substring(i, j + 1);
        int end = s.indexOf(tag, j + 1);
        return end < 0 ? s.length() : end + tag.length();
    }
}
