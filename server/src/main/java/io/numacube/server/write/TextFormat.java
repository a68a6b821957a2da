package io.numacube.server.write;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.numacube.numa.base.NumacubeException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * PostgreSQL's COPY text format read into JSON lines of text values: one row a line, fields separated by tabs,
 * {@code \N} for NULL, and backslash escapes ({@code \t}, {@code \n}, {@code \r}, {@code \\}, {@code \b}, {@code \f},
 * {@code \v}, octal {@code \NNN}, hex {@code \xHH}); a line {@code \.} ends the data; every other line is a row,
 * an empty one too (one empty field), and a row with another number of fields than the columns is refused with its
 * line. Stateless.
 */
final class TextFormat {

    private static final JsonFactory JSON = new JsonFactory();

    private TextFormat() {}

    /**
     * The rows of {@code data} as JSON lines, one output line a line of input (a header line as a blank one; nothing
     * from {@code \.} on), so that the JSON reader's line numbers are the client's.
     *
     * @throws NumacubeException 22P04 naming {@code source} and the line for a row with fewer or more fields than
     *     {@code columns} (an empty line is one empty field), as PostgreSQL refuses it
     */
    static byte[] toJsonLines(byte[] data, List<String> columns, boolean header, String source) {
        String text = new String(data, StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(data.length * 2);
        String[] lines = text.split("\r?\n", -1);
        int count = lines.length - (lines[lines.length - 1].isEmpty() ? 1 : 0);
        try {
            for (int i = 0; i < count && !lines[i].equals("\\."); i++) {
                if (i > 0 || !header) {
                    row(lines[i], columns, out, source, i + 1);
                }
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void row(String line, List<String> columns, ByteArrayOutputStream out, String source, int number)
            throws IOException {
        String[] fields = line.split("\t", -1);
        if (fields.length != columns.size()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "22P04",
                    source + ": line " + number + ": "
                            + (fields.length < columns.size()
                                    ? "missing data for column \"" + columns.get(fields.length) + "\""
                                    : "extra data after last expected column")
                            + " (the text format takes " + columns.size() + " tab-separated fields a line, \\N for"
                            + " NULL)",
                    null,
                    null);
        }
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            for (int f = 0; f < fields.length; f++) {
                g.writeFieldName(columns.get(f));
                if (fields[f].equals("\\N")) {
                    g.writeNull();
                } else {
                    g.writeString(unescape(fields[f]));
                }
            }
            g.writeEndObject();
        }
    }

    static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                b.append(c);
                continue;
            }
            char e = s.charAt(++i);
            switch (e) {
                case 't' -> b.append('\t');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'v' -> b.append('\u000b');
                case 'x' -> i = hex(s, i, b);
                default -> {
                    if (e >= '0' && e <= '7') {
                        i = octal(s, i, b);
                    } else {
                        b.append(e);
                    }
                }
            }
        }
        return b.toString();
    }

    private static int hex(String s, int i, StringBuilder b) {
        int end = i + 1;
        while (end < s.length() && end < i + 3 && Character.digit(s.charAt(end), 16) >= 0) {
            end++;
        }
        if (end == i + 1) {
            b.append('x');
            return i;
        }
        b.append((char) Integer.parseInt(s.substring(i + 1, end), 16));
        return end - 1;
    }

    private static int octal(String s, int i, StringBuilder b) {
        int end = i;
        while (end < s.length() && end < i + 3 && s.charAt(end) >= '0' && s.charAt(end) <= '7') {
            end++;
        }
        b.append((char) Integer.parseInt(s.substring(i, end), 8));
        return end - 1;
    }
}
