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
 */
public record CopyStatement(String table, List<String> columns, boolean csv, boolean header) {

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
        return new CopyStatement(name, List.copyOf(columns), o.csv, o.header);
    }

    private record Options(boolean csv, boolean header) {}

    private static Options options(String text) {
        String t = text.strip();
        if (t.startsWith("(") && t.endsWith(")")) {
            t = t.substring(1, t.length() - 1);
        }
        boolean csv = false;
        boolean header = false;
        for (String part : t.split("[,\\s]+(?=(?:[^']*'[^']*')*[^']*$)")) {
            String p = part.strip().toLowerCase(Locale.ROOT);
            switch (p) {
                case "", "format", "text", "true", "on", "1" -> {}
                case "csv" -> csv = true;
                case "header" -> header = true;
                case "false", "off", "0" -> header = false;
                case "delimiter", "null" -> {}
                case "','", "''" -> {}
                default ->
                    throw InsertStatement.unsupported("COPY option not supported by numacube: " + part
                            + " — it takes FORMAT csv or text, HEADER, DELIMITER ',' and NULL ''");
            }
        }
        return new Options(csv, header);
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
            out.write(data, from, data.length - from);
            StorableText.checkCsv(data, source);
            return new WriteService.Batch(table, BatchFormat.CSV, out.toByteArray(), source);
        }
        byte[] lines = TextFormat.toJsonLines(data, names, header, source);
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

    private static String csvName(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
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
