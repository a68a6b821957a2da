package io.numacube.server.write;

import io.numacube.engine.Cube;
import io.numacube.server.query.SqlLexer;
import java.util.Optional;

/**
 * Finds where an UPDATE or DELETE reads the clock: the functions the engine reads once per statement, when it parses
 * it ({@link Cube#isClockFunction}: {@code now()}, {@code current_timestamp}, {@code current_date}, {@code localtimestamp}, their synonyms), written
 * as unquoted names outside strings and comments and not after a dot (a column {@code t.today} is not the clock), as
 * the engine recognises them. A durable server logs such a statement as its text and replays it at recovery, when the
 * clock reads later, so it would bring the rows back otherwise than they were acknowledged. Stateless.
 */
final class ClockReads {

    private ClockReads() {}

    /** The first clock function {@code sql} reads, as written there; empty when it reads none. */
    static Optional<String> firstIn(String sql) {
        String code = SqlLexer.codeOnly(sql);
        int i = 0;
        while (i < code.length()) {
            char c = code.charAt(i);
            if (c == '"') {
                int close = code.indexOf('"', i + 1);
                i = close < 0 ? code.length() : close + 1;
                continue;
            }
            if (!SqlLexer.identifierAt(code, i)) {
                i++;
                continue;
            }
            int end = i;
            while (SqlLexer.identifierAt(code, end)) {
                end++;
            }
            String word = code.substring(i, end);
            if (Cube.isClockFunction(word) && !afterDot(code, i)) {
                return Optional.of(word);
            }
            i = end;
        }
        return Optional.empty();
    }

    private static boolean afterDot(String code, int at) {
        int j = at - 1;
        while (j >= 0 && Character.isWhitespace(code.charAt(j))) {
            j--;
        }
        return j >= 0 && code.charAt(j) == '.';
    }
}
