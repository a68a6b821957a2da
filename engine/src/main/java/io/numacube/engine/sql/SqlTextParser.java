package io.numacube.engine.sql;

import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;
import java.util.function.Supplier;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * SQL text to Calcite syntax tree: the parser's configuration (Calcite's Babel parser under its BABEL conformance,
 * so that words DuckDB takes as plain column names — month, year, day, hour, value, type... — work unquoted;
 * identifiers kept as written and matched case-insensitively; double-quoted identifiers), a hint for the few words
 * Babel still reserves (date, time, timestamp: quote them), the parenthesis-depth guard that runs before
 * the parser, the translation of parse failures into SYNTAX errors with their position, and the big-stack thread that
 * long texts are parsed and bound on.
 *
 * <p>Thread-safe. Keeps the trees of the query texts parsed again and again ({@link ParsedStatements}).
 */
final class SqlTextParser {

    private static final SqlParser.Config PARSER = SqlParser.config()
            .withUnquotedCasing(Casing.UNCHANGED)
            .withQuotedCasing(Casing.UNCHANGED)
            .withQuoting(Quoting.DOUBLE_QUOTE)
            .withCaseSensitive(false)
            .withConformance(SqlConformanceEnum.BABEL)
            .withParserFactory(SqlBabelParserImpl.FACTORY);

    /** Parenthesis nesting accepted before parsing: the parser recurses per level and would overflow its stack. */
    static final int MAX_PARENS = 1000;

    /** Text longer than this is parsed and bound on a thread with {@link #BIG_STACK_BYTES} of stack: the parser
     * recurses per nesting level, and a long text can nest deeper than a default stack holds before the binder's
     * depth bound can report it with its position. */
    static final int BIG_STACK_TEXT = 2048;

    private static final long BIG_STACK_BYTES = 256L << 20;

    private SqlTextParser() {}

    /**
     * Parses one query (a trailing semicolon is allowed), its clock functions read once ({@link StatementClock}, in
     * the JVM's time zone), empty grouping sets dropped ({@link EmptyGroupingSets}).
     */
    static SqlNode parse(String sql) {
        return parse(sql, StatementClock.wallClockNow());
    }

    /**
     * As {@link #parse(String)}, its clock functions reading {@code wallClock}. The clock is applied to the caller's
     * copy of the tree, after {@link ParsedStatements}, so statements of one text with different clocks share one
     * kept tree and never each other's instant.
     */
    static SqlNode parse(String sql, java.time.LocalDateTime wallClock) {
        StatementClock clock = StatementClock.at(wallClock);
        return clock.replaceIn(PARSED.parse(sql, text -> EmptyGroupingSets.drop(parse(text, false))));
    }

    /** As {@link #parse(String)}, with the clock functions left in place (for {@link ZonedClockResults}). */
    static SqlNode parseUnclocked(String sql) {
        return PARSED.parse(sql, text -> EmptyGroupingSets.drop(parse(text, false)));
    }

    /** The query texts parsed last, whose trees {@link #parse} copies instead of parsing them again. */
    private static final ParsedStatements PARSED = new ParsedStatements();

    /** Parses one statement, a query or a DML statement such as UPDATE (a trailing semicolon is allowed), as {@link
     * #parse}, its clock functions reading {@code wallClock}. */
    static SqlNode parseStatement(String sql, java.time.LocalDateTime wallClock) {
        return StatementClock.at(wallClock).replaceIn(EmptyGroupingSets.drop(parse(sql, true)));
    }

