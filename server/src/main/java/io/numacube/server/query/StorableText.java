package io.numacube.server.query;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Text a client may send as a value or a statement: valid Unicode without a NUL character. PostgreSQL refuses both
 * with 22021 (its text is NUL-terminated UTF-8), and they cannot come back to every client unchanged: libpq clients
 * (psql) cut a value at its NUL, and an unpaired UTF-16 surrogate, which JSON's {@code \ud800} escape can carry into a
 * Java string, has no UTF-8 form, so the wire sends {@code ?} for it. The front ends check what they take in (the
 * HTTP body's SQL and parameters, rows posted as CSV or JSON lines, COPY data); recovery does not, so rows logged
 * before this check still replay. Stateless.
 */
public final class StorableText {

    /** PostgreSQL's SQLSTATE for bytes its encoding cannot hold. */
    public static final String BAD_ENCODING = "22021";

    private static final JsonFactory JSON = new JsonFactory();

    private StorableText() {}

    /**
     * @param what names the text for the message, as {@code parameter $2} or {@code the SQL}
     * @throws io.numacube.numa.base.NumacubeException 22021 when {@code text} holds a NUL or an unpaired surrogate
     */
    public static void check(String text, String what) {
        String fault = fault(text);
        if (fault != null) {
            throw ClientError.of(BAD_ENCODING, message(fault, what)).toException();
        }
    }

    /**
     * Checks CSV bytes (UTF-8, so only a NUL byte can be wrong here; the CSV reader refuses malformed UTF-8).
     *
     * @param source names the batch, as {@code POST /v1/tables/t/rows}
     * @throws io.numacube.numa.base.NumacubeException 22021 naming the line of the first NUL byte
     */
    public static void checkCsv(byte[] csv, String source) {
        int line = 1;
        for (byte b : csv) {
            if (b == '\n') {
                line++;
            } else if (b == 0) {
                throw ClientError.of(BAD_ENCODING, message("a NUL character", source + ":" + line))
                        .toException();
            }
        }
    }

    /**
     * Checks every string and key of JSON lines; text that is not JSON is left to the reader, which says where.
     *
     * @throws io.numacube.numa.base.NumacubeException 22021 naming the line of the first bad string
     */
    public static void checkJsonLines(byte[] jsonLines, String source) {
        try (JsonParser p = JSON.createParser(jsonLines)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.VALUE_STRING || t == JsonToken.FIELD_NAME) {
                    String fault = fault(p.getText());
                    if (fault != null) {
                        String where = source + ": line " + p.currentLocation().getLineNr();
                        throw ClientError.of(BAD_ENCODING, message(fault, where))
                                .toException();
                    }
                }
            }
        } catch (IOException notJson) {
            // the reader reports it with its line and field
        }
    }

    /** What is wrong with {@code text} ({@code "a NUL character"}), or null when nothing is. */
    public static String fault(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return "a NUL character";
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return String.format("an unpaired surrogate \\u%04x", (int) c);
            }
        }
        return null;
    }

    /** The 22021 message for {@code fault} (as {@link #fault} says it) in the text {@code where} names. */
    public static String message(String fault, String where) {
        return "invalid byte sequence for encoding \"UTF8\": " + where + " holds " + fault
                + ", which text cannot hold (as in PostgreSQL) — send valid Unicode without NUL";
    }
}
