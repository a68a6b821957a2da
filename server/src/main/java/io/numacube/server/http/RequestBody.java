package io.numacube.server.http;

import com.sun.net.httpserver.HttpExchange;
import io.numacube.server.query.ClientError;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A request's body, read up to a size limit: a body announced or found longer is refused with 413 before more of it
 * is read, one that cannot be read (cut short, a malformed chunk) with 400, and text must be valid UTF-8. Stateless.
 */
final class RequestBody {

    private RequestBody() {}

    /** The media type of the request without parameters, lower case; empty when the request names none. */
    static String mediaType(HttpExchange ex) {
        String type = ex.getRequestHeaders().getFirst("Content-Type");
        if (type == null) {
            return "";
        }
        int semi = type.indexOf(';');
        return (semi < 0 ? type : type.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
    }

    /** @throws HttpError 413 when the body is longer than {@code maxBytes} */
    static byte[] read(HttpExchange ex, int maxBytes) throws IOException {
        String length = ex.getRequestHeaders().getFirst("Content-Length");
        if (length != null) {
            long announced;
            try {
                announced = Long.parseLong(length.strip());
            } catch (NumberFormatException e) {
                throw new HttpError(400, ClientError.PROTOCOL_VIOLATION, "Content-Length is not a number: " + length);
            }
            if (announced > maxBytes) {
                throw tooLarge(maxBytes);
            }
            if (announced >= 0) {
                // read straight into an array of the announced size: a large batch is not copied as it grows
                try (InputStream in = ex.getRequestBody()) {
                    return in.readNBytes((int) announced);
                } catch (IOException e) {
                    throw unreadable(e);
                }
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try (InputStream in = ex.getRequestBody()) {
            int n;
            while ((n = in.read(buf)) > 0) {
                if (out.size() + n > maxBytes) {
                    throw tooLarge(maxBytes);
                }
                out.write(buf, 0, n);
            }
        } catch (IOException e) {
            throw unreadable(e);
        } catch (IndexOutOfBoundsException e) {
            // the JDK's chunked stream reads a chunk size over 2^31-1 (FFFFFFFFFFFF) as negative and passes it on
            throw unreadable(new IOException("invalid chunk length", e));
        }
        return out.toByteArray();
    }

    /**
     * A body that ended before its length, a malformed chunk, a connection closed for taking too long to send its
     * request: the client's fault, a 400, not an internal error (nor a stack trace in the log).
     */
    private static HttpError unreadable(IOException e) {
        return new HttpError(
                400, ClientError.PROTOCOL_VIOLATION, "the request body could not be read: " + e.getMessage());
    }

    /** The bytes as UTF-8 text; malformed UTF-8 is a 400 with PostgreSQL's code for it, 22021. */
    static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new HttpError(
                    400, "22021", "invalid byte sequence for encoding UTF8: the request body must be UTF-8");
        }
    }

    private static HttpError tooLarge(int maxBytes) {
        return new HttpError(
                413,
                ClientError.LIMIT_EXCEEDED,
                "request body too large: max-bytes=" + maxBytes + " — send a shorter statement");
    }
}
