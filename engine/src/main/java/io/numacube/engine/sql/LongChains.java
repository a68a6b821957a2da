package io.numacube.engine.sql;

import io.numacube.engine.sql.SqlTokens.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Parentheses that nest a long chain of {@code OR}s or {@code AND}s ({@code x = 1 OR x = 2 OR ...}, thousands of
 * terms) into groups of at most {@value #GROUP} terms before parsing. Calcite's parser reduces the operators of one
 * parenthesis level by rescanning all of them for each one ({@code PrecedenceClimbingParser}), which takes time
 * quadratic in the terms: a 50,000-term chain took minutes; grouped, each level holds few operators. AND and OR are
 * associative, so the answer is the same; terms are still evaluated left to right.
 *
 * <p>Only terms with an {@code OR} (or an {@code AND}) on both sides are grouped, and only terms of a plain shape:
 * operands (names, numbers, strings, {@code DATE '...'}, parenthesized expressions, function calls) joined by symbol
 * operators, {@code AND} (in an OR chain), {@code IS [NOT]}, {@code [NOT] LIKE}, {@code [NOT] IN}, with prefix
 * {@code NOT} and signs. Such a term holds no clause keyword, comma or alias, so the two operators around it join
 * terms of one expression; an AND chain holding a {@code BETWEEN} is left alone. Stateless.
 */
final class LongChains {

    /** Terms (or groups) a group holds. */
    static final int GROUP = 16;

    /** A chain is grouped from this many terms with an operator on both sides. */
    static final int MIN_TERMS = 64;

    private LongChains() {}

    /** The parentheses to insert (offset to text), or none when the text has no long chain. */
    static Map<Integer, String> parentheses(String sql) {
        Map<Integer, String> insertions = new TreeMap<>();
        if (sql.length() < MIN_TERMS * 8) {
            return insertions;
        }
        List<Token> tokens = SqlTokens.of(sql);
        int[] match = SqlTokens.matches(tokens);
        level(tokens, match, 0, tokens.size(), insertions);
        return insertions;
    }

    /** Groups the chains of tokens {@code [from, to)}, one parenthesis level, and of the levels inside it. */
    private static void level(List<Token> tokens, int[] match, int from, int to, Map<Integer, String> insertions) {
        List<int[]> ors = split(tokens, match, from, to, "or");
        group(tokens, match, ors, insertions, true);
        for (int[] or : ors) {
            if (!hasWord(tokens, match, or[0], or[1], "between")) {
                group(tokens, match, split(tokens, match, or[0], or[1], "and"), insertions, false);
            }
        }
        for (int i = from; i < to; i++) {
            if (tokens.get(i).kind() == '(' && match[i] > i && match[i] < to) {
                level(tokens, match, i + 1, match[i], insertions);
                i = match[i];
            }
        }
    }

    /** The terms of tokens {@code [from, to)} between the {@code word}s at this level, as {@code [start, end)}. */
    private static List<int[]> split(List<Token> tokens, int[] match, int from, int to, String word) {
        List<int[]> terms = new ArrayList<>();
        int start = from;
        for (int i = from; i < to; i++) {
            Token t = tokens.get(i);
            if (t.kind() == '(' && match[i] > i) {
                i = match[i];
            } else if (t.kind() == 'w' && t.word().equals(word)) {
                terms.add(new int[] {start, i});
                start = i + 1;
            }
        }
        terms.add(new int[] {start, to});
        return terms;
    }

    /** Nests each run of plain inner terms of {@code terms} (the first and last are never grouped). */
    private static void group(
            List<Token> tokens, int[] match, List<int[]> terms, Map<Integer, String> insertions, boolean inOr) {
        if (terms.size() < MIN_TERMS + 2) {
            return;
        }
        List<int[]> run = new ArrayList<>();
        for (int k = 1; k < terms.size() - 1; k++) {
            int[] term = terms.get(k);
            if (PlainTerm.is(tokens, match, term[0], term[1], inOr)) {
                run.add(term);
            } else {
                nest(tokens, run, insertions);
                run = new ArrayList<>();
            }
        }
        nest(tokens, run, insertions);
    }

    /** Puts {@code run} (consecutive terms) in groups of {@link #GROUP}, and those groups in groups, and so on. */
    private static void nest(List<Token> tokens, List<int[]> run, Map<Integer, String> insertions) {
        List<int[]> items = run;
        while (items.size() >= MIN_TERMS) {
            List<int[]> groups = new ArrayList<>();
            for (int g = 0; g < items.size(); g += GROUP) {
                int[] first = items.get(g);
                int[] last = items.get(Math.min(g + GROUP, items.size()) - 1);
                insertions.merge(tokens.get(first[0]).start(), "(", (a, b) -> a + b);
                insertions.merge(tokens.get(last[1] - 1).end(), ")", (a, b) -> a + b);
                groups.add(new int[] {first[0], last[1]});
            }
            items = groups;
        }
    }

    /**
     * Two insertions at one offset as one: parentheses closed there before those opened there (a group ends at the
     * token before the offset, another starts at the token after it).
     */
    static String join(String a, String b) {
        String both = a + b;
        long closing = both.chars().filter(c -> c == ')').count();
        if (closing + both.chars().filter(c -> c == '(').count() < both.length()) {
            return both;
        }
        return ")".repeat((int) closing) + "(".repeat(both.length() - (int) closing);
    }

    private static boolean hasWord(List<Token> tokens, int[] match, int from, int to, String word) {
        for (int i = from; i < to; i++) {
            Token t = tokens.get(i);
            if (t.kind() == '(' && match[i] > i) {
                i = match[i];
            } else if (t.kind() == 'w' && t.word().equals(word)) {
                return true;
            }
        }
        return false;
    }
}
