package io.numacube.server.write;

import io.numacube.engine.schema.TableNames;
import io.numacube.server.query.StorableText;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code COPY table [(column, ...)] FROM STDIN [WITH] [(FORMAT csv|text, HEADER [true|false], DELIMITER ',', NULL
 * '')]} (also the old {@code WITH CSV HEADER} spelling), as PostgreSQL reads it: CSV with an empty unquoted field for
 * NULL, or the text format (tab-separated, {@code \N} for NULL, backslash escapes). {@link #batch} turns the data the
 * client sent into a batch with a header row naming the columns (a CSV header the client sent is skipped: PostgreSQL
 * takes columns by position). Other options and forms ({@code COPY ... TO}, {@code FROM 'file'}, {@code BINARY}, other
 * delimiters) are refused with 0A000. Immutable.
 *
 * @param table   the table's name (unquoted, lower case unless quoted); a qualified name ({@code public.trades})
 *                resolved by {@link TableNames}
 * @param columns the columns named, or empty for all of the table's in order
 * @param csv     CSV (else the text format)
 * @param header  whether the data starts with a header line to skip
 * @param delimiter the field separator (the text format's; CSV's is a comma)
 * @param nullString the text of a NULL field (the text format's; CSV's is an empty unquoted field)
 */
public record CopyStatement(
        String table, List<String> columns, boolean csv, boolean header, char delimiter, String nullString) {

    private static final Pattern COPY = Pattern.compile(
            "(?is)COPY\\s+((?:\"[^\"]+\"|[\\w$]+)(?:\\s*\\.\\s*(?:\"[^\"]+\"|[\\w$]+)){0,2})\\s*(\\(([^)]*)\\))?\\s*FROM\\s+STDIN"
                    + "\\s*(?:WITH\\s*)?(.*?)\\s*;?\\s*");

    /** Whether {@code sql} is a COPY statement (to be parsed by {@link #parse}). */
    public static boolean isCopy(String sql) {
        return io.numacube.server.query.SqlLexer.normalize(sql).regionMatches(true, 0, "COPY ", 0, 5);
    }

    /** @throws io.numacube.numa.base.NumacubeException 0A000 for COPY forms and options numacube lacks */
    public static CopyStatement parse(String sql) {
        Matcher m = COPY.matcher(io.numacube.server.query.SqlLexer.normalize(sql));
        if (!m.matches()) {
            throw InsertStatement.unsupported(
                    "numacube takes COPY table [(columns)] FROM STDIN [WITH (FORMAT csv, HEADER)] only (no COPY TO, no"
                            + " server-side files)");
        }
        List<String> parts = new ArrayList<>();
        for (String part : m.group(1).split("\\s*\\.\\s*")) {
            parts.add(unquote(part.strip()));
        }
        String name = TableNames.resolve(parts);
        List<String> columns = new ArrayList<>();
        if (m.group(3) != null) {
            for (String c : m.group(3).split(",")) {
                columns.add(unquote(c.strip()));
            }
        }
        Options o = options(m.group(4));
        return new CopyStatement(name, List.copyOf(columns), o.csv, o.header, o.delimiter, o.nullString);
    }

    /**
     * The options of a COPY, as PostgreSQL reads them in both spellings ({@code (FORMAT csv, HEADER true, DELIMITER
     * ';', NULL 'x')} and the old {@code CSV HEADER DELIMITER AS ',' NULL AS ''}): each at most once (else 42601).
     * Numacube's CSV takes its own delimiter and NULL only; the text format takes any one-character delimiter and NULL
     * string.
     */
    private record Options(boolean csv, boolean header, char delimiter, String nullString) {}

    private static Options options(String text) {
        String t = text.strip();
        if (t.startsWith("(") && t.endsWith(")")) {
            t = t.substring(1, t.length() - 1);
        }
        List<String> words = new ArrayList<>();
        for (String part : t.split("[,\\s]+(?=(?:[^']*'[^']*')*[^']*$)")) {
            if (!part.isBlank()) {
                words.add(part.strip());
            }
        }
        java.util.Map<String, String> given = new java.util.HashMap<>();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i).toLowerCase(Locale.ROOT);
            String name = switch (w) {
                case "csv", "text", "binary" -> "format";
                default -> w;
            };
            String value = switch (w) {
                case "csv", "text", "binary" -> w;
                case "format" -> i + 1 < words.size() ? words.get(++i).toLowerCase(Locale.ROOT) : "";
                case "header" -> i + 1 < words.size() && isBoolean(words.get(i + 1)) ? words.get(++i) : "true";
                case "delimiter", "null" -> {
                    int at = i + 1 < words.size() && words.get(i + 1).equalsIgnoreCase("as") ? i + 2 : i + 1;
                    i = at;
                    yield quoted(words, at, w);
                }
                default -> throw refusedOption(words.get(i));
            };
            if (given.put(name, value) != null) {
                throw io.numacube.server.query.ClientError.of("42601", "conflicting or redundant options: " + name)
                        .toException();
            }
        }
        return checked(given);
    }

    private static Options checked(java.util.Map<String, String> given) {
        String format = given.getOrDefault("format", "text");
        if (!format.equals("csv") && !format.equals("text")) {
            throw refusedOption("FORMAT " + format);
        }
        boolean csv = format.equals("csv");
        String delimiter = given.getOrDefault("delimiter", csv ? "," : "\t");
        String nullString = given.getOrDefault("null", csv ? "" : "\\N");
        if (csv && !(delimiter.equals(",") && nullString.isEmpty())
                || delimiter.length() != 1
                || "\\\r\n.abcdefghijklmnopqrstuvwxyz0123456789".indexOf(delimiter.charAt(0)) >= 0
                || nullString.contains(delimiter)) {
            throw refusedOption("DELIMITER '" + delimiter + "' NULL '" + nullString + "'");
        }
        String header = given.getOrDefault("header", "false").toLowerCase(Locale.ROOT);
        if (header.equals("match")) {
            throw refusedOption("HEADER MATCH");
        }
        boolean skipHeader = header.equals("1")
                || header.equals("on")
                || "true".startsWith(header)
                || header.length() > 0 && "yes".startsWith(header);
        return new Options(csv, skipHeader, delimiter.charAt(0), nullString);
    }

    private static boolean isBoolean(String word) {
        return word.matches("(?i)true|false|on|off|0|1|yes|no|match");
    }

    /** The quoted string at {@code at} ({@code ''} inside is a quote), the value of option {@code option}. */
    private static String quoted(List<String> words, int at, String option) {
        String w = at < words.size() ? words.get(at) : "";
        if (w.length() < 2 || !w.startsWith("'") || !w.endsWith("'")) {
            throw refusedOption(option.toUpperCase(Locale.ROOT) + " " + w);
        }
        return w.substring(1, w.length() - 1).replace("''", "'");
    }

    private static io.numacube.numa.base.NumacubeException refusedOption(String what) {
        return InsertStatement.unsupported("COPY option not supported by numacube: " + what
                + " — it takes FORMAT csv or text and HEADER; DELIMITER ',' and NULL '' for csv; a DELIMITER of one"
                + " character and any NULL string for text");
    }

    private static String unquote(String name) {
        return name.startsWith("\"") ? name.substring(1, name.length() - 1) : name.toLowerCase(Locale.ROOT);
    }

    /**
     * The data as a batch for table {@code table} whose columns (all, in order) are {@code tableColumns}: CSV with our
     * header row in place of the client's, or the text format read into JSON lines.
     *
     * @throws io.numacube.numa.base.NumacubeException 22021 for a value holding a NUL ({@code \0} in the text
     *     format too), as PostgreSQL refuses it
     */
    public WriteService.Batch batch(byte[] data, List<String> tableColumns) {
        List<String> names = columns.isEmpty() ? tableColumns : columns;
        String source = source();
        if (csv) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(data.length + 64);
            out.writeBytes(
                    String.join(",", names.stream().map(CopyStatement::csvName).toList())
                            .concat("\n")
                            .getBytes(StandardCharsets.UTF_8));
            int from = header ? lineEnd(data) : 0;
            int to = csvEnd(data);
            out.write(data, from, Math.max(0, to - from));
            StorableText.checkCsv(data, source);
            return new WriteService.Batch(table, BatchFormat.CSV, out.toByteArray(), source);
        }
        byte[] lines = TextFormat.toJsonLines(data, names, delimiter, nullString, header, source);
        StorableText.checkJsonLines(lines, source);
        return new WriteService.Batch(table, BatchFormat.JSON_LINES, lines, source);
    }

    /**
     * Runs {@code write} (a check or an append of this statement's {@link #batch}) and reports a bad row at the line of
     * the data the client sent: CSV without HEADER is read with our header row before it, so the reader's lines are one
     * past the client's (PostgreSQL's {@code COPY t, line 2} for the second row).
     */
    public <T> T reporting(java.util.function.Supplier<T> write) {
        try {
            return write.get();
        } catch (io.numacube.numa.base.NumacubeException e) {
            if (!csv || header || e.position().isEmpty()) {
                throw e;
            }
            io.numacube.numa.base.ErrorPosition at = e.position().get();
            if (!source().equals(at.file()) || at.line() < 2) {
                throw e;
            }
            throw new io.numacube.numa.base.NumacubeException(
                    e.kind(),
                    e.code(),
                    e.detail(),
                    io.numacube.numa.base.ErrorPosition.file(at.file(), at.line() - 1, at.column(), at.field()),
                    e.getCause());
        }
    }

    private String source() {
        return "COPY " + table + " FROM STDIN";
    }

    /**
     * Refuses, before any data is asked for, a column list naming a column the table lacks (42703) or one twice
     * (42701), as PostgreSQL does.
     *
     * @param tableColumns the table's columns
     */
    public void checkColumns(List<String> tableColumns) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String c : columns) {
            if (tableColumns.stream().noneMatch(c::equalsIgnoreCase)) {
                throw io.numacube.server.query.ClientError.of(
                                "42703",
                                "column \"" + c + "\" of relation \"" + table + "\" does not exist — its columns are "
                                        + String.join(", ", tableColumns))
                        .toException();
            }
            if (!seen.add(c.toLowerCase(Locale.ROOT))) {
                throw io.numacube.server.query.ClientError.of("42701", "column \"" + c + "\" specified more than once")
                        .toException();
            }
        }
    }

    private static String csvName(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /**
     * Where CSV data ends: at a line {@code \.} outside quotes (PostgreSQL's end-of-data marker, which psql sends
     * from a script), else at its end.
     */
    private static int csvEnd(byte[] data) {
        boolean quoted = false;
        boolean lineStart = true;
        for (int i = 0; i < data.length; i++) {
            if (lineStart && !quoted && data[i] == '\\' && i + 1 < data.length && data[i + 1] == '.') {
                int next = i + 2;
                if (next < data.length && data[next] == '\r') {
                    next++;
                }
                if (next == data.length || data[next] == '\n') {
                    return i;
                }
            }
            quoted ^= data[i] == '"';
            lineStart = !quoted && data[i] == '\n';
        }
        return data.length;
    }

    private static int lineEnd(byte[] data) {
        for (int i = 0; i < data.length; i++) {
            if (data[i] == '\n') {
                return i + 1;
            }
        }
        return data.length;
    }
}
