package io.numacube.engine.sql;

import io.numacube.engine.sql.SqlTokens.Token;
import java.util.List;
import java.util.Set;

/**
 * Whether tokens are one term of a plain shape for {@link LongChains}: operands joined by operators, and nothing else.
 * An operand is any number of prefixes ({@code NOT}, {@code -}, {@code +}) before a name (dotted, or a function's
 * name before its parenthesized arguments), a number, a string, {@code DATE|TIME|TIMESTAMP '...'}, {@code ?} or a
 * parenthesized expression, and may be followed by {@code IS [NOT] NULL|TRUE|FALSE|UNKNOWN}. An operator is a run of
 * the characters {@code = < > ! | + - * / %}, or {@code [NOT] LIKE}, {@code [NOT] ILIKE}, {@code [NOT] IN}, or
 * {@code AND} where the term is one of an OR chain. Two operands in a row (an alias, a clause keyword), a comma or
 * any other word or character make the tokens no plain term. Stateless.
 */
final class PlainTerm {

    private static final String OPERATOR_CHARS = "=<>!|+-*/%";

    /** Words that are operators or keywords: never a name operand. */
    private static final Set<String> NOT_NAMES = Set.of(
            "and",
            "or",
            "not",
            "like",
            "ilike",
            "in",
            "is",
            "between",
            "case",
            "when",
            "then",
            "else",
            "escape",
            "similar",
            "from",
            "as",
            "distinct",
            "collate");

    private static final Set<String> TYPED_LITERALS = Set.of("date", "time", "timestamp");

    private static final Set<String> IS_WHAT = Set.of("null", "true", "false", "unknown");

    private PlainTerm() {}

    /** Whether tokens {@code [from, to)} are one plain term (an OR chain's when {@code inOr}: AND may join in it). */
    static boolean is(List<Token> tokens, int[] match, int from, int to, boolean inOr) {
        int i = from;
        while (true) {
            i = operand(tokens, match, i, to);
            if (i < 0) {
                return false;
            }
            if (i == to) {
                return true;
            }
            i = operator(tokens, i, to, inOr);
            if (i < 0) {
                return false;
            }
        }
    }

    /** The index after the operand at {@code i} and any IS test after it, or -1 when none is there. */
    private static int operand(List<Token> tokens, int[] match, int i, int to) {
        while (i < to && (isWord(tokens.get(i), "not") || isChar(tokens.get(i), '-') || isChar(tokens.get(i), '+'))) {
            i++;
        }
        if (i >= to) {
            return -1;
        }
        Token t = tokens.get(i);
        int next;
        switch (t.kind()) {
            case '(' -> next = match[i] > i && match[i] < to ? match[i] + 1 : -1;
            case '0', '\'', '?' -> next = i + 1;
            case '"', 'w' -> next = name(tokens, match, i, to);
            default -> next = -1;
        }
        return next < 0 ? -1 : isTest(tokens, next, to);
    }

    /** The index after the name, typed literal or call at {@code i}, or -1. */
    private static int name(List<Token> tokens, int[] match, int i, int to) {
        Token t = tokens.get(i);
        if (t.kind() == 'w' && NOT_NAMES.contains(t.word())) {
            return -1;
        }
        if (t.kind() == 'w'
                && TYPED_LITERALS.contains(t.word())
                && i + 1 < to
                && tokens.get(i + 1).kind() == '\'') {
            return i + 2;
        }
        int next = i + 1;
        while (next + 1 < to && isChar(tokens.get(next), '.') && isNamePart(tokens.get(next + 1))) {
            next += 2;
        }
        if (next < to && tokens.get(next).kind() == '(' && match[next] > next && match[next] < to) {
            next = match[next] + 1;
        }
        return next;
    }

    /** The index after {@code IS [NOT] NULL|TRUE|FALSE|UNKNOWN} at {@code i}, or {@code i} when none is there. */
    private static int isTest(List<Token> tokens, int i, int to) {
        if (i >= to || !isWord(tokens.get(i), "is")) {
            return i;
        }
        int j = i + 1;
        if (j < to && isWord(tokens.get(j), "not")) {
            j++;
        }
        return j < to
                        && tokens.get(j).kind() == 'w'
                        && IS_WHAT.contains(tokens.get(j).word())
                ? j + 1
                : -1;
    }

    /** The index after the operator at {@code i}, or -1 when none is there. */
    private static int operator(List<Token> tokens, int i, int to, boolean inOr) {
        int j = i;
        while (j < to
                && tokens.get(j).end() - tokens.get(j).start() == 1
                && OPERATOR_CHARS.indexOf(tokens.get(j).kind()) >= 0) {
            j++;
        }
        if (j > i) {
            return j;
        }
        Token t = tokens.get(i);
        if (inOr && isWord(t, "and")) {
            return i + 1;
        }
        if (isWord(t, "not") && i + 1 < to) {
            t = tokens.get(++i);
        }
        return isWord(t, "like") || isWord(t, "ilike") || isWord(t, "in") ? i + 1 : -1;
    }

    private static boolean isNamePart(Token t) {
        return t.kind() == '"' || (t.kind() == 'w' && !NOT_NAMES.contains(t.word()));
    }

    private static boolean isWord(Token t, String word) {
        return t.kind() == 'w' && t.word().equals(word);
    }

    private static boolean isChar(Token t, char c) {
        return t.kind() == c && t.end() - t.start() == 1;
    }
}