    private static SqlNode parse(String sql, boolean statement) {
        if (sql == null || sql.isBlank()) {
            throw new NumacubeException(NumacubeException.Kind.SYNTAX, "SQL text is empty — write a SELECT query");
        }
        String text = sql.strip();
        while (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).stripTrailing();
        }
        checkParens(text);
        refuseDoubleSlash(text);
        EscapedStringLiterals.refuseMisread(text);
        InsertedText edited = edits(text, statement);
        try {
            if (edited != null) {
                SqlParser parser = SqlParser.create(edited.text(), PARSER);
                SqlNode tree = statement ? parser.parseStmt() : parser.parseQuery();
                return UnsupportedClauses.refuse(GroupByAll.expand(SelectWithoutFrom.dropPlaceholders(
                        edited.restore(NegativeZeroLiterals.restore(tree, edited.text())))));
            }
            SqlParser parser = SqlParser.create(text, PARSER);
            SqlNode tree = statement ? parser.parseStmt() : parser.parseQuery();
            return UnsupportedClauses.refuse(GroupByAll.expand(NegativeZeroLiterals.restore(tree, text)));
        } catch (SqlParseException e) {
            SqlParserPos pos = edited == null ? e.getPos() : edited.original(e.getPos());
            String why = edited == null ? reason(e) : userColumns(reason(e), edited);
            if (isDistinctOn(text, pos)) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "0A000",
                        "unsupported SQL: SELECT DISTINCT ON (...) — numacube has no DISTINCT ON (PostgreSQL's first row"
                                + " of each group); SELECT DISTINCT and GROUP BY are answered",
                        ErrorPosition.sql(pos.getLineNum(), pos.getColumnNum()),
                        e);
            }
            throw new NumacubeException(
                    NumacubeException.Kind.SYNTAX,
                    "42601",
                    "SQL does not parse: " + why + reservedWordHint(text, pos),
                    pos == null || pos.getLineNum() < 1
                            ? null
                            : ErrorPosition.sql(pos.getLineNum(), pos.getColumnNum()),
                    e);
        } catch (StackOverflowError e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "54001",
                    "SQL is nested too deeply to parse — simplify the expression",
                    null,
                    null);
        }
    }

    /**
     * The text with what Calcite's grammar needs inserted, or null when it needs nothing: a placeholder FROM before the
     * WHERE, GROUP BY or HAVING of a SELECT without FROM (of a query: {@link SelectWithoutFrom}), and parentheses
     * around each infix cast, so that {@code ::} binds as in PostgreSQL ({@link InfixCasts}), and around groups of the
     * terms of a long AND or OR chain, so that the parser's time is not quadratic in them ({@link LongChains}), and a
     * placeholder after {@code GROUP BY ALL} ({@link GroupByAll}).
     */
    private static InsertedText edits(String text, boolean statement) {
        java.util.Map<Integer, String> insertions = new java.util.TreeMap<>(InfixCasts.parentheses(text));
        LongChains.parentheses(text).forEach((offset, parens) -> insertions.merge(offset, parens, LongChains::join));
        GroupByAll.placeholders(text).forEach((offset, name) -> insertions.merge(offset, name, (a, b) -> a + b));
        if (!statement) {
            for (int offset : SelectWithoutFrom.clauseOffsets(text)) {
                insertions.merge(offset, SelectWithoutFrom.INSERTED, (a, b) -> a + b);
            }
        }
        return insertions.isEmpty() ? null : InsertedText.of(text, insertions);
    }

    private static final java.util.regex.Pattern LINE_COLUMN =
            java.util.regex.Pattern.compile("line (\\d+), column (\\d+)");

    /** The parser's {@code reason} with each "line L, column C" it names moved back to the user's text. */
    private static String userColumns(String reason, InsertedText edited) {
        return LINE_COLUMN.matcher(reason).replaceAll(m -> {
            int line = Integer.parseInt(m.group(1));
            return "line " + line + ", column " + edited.column(line, Integer.parseInt(m.group(2)));
        });
    }

    /** Runs {@code work} on a fresh thread with {@link #BIG_STACK_BYTES} of stack and waits for it; its
     * RuntimeException or Error is rethrown here. */
    static <T> T onBigStack(Supplier<T> work) {
        Object[] out = new Object[1];
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(
                null,
                () -> {
                    try {
                        out[0] = work.get();
                    } catch (Throwable e) {
                        failure[0] = e;
                    }
                },
                "numacube-sql-parse",
                BIG_STACK_BYTES);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NumacubeException(NumacubeException.Kind.INTERNAL, "interrupted while parsing SQL", e);
        }
        if (failure[0] instanceof RuntimeException re) {
            throw re;
        }
        if (failure[0] instanceof Error err) {
            throw err;
        }
        @SuppressWarnings("unchecked")
        T result = (T) out[0];
        return result;
    }

    /** The first non-blank line of the parser's message, else of its causes; never empty. */
    /**
     * Words DuckDB takes as column names unquoted that Calcite's Babel parser still reserves: a parse error at one of
     * them says how to quote it.
     */
    private static final java.util.Set<String> RESERVED_COLUMN_WORDS =
            java.util.Set.of("date", "time", "timestamp", "interval", "user", "current_date", "current_time");

    /**
     * Whether the parse failed at the {@code ON} of PostgreSQL's {@code SELECT DISTINCT ON (...)}, which Calcite's
     * grammar does not have (it said {@code Incorrect syntax near the keyword 'ON'}, as if the query were mistyped).
     */
    static boolean isDistinctOn(String text, SqlParserPos pos) {
        if (pos == null || pos.getLineNum() < 1) {
            return false;
        }
        String[] lines = text.split("\n", -1);
        if (pos.getLineNum() > lines.length) {
            return false;
        }
        String line = lines[pos.getLineNum() - 1];
        int at = pos.getColumnNum() - 1;
        if (at < 0 || !line.regionMatches(true, at, "ON", 0, 2)) {
            return false;
        }
        StringBuilder before = new StringBuilder();
        for (int i = 0; i < pos.getLineNum() - 1; i++) {
            before.append(lines[i]).append(' ');
        }
        before.append(line, 0, at);
        return before.toString()
                .stripTrailing()
                .toUpperCase(java.util.Locale.ROOT)
                .endsWith("DISTINCT");
    }

    /** A hint when the failing token is one of {@link #RESERVED_COLUMN_WORDS}; else empty. */
    static String reservedWordHint(String text, SqlParserPos pos) {
        if (pos == null || pos.getLineNum() < 1) {
            return "";
        }
        String[] lines = text.split("\n", -1);
        if (pos.getLineNum() > lines.length) {
            return "";
        }
        String line = lines[pos.getLineNum() - 1];
        int from = pos.getColumnNum() - 1;
        int to = from;
        while (to < line.length() && (Character.isLetterOrDigit(line.charAt(to)) || line.charAt(to) == '_')) {
            to++;
        }
        String word = from >= 0 && from < to ? line.substring(from, to) : "";
        return RESERVED_COLUMN_WORDS.contains(word.toLowerCase(java.util.Locale.ROOT))
                ? " — " + word + " is a reserved word in numacube's SQL; to use it as a column name, quote it: \""
                        + word + "\""
                : "";
    }

    private static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StackOverflowError) {
                return "nested too deeply";
            }
            String m = t.getMessage();
            if (m != null && !m.isBlank()) {
                return m.lines()
                        .filter(l -> !l.isBlank())
                        .findFirst()
                        .orElse("")
                        .strip();
            }
        }
        return e.getClass().getSimpleName();
    }

    /**
     * Refuses {@code //} outside literals, quoted names and comments: DuckDB's integer division, which numacube does not
     * have, and which Calcite's parser would read as the start of a comment, answering {@code SELECT k // 2 AS half}
     * with k (PostgreSQL has no {@code //} either).
     */
    private static void refuseDoubleSlash(String text) {
        int line = 1;
        int col = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            col++;
            if (c == '\n') {
                line++;
                col = 0;
            } else if (c == '\'' || c == '"') {
                int close = text.indexOf(c, i + 1);
                while (close > 0 && close + 1 < n && text.charAt(close + 1) == c) {
                    close = text.indexOf(c, close + 2);
                }
                int end = close < 0 ? n - 1 : close;
                for (int j = i + 1; j <= end; j++) {
                    col = text.charAt(j) == '\n' ? 0 : col + 1;
                    line += text.charAt(j) == '\n' ? 1 : 0;
                }
                i = end;
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int eol = text.indexOf('\n', i);
                i = eol < 0 ? n : eol - 1;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int close = text.indexOf("*/", i + 2);
                int end = close < 0 ? n - 1 : close + 1;
                for (int j = i + 1; j <= end; j++) {
                    col = text.charAt(j) == '\n' ? 0 : col + 1;
                    line += text.charAt(j) == '\n' ? 1 : 0;
                }
                i = end;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "0A000",
                        "unsupported SQL: // (DuckDB's integer division) — numacube has no integer division operator;"
                                + " / divides as DuckDB's / does",
                        ErrorPosition.sql(line, col),
                        null);
            }
        }
    }

    /** Refuses more than {@link #MAX_PARENS} nested parentheses (outside quotes), naming the position. */
    private static void checkParens(String text) {
        int depth = 0;
        int line = 1;
        int col = 0;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            col++;
            if (c == '\n') {
                line++;
                col = 0;
            } else if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '(' && ++depth > MAX_PARENS) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "54001",
                        "SQL nests parentheses too deeply: more than " + MAX_PARENS + " levels",
                        ErrorPosition.sql(line, col),
                        null);
            } else if (c == ')') {
                depth--;
            }
        }
    }
}
