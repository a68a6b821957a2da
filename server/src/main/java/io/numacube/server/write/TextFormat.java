package io.numacube.server.write;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * PostgreSQL's COPY text format read into JSON lines of text values: one row a line, fields separated by tabs,
 * {@code \N} for NULL, and backslash escapes ({@code \t}, {@code \n}, {@code \r}, {@code \\}, {@code \b}, {@code \f},
 * {@code \v}, octal {@code \NNN}, hex {@code \xHH}); a line {@code \.} ends the data. A row with another number of
 * fields is kept as it is and refused by the JSON reader with its line. Stateless.
 */
final class TextFormat {

    private static final JsonFactory JSON = new JsonFactory();

    private TextFormat() {}

    static byte[] toJsonLines(byte[] data, List<String> columns) {
        String text = new String(data, StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(data.length * 2);
        try {
            for (String line : text.split("\r?\n", -1)) {
                if (line.equals("\\.")) {
                    break;
                }
                if (!line.isEmpty()) {
                    row(line, columns, out);
                }
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void row(String line, List<String> columns, ByteArrayOutputStream out) throws IOException {
        String[] fields = line.split("\t", -1);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            for (int f = 0; f < fields.length; f++) {
                g.writeFieldName(f < columns.size() ? columns.get(f) : "(extra field " + (f + 1) + ")");
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
