package io.numacube.server.query;

import java.util.ArrayList;
import java.util.List;

/**
 * A statement with parameter markers {@code $1 .. $n} (outside strings, quoted identifiers and comments, as
 * PostgreSQL's lexer finds them), and their substitution by SQL literals: the engine has no parameter binding, so a
 * bound statement is its text with each marker replaced by a literal made from the value ({@link SqlLiteral}, or the
 * PostgreSQL protocol's typed reading of a value), and never by the value's raw text. Positions in the substituted
 * text map back to the original, so an error points at what the client wrote. Both front ends bind through it: the
 * PostgreSQL protocol's Bind, and HTTP's {@code "params"} ({@link #bind}). Immutable.
 */
public final class ParameterizedSql {

    /** A marker: where it is in the text and which parameter (1-based) it names. */
    private record Marker(int start, int end, int number) {}

    private final String sql;
    private final List<Marker> markers;
    private final int parameterCount;

    private ParameterizedSql(String sql, List<Marker> markers) {
        this.sql = sql;
        this.markers = List.copyOf(markers);
        this.parameterCount = markers.stream().mapToInt(Marker::number).max().orElse(0);
    }

    /**
     * @throws io.numacube.numa.base.NumacubeException 42P02 for {@code $0} or a number too large to be a parameter,
     *     with its position
     */
    public static ParameterizedSql parse(String sql) {
        List<Marker> markers = new ArrayList<>();
        int i = 0;
        while (i < sql.length()) {
            int j = SqlLexer.skipNonCode(sql, i);
            if (j > i) {
                i = j;
                continue;
            }
            if (sql.charAt(i) == '$'
                    && !SqlLexer.identifierAt(sql, i - 1)
                    && i + 1 < sql.length()
                    && Character.isDigit(sql.charAt(i + 1))) {
                int end = i + 1;
                while (end < sql.length() && Character.isDigit(sql.charAt(end))) {
                    end++;
                }
                markers.add(new Marker(i, end, number(sql, i, end)));
                i = end;
                continue;
            }
            i++;
        }
        return new ParameterizedSql(sql, markers);
    }

    /**
     * The word right before the first marker of parameter {@code number} (1-based), upper-cased, blanks between
     * skipped: {@code LIMIT} for {@code LIMIT $1}; empty when a symbol or nothing comes before it, or no marker has the
     * number.
     */
    public String wordBefore(int number) {
        for (Marker m : markers) {
            if (m.number() == number) {
                int end = m.start();
                while (end > 0 && Character.isWhitespace(sql.charAt(end - 1))) {
                    end--;
                }
                int start = end;
                while (start > 0 && Character.isLetter(sql.charAt(start - 1))) {
                    start--;
                }
                return sql.substring(start, end).toUpperCase(java.util.Locale.ROOT);
            }
        }
        return "";
    }

    private static int number(String sql, int start, int end) {
        String digits = sql.substring(start + 1, end);
        try {
            int n = Integer.parseInt(digits);
            if (n >= 1 && n <= 65_535) {
                return n;
            }
        } catch (NumberFormatException e) {
            // too long: refused below
        }
        throw noParameter(sql, start, digits);
    }

    private static RuntimeException noParameter(String sql, int at, String number) {
        return new ClientError("42P02", "there is no parameter $" + number, SqlPositions.lineAndColumn(sql, at))
                .toException();
    }

    public String sql() {
        return sql;
    }

    /** The highest parameter number used: the count a statement declares at least. */
    public int parameterCount() {
        return parameterCount;
    }

    /**
     * The text with {@code literals} in place of its markers, as a Bind without declared types binds them: value
     * {@code i} (0-based) stands for {@code $(i+1)}. Fewer values than the distinct parameters the text names, or more
     * than the highest, is PostgreSQL's 08P01 "bind message supplies ..."; enough values but a marker beyond them
     * ({@code $3} with two) is 42P02 at that marker.
     */
    public Substituted bind(List<String> literals) {
        long distinct = markers.stream().mapToInt(Marker::number).distinct().count();
        if (literals.size() < distinct || literals.size() > parameterCount) {
            throw ClientError.of(
                            ClientError.PROTOCOL_VIOLATION,
                            "bind message supplies " + literals.size() + " parameters, but prepared statement requires "
                                    + parameterCount)
                    .toException();
        }
        return substitute(literals);
    }

    /**
     * The text with every marker replaced by its literal; a space follows a literal that would otherwise touch an
     * identifier character.
     */
    public Substituted substitute(List<String> literals) {
        StringBuilder out = new StringBuilder(sql.length() + 16 * markers.size());
        List<int[]> shifts = new ArrayList<>();
        int from = 0;
        for (Marker m : markers) {
            if (m.number() > literals.size()) {
                throw noParameter(sql, m.start(), String.valueOf(m.number()));
            }
            out.append(sql, from, m.start());
            String lit = literals.get(m.number() - 1);
            if (SqlLexer.identifierAt(sql, m.end()) || (m.end() < sql.length() && sql.charAt(m.end()) == '\'')) {
                lit += " ";
            }
            shifts.add(new int[] {out.length(), m.start(), lit.length(), m.end() - m.start()});
            out.append(lit);
            from = m.end();
        }
        out.append(sql, from, sql.length());
        return new Substituted(out.toString(), shifts);
    }

    /**
     * A bound statement's text and how to map an index in it back to the client's text. Immutable.
     *
     * @param sql    the text with literals in place of markers
     * @param shifts per substitution: index in {@code sql}, index in the original, literal length (with its
     *               padding space), marker length
     */
    public record Substituted(String sql, List<int[]> shifts) {

        /** The index in the client's text of index {@code at} of the substituted text. */
        public int originalIndex(int at) {
            int delta = 0;
            for (int[] s : shifts) {
                if (at < s[0]) {
                    break;
                }
                if (at < s[0] + s[2]) {
                    return s[1];
                }
                delta = s[1] + s[3] - (s[0] + s[2]);
            }
            return at + delta;
        }
    }
}
