package io.numacube.server.pgwire;

import io.numacube.server.query.ClientError;

/**
 * A message the server refuses: malformed bytes, a message over the size limit, a reference to a statement or portal
 * that does not exist, a value that cannot be read. Carries the SQLSTATE of the ErrorResponse it becomes;
 * {@link #fatal} ones also close the connection. Immutable.
 */
public final class PgProtocolException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String sqlState;
    private final boolean fatal;

    public PgProtocolException(String sqlState, String message) {
        this(sqlState, message, false);
    }

    public PgProtocolException(String sqlState, String message, boolean fatal) {
        super(message, null, false, false);
        this.sqlState = sqlState;
        this.fatal = fatal;
    }

    /** A malformed message: the stream can no longer be trusted, so the connection closes. */
    static PgProtocolException malformed(String message) {
        return new PgProtocolException(ClientError.PROTOCOL_VIOLATION, message, true);
    }

    public String sqlState() {
        return sqlState;
    }

    public boolean fatal() {
        return fatal;
    }

    public ClientError toClientError() {
        return ClientError.of(sqlState, getMessage());
    }
}
