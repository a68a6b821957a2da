package io.numacube.server.query;

import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;

/**
 * What a client is told about a failed request: a PostgreSQL SQLSTATE, a one-line message, and where in the SQL the
 * error is when the engine knows. Both front ends build their error replies from it, so HTTP and the PostgreSQL
 * protocol report the same code and text for the same error. A bug or an unexpected exception becomes
 * {@code XX000} with a generic message: its stack trace goes to the server's log, never to a client. Immutable.
 *
 * @param sqlState the five-character SQLSTATE ({@code 42601} syntax error, {@code 42P01} undefined table, ...)
 * @param message  what is wrong, without the position
 * @param position where in the statement (line and column, 1-based), or null
 */
public record ClientError(String sqlState, String message, ErrorPosition position) {

    private static final System.Logger LOG = System.getLogger(ClientError.class.getName());

    /** SQLSTATE of a statement cancelled by a timeout or a client's cancel request. */
    public static final String QUERY_CANCELED = "57014";
    /** SQLSTATE of a request refused because too many queries run or wait (too_many_connections, as PostgreSQL). */
    public static final String TOO_BUSY = "53300";
    /** SQLSTATE of a request refused because the server is shutting down. */
    public static final String SHUTTING_DOWN = "57P01";
    /** SQLSTATE of a limit exceeded: a body or statement too long. */
    public static final String LIMIT_EXCEEDED = "54000";
    /** SQLSTATE of a malformed request or protocol message. */
    public static final String PROTOCOL_VIOLATION = "08P01";
    /** SQLSTATE of a feature numacube does not have. */
    public static final String NOT_SUPPORTED = "0A000";
    /** SQLSTATE of an internal error. */
    public static final String INTERNAL = "XX000";

    public ClientError {
        java.util.Objects.requireNonNull(sqlState, "sqlState must not be null");
        java.util.Objects.requireNonNull(message, "message must not be null");
    }

    /** An error without a position. */
    public static ClientError of(String sqlState, String message) {
        return new ClientError(sqlState, message, null);
    }

    /**
     * The error a client sees for {@code failure}: a {@link NumacubeException}'s code, detail and SQL position, except
     * for an INTERNAL one; anything else is internal. Internal errors are logged here with their stack trace.
     */
    public static ClientError of(Throwable failure) {
        if (failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null) {
            return of(failure.getCause());
        }
        if (failure instanceof NumacubeException e && e.kind() != NumacubeException.Kind.INTERNAL) {
            ErrorPosition at = e.position().filter(ErrorPosition::inSql).orElse(null);
            return new ClientError(e.code(), at == null ? e.getMessage() : e.detail(), at);
        }
        if (failure instanceof OutOfMemoryError) {
            LOG.log(System.Logger.Level.ERROR, "a request ran out of Java heap", failure);
            return of("53200", "out of memory: the server's Java heap is full — retry later or give it more heap");
        }
        if (failure instanceof StackOverflowError) {
            return of("54001", "statement too complex: it is nested too deeply to run");
        }
        LOG.log(System.Logger.Level.ERROR, "internal error answering a request", failure);
        return of(INTERNAL, "internal error: the server's log has the details");
    }

    /** The failure as an exception carrying this code, for code that reports errors by throwing. */
    public NumacubeException toException() {
        return new NumacubeException(NumacubeException.Kind.INVALID_INPUT, sqlState, message, position, null);
    }
}
