package io.numacube.server.write;

import io.numacube.engine.schema.TableNames;
import io.numacube.server.query.ClientError;
import io.numacube.server.query.SqlLexer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code INSERT INTO table [(column, ...)] VALUES (value, ...), ...}: the rows it gives, as text. A value is a
 * literal: {@code NULL}, {@code TRUE}/{@code FALSE}, a number (signed, parenthesised as bound parameters are), a
 * {@code '...'} string, a typed string ({@code DATE '2024-01-02'}, {@code '2024-01-02'::date}, {@code CAST('1.5' AS
 * DECIMAL(9,2))}), a clock function ({@code now()}, {@code current_date}: {@link #parse(String, java.util.function.Supplier)})
 * or {@code DEFAULT} (NULL: columns have no other default); each is read later as its column's type,
 * as a CSV field is. Anything else (expressions, {@code INSERT ... SELECT}, {@code RETURNING}, {@code ON CONFLICT}) is
 * refused with 0A000. Immutable.
 *
 * @param table   the table's name, unquoted; a qualified name ({@code public.trades}) resolved by {@link TableNames}
 * @param columns the columns named, or empty for all of the table's in order
 * @param rows    per row, its values' text, null for NULL
 * @param sources per row, how each value was written, for {@link LiteralSource#check}: {@code null} for a plain string
 *     or NULL, {@link LiteralSource#BOOLEAN} for TRUE/FALSE, {@link LiteralSource#NUMBER} for a bare number, else the types it was cast to, innermost
 *     first, joined by {@link LiteralSource#SEPARATOR} (a typed string {@code DATE '...'} is a cast to DATE)
 */
public record InsertStatement(String table, List<String> columns, List<List<String>> rows, List<List<String>> sources) {

    /** Whether {@code sql} is an INSERT statement (to be parsed by {@link #parse}). */
    public static boolean isInsert(String sql) {
        return SqlLexer.normalize(sql).regionMatches(true, 0, "INSERT ", 0, 7);
    }

    /**
     * The rows of an INSERT statement.
     *
     * @throws io.numacube.numa.base.NumacubeException 42601 for bad syntax, 0A000 for INSERT forms numacube lacks, 42P01
     *     for a schema other than public
     */
    public static InsertStatement parse(String sql) {
        return parse(sql, io.numacube.engine.TableWrite::clockNow);
    }

    /**
     * As {@link #parse(String)}, its clock functions ({@code now()}, {@code transaction_timestamp()}, {@code
     * current_timestamp}, {@code localtimestamp}: a TIMESTAMP; {@code current_date}: a DATE) reading {@code clock}
     * once, when the first is met: their values are the rows' text from then on, so a block's COMMIT, a batch's
     * Sync and recovery store the value the statement read.
     */
    public static InsertStatement parse(String sql, java.util.function.Supplier<java.time.LocalDateTime> clock) {
        Tokens t = new Tokens(sql, clock);
        t.expectWord("INSERT");
        t.expectWord("INTO");
        List<String> parts = new ArrayList<>(List.of(t.name()));
        while (t.skip(".")) {
            parts.add(t.name());
        }
        String table = TableNames.resolve(parts);
        List<String> columns = new ArrayList<>();
        if (t.skip("(")) {
            do {
                columns.add(t.name());
            } while (t.skip(","));
            t.expect(")");
        }
        if (!t.skipWord("VALUES")) {
            throw unsupported("INSERT takes VALUES rows only (no INSERT ... SELECT, no DEFAULT VALUES)");
        }
        List<List<String>> rows = new ArrayList<>();
        List<List<String>> sources = new ArrayList<>();
        do {
            List<String> source = new ArrayList<>();
            rows.add(row(t, source));
            sources.add(java.util.Collections.unmodifiableList(source));
        } while (t.skip(","));
        t.skip(";");
        if (!t.atEnd()) {
            throw unsupported(
                    "INSERT ... VALUES takes nothing after its rows (no RETURNING, no ON CONFLICT): at " + t.rest());
        }
        return new InsertStatement(table, List.copyOf(columns), List.copyOf(rows), List.copyOf(sources));
    }

    private static List<String> row(Tokens t, List<String> sources) {
        t.expect("(");
        List<String> values = new ArrayList<>();
        do {
            String[] source = new String[1];
            values.add(value(t, source));
            sources.add(source[0]);
        } while (t.skip(","));
        if (!t.skip(")")) {
            throw unsupported("INSERT takes literal values only (numbers, 'text', DATE '...', NULL, TRUE, FALSE), not"
                    + " expressions: at " + t.rest());
        }
        return values;
    }

    /** A value's text; {@code source[0]} is set to how it was written (see {@link #sources}). */
    private static String value(Tokens t, String[] source) {
        if (t.skip("(")) {
            String v = value(t, source);
            t.expect(")");
            return v;
        }
        if (t.skipWord("NULL") || t.skipWord("DEFAULT")) {
            return null;
        }
        String v;
        if (t.skipWord("CAST")) {
            t.expect("(");
            v = value(t, source);
            t.expectWord("AS");
            source[0] = LiteralSource.castTo(source[0], t.typeName());
            t.expect(")");
        } else {
            v = t.literal(source);
        }
        while (t.skip("::")) {
            source[0] = LiteralSource.castTo(source[0], t.typeName());
        }
        return v;
    }

    static io.numacube.numa.base.NumacubeException unsupported(String what) {
        return ClientError.of(ClientError.NOT_SUPPORTED, what).toException();
    }

    static io.numacube.numa.base.NumacubeException syntax(String what) {
        return ClientError.of("42601", "syntax error in INSERT: " + what).toException();
    }

    /** A cursor over the statement's text, skipping whitespace and comments. */
    /** The clock functions written without parentheses. */
    private static final java.util.Set<String> CLOCK_WORDS =
            java.util.Set.of("current_timestamp", "localtimestamp", "current_date");

    private static final class Tokens {
        private final String s;
        private final java.util.function.Supplier<java.time.LocalDateTime> clock;
        private java.time.LocalDateTime read;
        private int i;

        Tokens(String s, java.util.function.Supplier<java.time.LocalDateTime> clock) {
            this.s = s;
            this.clock = clock;
        }

        /**
         * A clock function at {@code i} (word {@code w}): its value's text, {@code source[0]} its type, and {@code i}
         * past it; null for another word.
         */
        private String clockValue(String w, String[] source) {
            String name = w.toLowerCase(Locale.ROOT);
            boolean call = name.equals("now") || name.equals("transaction_timestamp");
            if (!call && !CLOCK_WORDS.contains(name)) {
                return null;
            }
            int at = i;
            i += w.length();
            boolean parens = skip("(");
            if (parens && !skip(")") || parens != call) {
                i = at;
                return null;
            }
            if (read == null) {
                read = clock.get();
            }
            boolean date = name.equals("current_date");
            source[0] = LiteralSource.castTo(null, date ? "date" : "timestamp");
            return date
                    ? read.toLocalDate().toString()
                    : io.numacube.engine.schema.Timestamps.format(
                            io.numacube.engine.schema.Timestamps.ofLocalDateTime(read));
        }

        private void space() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if ((c == '-' || c == '/') && SqlLexer.skipNonCode(s, i) > i) {
                    i = SqlLexer.skipNonCode(s, i);
                } else {
                    return;
                }
            }
        }

        boolean atEnd() {
            space();
            return i >= s.length();
        }

        String rest() {
            return s.substring(i, Math.min(s.length(), i + 40));
        }

        boolean skip(String symbol) {
            space();
            if (s.startsWith(symbol, i)) {
                i += symbol.length();
                return true;
            }
            return false;
        }

        void expect(String symbol) {
            if (!skip(symbol)) {
                throw syntax("expected " + symbol + " at " + (atEnd() ? "the end" : rest()));
            }
        }

        private String word() {
            space();
            int j = i;
            while (j < s.length() && SqlLexer.identifierAt(s, j) && s.charAt(j) != '$') {
                j++;
            }
            return s.substring(i, j);
        }

        boolean skipWord(String w) {
            String x = word();
            if (x.equalsIgnoreCase(w)) {
                i += x.length();
                return true;
            }
            return false;
        }

        void expectWord(String w) {
            if (!skipWord(w)) {
                throw syntax("expected " + w + " at " + (atEnd() ? "the end" : rest()));
            }
        }

        /** An identifier, unquoted ({@code "Quoted"} keeps its case; a bare one is folded to lower case). */
        String name() {
            space();
            if (i < s.length() && s.charAt(i) == '"') {
                int end = SqlLexer.skipNonCode(s, i);
                String q = s.substring(i + 1, end - 1).replace("\"\"", "\"");
                i = end;
                return q;
            }
            String w = word();
            if (w.isEmpty() || Character.isDigit(w.charAt(0))) {
                throw syntax("expected a name at " + (atEnd() ? "the end" : rest()));
            }
            i += w.length();
            return w.toLowerCase(Locale.ROOT);
        }

        /** A type name, with its words and (precision, scale): its text. */
        String typeName() {
            space();
            int from = i;
            name();
            for (String w = word(); !w.isEmpty() && Character.isLetter(w.charAt(0)); w = word()) {
                i += w.length();
            }
            if (skip("(")) {
                while (!skip(")")) {
                    if (atEnd()) {
                        throw syntax("a type's ( is not closed");
                    }
                    i++;
                }
            }
            return s.substring(from, i);
        }

        /** A number, a string, TRUE/FALSE, or a typed string such as DATE '2024-01-02'. */
        String literal(String[] source) {
            space();
            if (i >= s.length()) {
                throw syntax("expected a value at the end");
            }
            char c = s.charAt(i);
            if (c == '\'') {
                return string();
            }
            if (c == '-' || c == '+' || c == '.' || Character.isDigit(c)) {
                source[0] = LiteralSource.NUMBER;
                return number();
            }
            String w = word();
            if (w.equalsIgnoreCase("TRUE") || w.equalsIgnoreCase("FALSE")) {
                i += w.length();
                source[0] = LiteralSource.BOOLEAN;
                return w.toLowerCase(Locale.ROOT);
            }
            String clocked = clockValue(w, source);
            if (clocked != null) {
                return clocked;
            }
            if (!w.isEmpty() && Character.isLetter(w.charAt(0))) {
                int at = i;
                i += w.length();
                space();
                if (i < s.length() && s.charAt(i) == '\'') {
                    source[0] = LiteralSource.castTo(null, w);
                    return string();
                }
                i = at;
            }
            throw unsupported(
                    "INSERT takes literal values only (numbers, 'text', DATE '...', NULL, TRUE, FALSE): at " + rest());
        }

        private String string() {
            int end = SqlLexer.skipNonCode(s, i);
            if (end <= i + 1 || s.charAt(end - 1) != '\'') {
                throw syntax("a string is not closed");
            }
            String v = s.substring(i + 1, end - 1).replace("''", "'");
            i = end;
            return v;
        }

        private String number() {
            int j = i;
            if (s.charAt(j) == '-' || s.charAt(j) == '+') {
                j++;
                while (j < s.length() && Character.isWhitespace(s.charAt(j))) {
                    j++;
                }
            }
            int digits = j;
            while (j < s.length()
                    && (Character.isLetterOrDigit(s.charAt(j))
                            || s.charAt(j) == '.'
                            || ((s.charAt(j) == '-' || s.charAt(j) == '+')
                                    && (s.charAt(j - 1) == 'e' || s.charAt(j - 1) == 'E')))) {
                j++;
            }
            if (j == digits) {
                throw syntax("expected a value at " + rest());
            }
            String v = (s.charAt(i) == '-' ? "-" : "") + s.substring(digits, j);
            i = j;
            return v;
        }
    }
}
