package io.numacube.cli.cube;

import io.numacube.numa.base.IoReason;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits a SQL script into statements at semicolons that are outside {@code '...'} strings, {@code "..."}
 * identifiers and {@code --} line comments; blank statements are dropped, comment-only text too. Each statement
 * knows where it starts in the script, so that a position inside it can be given as a position in the file.
 * Stateless.
 */
public final class SqlScript {

    /**
     * One statement, stripped, with the 1-based line and column of its first character in the script.
     * Invariant: line and column point at {@code sql.charAt(0)}; comments inside became line breaks, so the lines
     * of {@code sql} are the script's lines from {@code line} on.
     */
    public record Statement(String sql, int line, int column) {

        /** The script position of line {@code l}, column {@code c} of this statement (both 1-based). */
        public int[] scriptPosition(int l, int c) {
            return new int[] {line + l - 1, l == 1 ? column + c - 1 : c};
        }
    }

    private SqlScript() {}

    /**
     * The text of a SQL file, which must be UTF-8 (a leading byte order mark is dropped).
     *
     * @throws NumacubeException INVALID_INPUT naming the file, line, column and byte offset of the first byte that is
     *                           not UTF-8, or the read error
     */
    public static String read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "cannot read the SQL file: file=" + file + " error=" + IoReason.of(e) + " — check the path");
        }
        return decode(file.toString(), bytes);
    }

    static String decode(String source, byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = decoder.decode(in, out, true);
        if (r.isError()) {
            int offset = in.position();
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < offset; i++) {
                if (bytes[i] == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    String.format(
                            Locale.ROOT,
                            "%s:%d:%d: the SQL file is not valid UTF-8 text: byte offset %d (byte 0x%02x) — save it as UTF-8",
                            source,
                            line,
                            offset - lineStart + 1,
                            offset,
                            bytes[offset] & 0xff));
        }
        decoder.flush(out);
        String text = out.flip().toString();
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    public static List<String> statements(String script) {
        return located(script).stream().map(Statement::sql).toList();
    }

    public static List<Statement> located(String script) {
        List<Statement> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean hasCode = false;
        int start = -1;
        int n = script.length();
        for (int i = 0; i < n; i++) {
            char c = script.charAt(i);
            if (start < 0
                    && !Character.isWhitespace(c)
                    && !(c == '-' && i + 1 < n && script.charAt(i + 1) == '-')
                    && c != ';') {
                start = i;
            }
            if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
                while (i < n && script.charAt(i) != '\n') {
                    i++;
                }
                cur.append('\n');
                continue;
            }
            if (c == '\'' || c == '"') {
                int end = i + 1;
                while (end < n) {
                    if (script.charAt(end) == c) {
                        if (end + 1 < n && script.charAt(end + 1) == c) {
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    end++;
                }
                cur.append(script, i, Math.min(end + 1, n));
                hasCode = true;
                i = end;
                continue;
            }
            if (c == ';') {
                add(out, cur, hasCode, script, start);
                cur.setLength(0);
                hasCode = false;
                start = -1;
                continue;
            }
            cur.append(c);
            hasCode |= !Character.isWhitespace(c);
        }
        add(out, cur, hasCode, script, start);
        return out;
    }

    private static void add(List<Statement> out, StringBuilder cur, boolean hasCode, String script, int start) {
        if (hasCode) {
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < start; i++) {
                if (script.charAt(i) == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            out.add(new Statement(cur.toString().strip(), line, start - lineStart + 1));
        }
    }
}
