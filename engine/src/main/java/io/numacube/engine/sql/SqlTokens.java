package io.numacube.engine.sql;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * SQL text cut into tokens for the passes that read it before the parser ({@link InfixCasts}, {@link LongChains}):
 * words, quoted names, strings, numbers and single characters, with comments and blanks left out; and for each
 * parenthesis its partner. Stateless.
 */
final class SqlTokens {

    private SqlTokens() {}

    /**
     * A token of SQL text: {@code [start, end)} in the text, its kind (see {@link #of}), and for a word its text in
     * lower case.
     */
    record Token(int start, int end, char kind, String word) {}

    /** For each parenthesis its partner's index, for each END its CASE's; -1 where there is none. */
    static int[] matches(List<Token> tokens) {
        int[] match = new int[tokens.size()];
        java.util.Arrays.fill(match, -1);
        Deque<Integer> parens = new ArrayDeque<>();
        Deque<Integer> cases = new ArrayDeque<>();
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.kind() == '(') {
                parens.push(i);
            } else if (t.kind() == ')' && !parens.isEmpty()) {
                match[i] = parens.pop();
                match[match[i]] = i;
            } else if (t.kind() == 'w' && t.word().equals("case")) {
                cases.push(i);
            } else if (t.kind() == 'e' && !cases.isEmpty()) {
                match[i] = cases.pop();
            }
        }
        return match;
    }

    /**
     * The tokens of {@code sql}, comments and blanks left out: words ({@code w}, lower case; END is {@code e}),
     * quoted names ({@code "}), strings ({@code '}), numbers ({@code 0}), {@code ::} ({@code :}), and any other
     * character as itself.
     */
    static List<Token> of(String sql) {
        List<Token> out = new ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            int end = i + 1;
            char kind = c;
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol;
                continue;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
                continue;
            } else if (c == '\'' || c == '"') {
                end = Math.min(SqlLexing.closingQuote(sql, i, c), n - 1) + 1;
            } else if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
                end = i + 2;
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
                end = numberEnd(sql, i);
                kind = '0';
            } else if (Character.isLetter(c) || c == '_') {
                while (end < n
                        && (Character.isLetterOrDigit(sql.charAt(end))
                                || sql.charAt(end) == '_'
                                || sql.charAt(end) == '$')) {
                    end++;
                }
                kind = 'w';
            }
            String word = kind == 'w' ? sql.substring(i, end).toLowerCase(Locale.ROOT) : null;
            out.add(new Token(i, Math.min(end, n), "end".equals(word) ? 'e' : kind, word));
            i = end;
        }
        return out;
    }

    private static int numberEnd(String sql, int from) {
        int end = from;
        int n = sql.length();
        while (end < n && (Character.isDigit(sql.charAt(end)) || sql.charAt(end) == '.')) {
            end++;
        }
        if (end < n && (sql.charAt(end) == 'e' || sql.charAt(end) == 'E')) {
            int exp = end + 1;
            if (exp < n && (sql.charAt(exp) == '+' || sql.charAt(exp) == '-')) {
                exp++;
            }
            if (exp < n && Character.isDigit(sql.charAt(exp))) {
                end = exp;
                while (end < n && Character.isDigit(sql.charAt(end))) {
                    end++;
                }
            }
        }
        return end;
    }
}
