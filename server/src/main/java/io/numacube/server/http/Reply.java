package io.numacube.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;

/**
 * An endpoint's answer: a status and the body, written straight to the response stream: JSON ({@code body}), or
 * bytes of another media type ({@code raw}, with its {@code contentType}; {@code body} is then unused). Immutable.
 *
 * @param status      the HTTP status
 * @param body        writes one JSON value
 * @param contentType the media type of {@code raw}, or null for JSON
 * @param raw         writes a body that is not JSON, or null
 */
record Reply(int status, Body body, String contentType, Raw raw) {

    /** A JSON answer. */
    Reply(int status, Body body) {
        this(status, body, null, null);
    }

    /** Writes the JSON body. */
    @FunctionalInterface
    interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    /** Writes a body that is not JSON. */
    @FunctionalInterface
    interface Raw {
        void write(OutputStream out) throws IOException;
    }

    static Reply ok(Body body) {
        return new Reply(200, body);
    }

    /** A 200 whose body is {@code raw}'s bytes, of media type {@code contentType}. */
    static Reply okBytes(String contentType, Raw raw) {
        return new Reply(200, null, contentType, raw);
    }
}
