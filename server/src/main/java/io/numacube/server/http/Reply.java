package io.numacube.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * An endpoint's answer: a status and the JSON body, written straight to the response stream. Immutable.
 *
 * @param status the HTTP status
 * @param body   writes one JSON value
 */
record Reply(int status, Body body) {

    /** Writes the JSON body. */
    @FunctionalInterface
    interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    static Reply ok(Body body) {
        return new Reply(200, body);
    }
}
