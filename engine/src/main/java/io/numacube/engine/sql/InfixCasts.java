package io.numacube.engine.sql;

import io.numacube.engine.sql.SqlTokens.Token;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * PostgreSQL's infix cast {@code x::type}, bound as tightly as PostgreSQL and DuckDB bind it: to the operand right
 * before it. Calcite 1.42's Babel parser casts everything to the left of {@code ::} instead ({@code 10 - 2::DOUBLE /
 * 4} became {@code CAST(10 - 2 AS DOUBLE) / 4}, 2.0 where DuckDB answers 9.5; {@code k = '2'::BIGINT} became {@code
 * CAST(k = '2' AS BIGINT)}), so each cast, with its operand and any casts chained after it ({@code x::INT::VARCHAR}),
 * is put in parentheses before parsing ({@link InsertedText} moves positions back).
 *
 * <p>The operand is the token before {@code ::}: a name ({@code t.k}, {@code "Quoted"}), a number, a string with its
 * type word ({@code DATE '2024-01-01'}), a parenthesized expression, a function call with its name ({@code f(x)},
 * {@code CAST(x AS INT)}), or a {@code CASE ... END}. A cast whose operand is none of those is left as it is. Words in
 * string literals, quoted names and comments are not read. Stateless.
 */
final class InfixCasts {

    /** Words that may stand before a parenthesized expression without being a function's name. */
    private static final Set<String> NOT_FUNCTIONS = Set.of(
            "select",
            "where",
            "and",
            "or",
            "not",
            "in",
            "on",
            "when",
            "then",
            "else",
            "by",
            "having",
            "as",
            "is",
            "between",
            "like",
            "ilike",
            "case",
            "distinct",
            "all",
            "any",
            "some",
            "from",
            "join",
            "using",
            "values",
            "set",
            "limit",
            "offset",
            "union",
            "intersect",
            "except",
            "with",
            "filter",
            "escape",
            "similar",
            "to",
            "over",
            "partition",
            "order",
            "group",
            "returning",
            "into",
            "lateral");

    /** Words that give a string literal its type ({@code DATE '2024-01-01'}). */
    private static final Set<String> LITERAL_TYPES = Set.of("date", "time", "timestamp", "interval", "x", "e");

    /** Words a type name may go on with ({@code DOUBLE PRECISION}, {@code TIMESTAMP WITH TIME ZONE}). */
    private static final Set<String> TYPE_WORDS = Set.of("precision", "varying", "with", "without", "time", "zone");

    private InfixCasts() {}

    /** The parentheses to insert (offset to text) so that each {@code ::} casts the operand right before it. */
    static Map<Integer, String> parentheses(String sql) {
        Map<Integer, String> insertions = new TreeMap<>();
        if (!sql.contains("::")) {
            return insertions;
        }
        List<Token> tokens = SqlTokens.of(sql);
        int[] match = SqlTokens.matches(tokens);
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.get(i).kind() != ':' || i == 0) {
                continue;
            }
            int first = operandStart(tokens, match, i - 1);
            int last = chainEnd(tokens, match, i);
            if (first >= 0 && last > i) {
                insertions.merge(tokens.get(first).start(), "(", (a, b) -> a + b);
                insertions.merge(tokens.get(last).end(), ")", (a, b) -> b + a);
                i = last;
            }
        }
        return insertions;
    }

    /** The index of the first token of the operand ending at token {@code at}, or -1 when it is not one it knows. */
    private static int operandStart(List<Token> tokens, int[] match, int at) {
        Token t = tokens.get(at);
        int start;
        switch (t.kind()) {
            case ')' -> {
                start = match[at];
                if (start > 0 && isFunctionName(tokens.get(start - 1))) {
                    start = qualified(tokens, start - 1);
                }
            }
            case 'e' -> start = match[at];
            case '\'' -> {
                start = at;
                Token before = at > 0 ? tokens.get(at - 1) : null;
                if (before != null
                        && before.kind() == 'w'
                        && (LITERAL_TYPES.contains(before.word()) || before.end() == t.start())) {
                    start = at - 1;
                }
            }
            case 'w', '"', '0' -> start = qualified(tokens, at);
            default -> start = -1;
        }
        return start;
    }

    private static boolean isFunctionName(Token t) {
        return t.kind() == '"' || (t.kind() == 'w' && !NOT_FUNCTIONS.contains(t.word()));
    }

    /** The first token of the dotted name ending at {@code at} ({@code s.t.k}). */
    private static int qualified(List<Token> tokens, int at) {
        int start = at;
        while (start >= 2
                && tokens.get(start - 1).kind() == '.'
                && (tokens.get(start - 2).kind() == 'w' || tokens.get(start - 2).kind() == '"')) {
            start -= 2;
        }
        return start;
    }

    /** The last token of the type after the {@code ::} at {@code at}, and of the casts chained after it. */
    private static int chainEnd(List<Token> tokens, int[] match, int at) {
        int i = at;
        while (i < tokens.size() && tokens.get(i).kind() == ':') {
            if (i + 1 >= tokens.size()
                    || (tokens.get(i + 1).kind() != 'w' && tokens.get(i + 1).kind() != '"')) {
                return -1;
            }
            i += 2;
            while (i < tokens.size()) {
                Token t = tokens.get(i);
                if (t.kind() == '(' && match[i] > i) {
                    i = match[i] + 1;
                } else if (t.kind() == 'w' && TYPE_WORDS.contains(t.word())) {
                    i++;
                } else {
                    break;
                }
            }
        }
        return i - 1;
    }
}
