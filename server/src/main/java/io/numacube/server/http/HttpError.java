package io.numacube.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.numacube.server.auth.Identity;
import io.numacube.server.query.ClientError;
import java.io.IOException;

/**
 * A request that fails with an HTTP status and the error body a client reads:
 *
 * <pre>{@code
 * {"error": {"code": "42703", "message": "no such column: column=nosuch tables=trades",
 *            "line": 1, "column": 8, "position": 8}}
 * }</pre>
 *
 * {@code code} is the PostgreSQL SQLSTATE ({@link ClientError}); {@code line} and {@code column} (1-based) and
 * {@code position} (the 1-based character in the SQL as sent, as PostgreSQL's {@code P} field) are there only when
 * the error has a place in the SQL. Thrown by the endpoints and answered by {@link HttpFrontEnd}; it never reaches a
 * client as a stack trace. Immutable.
 */
final class HttpError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final transient ClientError error;
    private final int position;

    /** @param position the 1-based character in the SQL as sent, or 0 when the error has no place in it */
    HttpError(int status, ClientError error, int position) {
        super(error.message(), null, false, false);
        this.status = status;
        this.error = error;
        this.position = position;
    }

    HttpError(int status, String sqlState, String message) {
        this(status, ClientError.of(sqlState, message), 0);
    }

    int status() {
        return status;
    }

    void write(JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart("error");
        g.writeStringField("code", error.sqlState());
        g.writeStringField("message", error.message());
        if (error.position() != null) {
            g.writeNumberField("line", error.position().line());
            g.writeNumberField("column", error.position().column());
        }
        if (position > 0) {
            g.writeNumberField("position", position);
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    /**
     * The HTTP status for an error of the engine or the query service: 503 when the server is too busy, out of
     * memory or shutting down, 504 for a statement timeout or cancel (57014), 500 for internal and platform errors,
     * 401 for failed authentication (28000, 28P01), 403 for a write without the right (42501),
     * 400 for everything the client can fix (bad SQL, unknown table or column, unsupported SQL, bad values).
     */
    static int statusOf(String sqlState) {
        return switch (sqlState) {
            case "28000", "28P01" -> 401;
            case Identity.INSUFFICIENT_PRIVILEGE -> 403;
            case ClientError.TOO_BUSY, ClientError.SHUTTING_DOWN, "53200" -> 503;
            case ClientError.QUERY_CANCELED -> 504;
            case ClientError.INTERNAL, "58000" -> 500;
            default -> 400;
        };
    }
}
