package io.numacube.server.write;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.numacube.server.query.ClientError;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's COPY text format read into JSON lines of text values, as PostgreSQL reads it: one row a line (a first
 * header line skipped with HEADER), fields separated by the delimiter (a tab unless DELIMITER says otherwise), a field
 * whose text is the NULL string ({@code \N} unless NULL says otherwise, an empty one too) is NULL, and backslash
 * escapes ({@code \t}, {@code \n}, {@code \r}, {@code \\}, {@code \b}, {@code \f}, {@code \v}, octal {@code \NNN},
 * hex {@code \xHH} as bytes of UTF-8 text, a backslash before any other character, the delimiter too, is that
 * character); a line {@code \.} ends the data. A row with fewer or more fields than columns is refused (22P04),
 * naming its line. Stateless.
 */
final class TextFormat {

    private static final JsonFactory JSON = new JsonFactory();

    private TextFormat() {}

    /**
     * The rows of {@code data} as JSON lines, one output line a line of input (a header line as a blank one; nothing
     * from {@code \.} on), so that the JSON reader's line numbers are the client's.
     *
     * @param delimiter  the field separator
     * @param nullString the text of a NULL field
     * @param header     whether the first line is a header to skip
     * @throws io.numacube.numa.base.NumacubeException 22P04 for a row of another number of fields than {@code
     *     columns}, 22021 for escapes that make text other than UTF-8
     */
    static byte[] toJsonLines(
            byte[] data, List<String> columns, char delimiter, String nullString, boolean header, String source) {
        String text = new String(data, StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(data.length * 2);
        String[] lines = text.split("\r?\n", -1);
        int last = text.isEmpty() || text.endsWith("\n") ? lines.length - 1 : lines.length;
        try {
            for (int i = 0; i < last; i++) {
                if (lines[i].equals("\\.")) {
                    break;
                }
                if (i > 0 || !header) {
                    row(fields(lines[i], delimiter), columns, nullString, out, source + ": line " + (i + 1));
                }
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A line's fields as written (escapes kept), split at each delimiter that no backslash escapes. */
    private static List<String> fields(String line, char delimiter) {
        List<String> fields = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == delimiter) {
                fields.add(line.substring(from, i));
                from = i + 1;
            }
        }
        fields.add(line.substring(from));
        return fields;
    }

    private static void row(
            List<String> fields, List<String> columns, String nullString, ByteArrayOutputStream out, String where)
            throws IOException {
        if (fields.size() < columns.size()) {
            throw refusal(where + ": missing data for column \"" + columns.get(fields.size()) + "\"" + hint(columns));
        }
        if (fields.size() > columns.size()) {
            throw refusal(where + ": extra data after last expected column" + hint(columns));
        }
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            for (int f = 0; f < fields.size(); f++) {
                g.writeFieldName(columns.get(f));
                if (fields.get(f).equals(nullString)) {
                    g.writeNull();
                } else {
                    g.writeString(unescape(fields.get(f), where));
                }
            }
            g.writeEndObject();
        }
    }

    private static String hint(List<String> columns) {
        return " (the text format takes " + columns.size() + " fields a line)";
    }

    private static io.numacube.numa.base.NumacubeException refusal(String message) {
        return ClientError.of("22P04", message).toException();
    }

    static String unescape(String s, String where) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream(s.length());
        int plain = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) != '\\' || i + 1 == s.length()) {
                continue;
            }
            b.writeBytes(s.substring(plain, i).getBytes(StandardCharsets.UTF_8));
            char e = s.charAt(++i);
            switch (e) {
                case 't' -> b.write('\t');
                case 'n' -> b.write('\n');
                case 'r' -> b.write('\r');
                case 'b' -> b.write('\b');
                case 'f' -> b.write('\f');
                case 'v' -> b.write(0x0b);
                case 'x' -> i = digits(s, i + 1, 16, 2, b) - 1;
                default -> {
                    if (e >= '0' && e <= '7') {
                        i = digits(s, i, 8, 3, b) - 1;
                    } else {
                        int cp = s.codePointAt(i);
                        b.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
                        i += Character.charCount(cp) - 1;
                    }
                }
            }
            plain = i + 1;
        }
        b.writeBytes(s.substring(plain).getBytes(StandardCharsets.UTF_8));
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b.toByteArray()))
                    .toString();
        } catch (CharacterCodingException ex) {
            throw ClientError.of("22021", where + ": invalid byte sequence for encoding \"UTF8\": " + s)
                    .toException();
        }
    }

    /**
     * Up to {@code max} digits of {@code radix} from {@code at}: their byte to {@code b} (for hex without a digit, the
     * {@code x} itself); the index after them.
     */
    private static int digits(String s, int at, int radix, int max, ByteArrayOutputStream b) {
        int end = at;
        while (end < s.length() && end < at + max && Character.digit(s.charAt(end), radix) >= 0) {
            end++;
        }
        if (end == at) {
            b.write('x');
            return at;
        }
        b.write(Integer.parseInt(s.substring(at, end), radix) & 0xff);
        return end;
    }
}
