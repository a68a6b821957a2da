package io.numacube.server.pgwire;

import io.numacube.server.pgwire.types.FixedRows;
import io.numacube.server.pgwire.types.PgColumn;
import io.numacube.server.pgwire.types.PgType;
import io.numacube.server.pgwire.types.RowWindow;
import io.numacube.server.query.ClientError;
import io.numacube.server.query.ParameterizedSql;
import io.numacube.server.query.SqlLexer;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SQL cursors as PostgreSQL has them, as psycopg's named cursors use them: {@code DECLARE name [ASENSITIVE |
 * INSENSITIVE] [[NO] SCROLL] CURSOR [{WITH | WITHOUT} HOLD] FOR query}, {@code FETCH} and {@code MOVE} forward
 * ({@code NEXT}, {@code [FORWARD] n}, {@code [FORWARD] ALL}, {@code FROM} or {@code IN} the name), {@code CLOSE name
 * | ALL}, and psycopg's {@code SELECT 1 FROM pg_catalog.pg_cursors WHERE name = '...'}, with PostgreSQL's tags and
 * SQLSTATEs. A cursor is a {@link Session.Portal} (one namespace with the extended protocol's portals, as in
 * PostgreSQL: FETCH reads a bound portal, Execute a cursor). DECLARE runs the query at once and the portal keeps its
 * whole answer (the engine's result, not a copy) until the cursor is closed; a FETCH sends a window of it. Backward
 * and absolute moves are refused: 55000 on a NO SCROLL cursor, as PostgreSQL, 0A000 on another. Stateless; acts on
 * the {@link Session} given.
 */
final class Cursors {

    private static final String NAME = "(\"(?:[^\"]++|\"\")+\"|[A-Za-z_][\\w$]*+)";
    /** Blanks and comments between words: a DECLARE is read as the client wrote it, for positions in its query. */
    private static final String BLANK = "\\s++|/\\*(?:[^*]++|\\*(?!/))*+\\*/|--[^\\n]*+\\n";

    private static final String GAP = "(?:" + BLANK + ")++";
    private static final Pattern DECLARE = Pattern.compile("(?is)(?:" + BLANK + ")*+DECLARE" + GAP + NAME
            + "((?:" + GAP + "(?:BINARY|ASENSITIVE|INSENSITIVE|NO" + GAP + "SCROLL|SCROLL))*+)" + GAP
            + "CURSOR(?:" + GAP + "(WITH|WITHOUT)" + GAP + "HOLD)?" + GAP + "FOR" + GAP + "(\\S.*)");
    private static final Pattern FETCH = Pattern.compile("(?i)(FETCH|MOVE)(?: (NEXT|PRIOR|FIRST|LAST"
            + "|(?:ABSOLUTE|RELATIVE) [+-]?\\d++|(?:FORWARD|BACKWARD)(?: (?:[+-]?\\d++|ALL))?|[+-]?\\d++|ALL))?"
            + "(?: (?:FROM|IN))? " + NAME);
    private static final Pattern CLOSE = Pattern.compile("(?i)CLOSE (ALL|" + NAME + ")");
    private static final Pattern PG_CURSORS =
            Pattern.compile("(?i)SELECT 1 FROM (?:pg_catalog\\.)?pg_cursors WHERE name ?= ?'((?:[^']++|'')*)'");
    private static final Pattern FIRST_WORD = Pattern.compile("^\\(*\\s*([A-Za-z]+)");
    private static final long ALL = Long.MAX_VALUE;

    private Cursors() {}

    /** Whether {@code sql} is DECLARE, FETCH, MOVE, CLOSE or psycopg's look-up in pg_cursors. */
    static boolean isCursorStatement(String sql) {
        String s = SqlLexer.normalize(sql);
        Matcher first = FIRST_WORD.matcher(s);
        String word = first.find() ? first.group(1).toUpperCase(Locale.ROOT) : "";
        return switch (word) {
            case "DECLARE", "FETCH", "MOVE", "CLOSE" -> true;
            default -> PG_CURSORS.matcher(s).matches();
        };
    }

    /**
     * The query a DECLARE declares a cursor for, as a statement of the DECLARE's length whose text before the query is
     * a comment (so that positions in it are positions in the DECLARE); empty for another statement.
     */
    static Optional<String> declaredQuery(String sql) {
        Matcher m = DECLARE.matcher(sql);
        if (!m.matches()) {
            String s = SqlLexer.normalize(sql);
            m = DECLARE.matcher(s);
            if (!m.matches()) {
                return Optional.empty();
            }
            sql = s;
        }
        // a comment, not blanks: the engine strips leading blanks and would count its positions from the query
        StringBuilder blank = new StringBuilder(sql.length()).append("/*");
        for (int i = 2; i < m.start(4) - 2; i++) {
            char c = sql.charAt(i);
            blank.append(c == '\n' || c == '\r' ? c : ' ');
        }
        return Optional.of(
                blank.append("*/").append(sql, m.start(4), sql.length()).toString());
    }

    /**
     * The columns {@code sql} returns when it is a cursor statement, without running it: a FETCH its cursor's, the
     * others none; empty for another statement.
     */
    static Optional<List<PgColumn>> describe(String sql, Session session) {
        if (!isCursorStatement(sql)) {
            return Optional.empty();
        }
        String s = SqlLexer.normalize(sql);
        Matcher m = FETCH.matcher(s);
        if (m.matches() && m.group(1).equalsIgnoreCase("FETCH")) {
            // a cursor that does not exist (yet) is described as no rows and refused at Execute, as in PostgreSQL
            Session.Portal p = session.portals.get(name(m.group(3)));
            return Optional.of(
                    p == null || p.outcome == null || p.outcome.rows() == null
                            ? List.of()
                            : p.outcome.rows().columns());
        }
        if (PG_CURSORS.matcher(s).matches()) {
            return Optional.of(List.of(PgColumn.of("?column?", PgType.INT4)));
        }
        return Optional.of(List.of());
    }

    /**
     * Runs {@code sql} if it is a cursor statement.
     *
     * @param query runs a cursor's query (a SELECT) and gives its outcome
     * @return the outcome, or empty when it is not one
     */
    static Optional<Outcome> run(String sql, Session session, Function<String, Outcome> query) {
        if (!isCursorStatement(sql)) {
            return Optional.empty();
        }
        String s = SqlLexer.normalize(sql);
        Matcher m;
        if ((m = FETCH.matcher(s)).matches()) {
            return Optional.of(fetch(m, session));
        }
        if ((m = CLOSE.matcher(s)).matches()) {
            return Optional.of(close(m.group(1), session));
        }
        if ((m = PG_CURSORS.matcher(s)).matches()) {
            List<Object[]> rows = session.portals.containsKey(m.group(1).replace("''", "'"))
                    ? List.<Object[]>of(new Object[] {1L})
                    : List.of();
            return Optional.of(Outcome.rows(new FixedRows(List.of(PgColumn.of("?column?", PgType.INT4)), rows)));
        }
        return Optional.of(declare(sql, session, query));
    }

    private static Outcome declare(String sql, Session session, Function<String, Outcome> query) {
        Matcher m = DECLARE.matcher(SqlLexer.normalize(sql));
        String inner = declaredQuery(sql).orElse(null);
        if (inner == null || !m.matches()) {
            throw syntaxError(SqlLexer.normalize(sql));
        }
        String options = m.group(2).toUpperCase(Locale.ROOT);
        if (options.contains("BINARY")) {
            throw new PgProtocolException(
                    ClientError.NOT_SUPPORTED,
                    "BINARY cursors are not supported by numacube — declare the cursor without BINARY and ask for"
                            + " binary results in the extended protocol's Bind");
        }
        boolean hold = "WITH".equalsIgnoreCase(m.group(3));
        if (!hold && !session.inTransactionBlock()) {
            throw new PgProtocolException("25P01", "DECLARE CURSOR can only be used in transaction blocks");
        }
        String name = name(m.group(1));
        if (session.portals.containsKey(name)) {
            throw new PgProtocolException("42P03", "cursor \"" + name + "\" already exists");
        }
        Matcher first = FIRST_WORD.matcher(m.group(4));
        String word = first.find() ? first.group(1).toUpperCase(Locale.ROOT) : "";
        if (!List.of("SELECT", "WITH", "VALUES", "TABLE").contains(word)) {
            throw syntaxError(m.group(4));
        }
        Outcome answer = query.apply(inner);
        session.checkHeldRows(answer.rows() == null ? 0 : answer.rows().rowCount());
        Session.Portal p = new Session.Portal(
                name,
                new ParameterizedSql.Substituted(inner, List.of()),
                null,
                new short[0],
                new Session.DescribedResult());
        p.outcome = answer;
        p.holdable = hold;
        p.noScroll = options.contains("NO");
        session.open(p);
        return Outcome.command("DECLARE CURSOR");
    }

    private static PgProtocolException syntaxError(String at) {
        String[] words = at.strip().split("\\s+", 2);
        return new PgProtocolException("42601", "syntax error at or near \"" + words[0] + "\"");
    }

    private static Outcome fetch(Matcher m, Session session) {
        boolean fetch = m.group(1).equalsIgnoreCase("FETCH");
        Session.Portal p = cursor(session, name(m.group(3)));
        long count = forwardCount(m.group(2) == null ? "NEXT" : m.group(2).toUpperCase(Locale.ROOT), p);
        Outcome o = rowsOf(p);
        int from = p.rowsSent;
        int n = (int) Math.min(count, o.rows().rowCount() - (long) from);
        p.rowsSent = from + n;
        return fetch ? Outcome.fetched(new RowWindow(o.rows(), from, n)) : Outcome.command("MOVE " + n);
    }

    /**
     * How many rows {@code direction} moves forward.
     *
     * @throws PgProtocolException 55000 for a backward move of a NO SCROLL cursor (as PostgreSQL), 0A000 for another
     *     move that is not forward by at least one row, 42601 for a count out of range
     */
    private static long forwardCount(String direction, Session.Portal p) {
        String d = direction.startsWith("FORWARD")
                ? direction.substring("FORWARD".length()).strip()
                : direction;
        if (d.isEmpty() || d.equals("NEXT")) {
            return 1;
        }
        if (d.equals("ALL")) {
            return ALL;
        }
        long count = d.matches("[+-]?\\d++") ? count(d) : 0;
        if (count > 0) {
            return count;
        }
        boolean backward = count < 0 || d.equals("PRIOR") || d.startsWith("BACKWARD");
        if (backward && p.noScroll) {
            throw new PgProtocolException(
                    "55000", "cursor can only scan forward — declare it with SCROLL option to enable backward scan");
        }
        throw new PgProtocolException(
                ClientError.NOT_SUPPORTED,
                "numacube's cursors move forward only: FETCH or MOVE NEXT, [FORWARD] n with n >= 1, or [FORWARD] ALL;"
                        + " not " + direction);
    }

    private static long count(String digits) {
        try {
            return Integer.parseInt(digits.startsWith("+") ? digits.substring(1) : digits);
        } catch (NumberFormatException e) {
            throw new PgProtocolException("42601", "syntax error at or near \"" + digits + "\"");
        }
    }

    private static Outcome close(String what, Session session) {
        if (what.equalsIgnoreCase("ALL")) {
            session.portals.clear();
            return Outcome.command("CLOSE CURSOR ALL");
        }
        String name = name(what);
        if (session.portals.remove(name) == null) {
            throw notFound(name);
        }
        return Outcome.command("CLOSE CURSOR");
    }

    private static Session.Portal cursor(Session session, String name) {
        Session.Portal p = session.portals.get(name);
        if (p == null) {
            throw notFound(name);
        }
        return p;
    }

    /** The rows of a portal's answer; a portal not run yet, or without rows, cannot be fetched from. */
    private static Outcome rowsOf(Session.Portal p) {
        if (p.outcome == null || p.outcome.rows() == null) {
            throw new PgProtocolException(
                    "55000", "portal \"" + p.name + "\" cannot be fetched from: it has no rows to read (yet)");
        }
        return p.outcome;
    }

    private static PgProtocolException notFound(String name) {
        return new PgProtocolException("34000", "cursor \"" + name + "\" does not exist");
    }

    /** A cursor's name as PostgreSQL folds it: a quoted one as written, another in lower case. */
    private static String name(String written) {
        return written.startsWith("\"")
                ? written.substring(1, written.length() - 1).replace("\"\"", "\"")
                : written.toLowerCase(Locale.ROOT);
    }
}
