package io.numacube.engine.sqltest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a {@code .test} file into {@link SqlTestRecord}s (format: engine/src/test/sql/README.md). Records are blocks
 * of lines separated by blank lines; {@code #} lines before and inside a record's directive and SQL are comments.
 * Anything that does not fit the format is a {@link SqlTestParseException} naming {@code file:line}. Stateless.
 */
final class SqlTestParser {

    /** The option names {@code option NAME=VALUE} accepts (see {@link SqlTestSession}). */
    static final Set<String> OPTIONS =
            Set.of("threads", "nodes", "morsel_rows", "placement", "partitioning", "stealing");

    private static final String RESULT_SEPARATOR = "----";

    private SqlTestParser() {}

    /** Parses {@code file}, a file below {@code root}. */
    static SqlTestFile parse(Path root, Path file) {
        String name = root.relativize(file).toString().replace('\\', '/');
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": cannot read the test file", e);
        }
        return new SqlTestFile(root, name, parse(name, lines));
    }

    /** Parses the lines of the file named {@code name}. */
    static List<SqlTestRecord> parse(String name, List<String> lines) {
        List<SqlTestRecord> records = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            if (lines.get(i).isBlank() || isComment(lines.get(i))) {
                i++;
                continue;
            }
            int end = i;
            while (end < lines.size() && !lines.get(end).isBlank()) {
                end++;
            }
            new Block(name, lines, i, end).parseInto(records);
            i = end;
        }
        return records;
    }

    private static boolean isComment(String line) {
        return line.stripLeading().startsWith("#");
    }

    /** The lines {@code [start, end)} of one record; {@code start} is the directive line. */
    private record Block(String file, List<String> lines, int start, int end) {

        private SqlTestParseException error(int index, String problem) {
            return new SqlTestParseException(file, index + 1, problem);
        }

        private String[] words(int index) {
            return lines.get(index).strip().split("\\s+");
        }

        void parseInto(List<SqlTestRecord> records) {
            String[] w = words(start);
            switch (w[0]) {
                case "option" -> parseOptions(records);
                case "load" -> records.add(parseLoad(w));
                case "loop" -> records.add(parseLoop(w));
                case "query" -> records.add(parseQuery(start, w, 1));
                case "statement" -> records.add(parseStatement(w));
                default ->
                    throw error(
                            start,
                            "unknown directive '" + w[0] + "' — a record starts with option, load,"
                                    + " loop, query or statement");
            }
        }

        private void parseOptions(List<SqlTestRecord> records) {
            for (int i = start; i < end; i++) {
                if (isComment(lines.get(i))) {
                    continue;
                }
                String[] w = words(i);
                int eq = w.length == 2 ? w[1].indexOf('=') : -1;
                if (!w[0].equals("option") || eq <= 0 || eq == w[1].length() - 1) {
                    throw error(
                            i,
                            "expected 'option NAME=VALUE', got: " + lines.get(i).strip());
                }
                String name = w[1].substring(0, eq).toLowerCase(Locale.ROOT);
                if (!OPTIONS.contains(name)) {
                    throw error(
                            i,
                            "unknown option '" + name + "' — known: "
                                    + String.join(
                                            ", ", OPTIONS.stream().sorted().toList()));
                }
                String value = w[1].substring(eq + 1);
                if (Set.of("threads", "nodes", "morsel_rows").contains(name)) {
                    number(i, value, name);
                } else if (name.equals("stealing") && !value.equals("true") && !value.equals("false")) {
                    throw error(i, "option stealing is true or false, got: " + value);
                }
                records.add(new SqlTestRecord.Option(i + 1, name, value));
            }
        }

        private SqlTestRecord parseLoad(String[] w) {
            if (w.length == 6 && w[2].equals("generate") && w[4].equals("seed")) {
                if (!w[1].equals("trades")) {
                    throw error(
                            start,
                            "'load ... generate' makes the tables trades and fx: write 'load trades generate"
                                    + " N seed S'");
                }
                onlyDirectiveLine("load trades generate");
                return new SqlTestRecord.LoadTrades(
                        start + 1, number(start, w[3], "row count"), number(start, w[5], "seed"));
            }
            if (w.length >= 5 && w[2].equals("csv") && w[3].equals("file") && typesFrom(w, 5) != null) {
                onlyDirectiveLine("load ... csv file");
                return new SqlTestRecord.LoadCsv(start + 1, w[1], null, w[4], typesFrom(w, 5));
            }
            if (w.length >= 3 && w[2].equals("csv") && typesFrom(w, 3) != null) {
                if (end - start < 2) {
                    throw error(start, "'load " + w[1] + " csv' needs the CSV text on the next lines, header first");
                }
                String csv = String.join("\n", lines.subList(start + 1, end)) + "\n";
                return new SqlTestRecord.LoadCsv(start + 1, w[1], csv, null, typesFrom(w, 3));
            }
            throw error(
                    start,
                    "expected 'load TABLE csv', 'load TABLE csv file PATH' (either followed by 'types COL=TYPE ...')"
                            + " or 'load trades generate N seed S', got: "
                            + lines.get(start).strip());
        }

        /** The {@code types COL=TYPE ...} words from {@code at} on (empty when there are none), or null when malformed. */
        private static List<String> typesFrom(String[] w, int at) {
            if (w.length == at) {
                return List.of();
            }
            if (!w[at].equals("types") || w.length == at + 1) {
                return null;
            }
            List<String> types = List.of(java.util.Arrays.copyOfRange(w, at + 1, w.length));
            return types.stream().allMatch(t -> t.indexOf('=') > 0) ? types : null;
        }

        private void onlyDirectiveLine(String what) {
            if (end - start > 1) {
                throw error(start + 1, "'" + what + "' is one line; separate the next record by a blank line");
            }
        }

        private long number(int index, String text, String what) {
            try {
                long n = Long.parseLong(text.replace("_", ""));
                if (n < 0) {
                    throw error(index, what + " must not be negative: " + text);
                }
                return n;
            } catch (NumberFormatException e) {
                throw error(index, what + " is not an integer: " + text);
            }
        }

        private SqlTestRecord parseLoop(String[] w) {
            if (w.length != 2) {
                throw error(start, "expected 'loop N' followed by a query on the next line");
            }
            long runs = number(start, w[1], "loop count");
            if (runs < 1 || runs > 1000) {
                throw error(start, "loop count must be 1 to 1000: " + w[1]);
            }
            int next = start + 1;
            if (next >= end || !words(next)[0].equals("query")) {
                throw error(start, "'loop N' must be followed by a 'query' line");
            }
            return parseQuery(next, words(next), (int) runs);
        }

        private SqlTestRecord parseQuery(int at, String[] w, int runs) {
            if (w.length < 2 || !w[1].matches("[IRNTDBS]+")) {
                throw error(
                        at,
                        "expected 'query TYPES ...' with one letter per column out of I R N T D B S, got: "
                                + lines.get(at).strip());
            }
            boolean rowSort = false;
            boolean duckdb = false;
            Double tolerance = null;
            for (int k = 2; k < w.length; k++) {
                switch (w[k]) {
                    case "nosort" -> rowSort = false;
                    case "rowsort" -> rowSort = true;
                    case "duckdb" -> duckdb = true;
                    case "tolerance" -> {
                        if (++k == w.length) {
                            throw error(at, "'tolerance' needs a value, e.g. 'tolerance 1e-9'");
                        }
                        tolerance = tolerance(at, w[k]);
                    }
                    default ->
                        throw error(
                                at,
                                "unknown query option '" + w[k] + "' — known: nosort, rowsort,"
                                        + " duckdb, tolerance T");
                }
            }
            Body body = body(at + 1);
            if (duckdb && body.result != null) {
                throw error(body.separatorIndex, "a 'duckdb' query has no '----' block: its answer is DuckDB's");
            }
            if (!duckdb && body.result == null) {
                throw error(at, "a query needs '----' and its expected rows, or the 'duckdb' flag");
            }
            return new SqlTestRecord.Query(start + 1, body.sql, w[1], rowSort, tolerance, body.result, runs);
        }

        private double tolerance(int at, String text) {
            try {
                double t = Double.parseDouble(text);
                if (!(t >= 0) || Double.isInfinite(t)) {
                    throw error(at, "tolerance must be a finite number >= 0: " + text);
                }
                return t;
            } catch (NumberFormatException e) {
                throw error(at, "tolerance is not a number: " + text);
            }
        }

        private SqlTestRecord parseStatement(String[] w) {
            if (w.length == 2 && w[1].equals("ok")) {
                Body body = body(start + 1);
                if (body.result != null) {
                    throw error(body.separatorIndex, "'statement ok' has no '----' block (use 'query' to check rows)");
                }
                return new SqlTestRecord.StatementOk(start + 1, body.sql);
            }
            if ((w.length == 2 || w.length == 3) && w[1].equals("error")) {
                SqlPosition position = null;
                if (w.length == 3) {
                    position = SqlPosition.parse(w[2])
                            .orElseThrow(() ->
                                    error(start, "expected the error position as LINE:COLUMN (1-based), got: " + w[2]));
                }
                Body body = body(start + 1);
                if (body.result == null
                        || body.result.isEmpty()
                        || String.join("", body.result).isBlank()) {
                    throw error(start, "'statement error' needs '----' and a part of the expected message");
                }
                return new SqlTestRecord.StatementError(
                        start + 1, body.sql, String.join("\n", body.result).strip(), position);
            }
            throw error(
                    start,
                    "expected 'statement ok' or 'statement error [LINE:COLUMN]', got: "
                            + lines.get(start).strip());
        }

        /** The SQL from {@code from} up to {@code ----} (or the end), and the lines after it (null without it). */
        private Body body(int from) {
            List<String> sql = new ArrayList<>();
            int i = from;
            for (; i < end && !lines.get(i).strip().equals(RESULT_SEPARATOR); i++) {
                if (!isComment(lines.get(i))) {
                    sql.add(lines.get(i));
                }
            }
            if (sql.isEmpty()) {
                throw error(from - 1, "the SQL is missing: write it on the lines after the directive");
            }
            List<String> result = i < end ? List.copyOf(lines.subList(i + 1, end)) : null;
            return new Body(String.join("\n", sql), result, i);
        }
    }

    /** A record's SQL and the lines after {@code ----} (null when there is no {@code ----}). */
    private record Body(String sql, List<String> result, int separatorIndex) {}
}
