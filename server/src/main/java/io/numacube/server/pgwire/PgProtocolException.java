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
    private final String routine;

    public PgProtocolException(String sqlState, String message) {
        this(sqlState, message, false);
    }

    public PgProtocolException(String sqlState, String message, boolean fatal) {
        this(sqlState, message, fatal, null);
    }

    private PgProtocolException(String sqlState, String message, boolean fatal, String routine) {
        super(message, null, false, false);
        this.sqlState = sqlState;
        this.fatal = fatal;
        this.routine = routine;
    }

    /**
     * An Execute whose rows have other types than the client was told: PostgreSQL's 0A000 "cached plan must not
     * change result type" with its routine name, {@code RevalidateCachedQuery}, by which pgjdbc knows to prepare the
     * statement again and retry.
     */
    static PgProtocolException resultTypeChanged(String message) {
        return new PgProtocolException(ClientError.NOT_SUPPORTED, message, false, "RevalidateCachedQuery");
    }

    /** A malformed message: the stream can no longer be trusted, so the connection closes. */
    static PgProtocolException malformed(String message) {
        return new PgProtocolException(ClientError.PROTOCOL_VIOLATION, message, true);
    }

    /**
     * A message whose fields do not fit its type (a string without its zero byte, a count or length beyond its end,
     * bytes left over, an unknown subtype), its length being right: the next message is found all the same, so it is
     * an ERROR and the connection goes on, as in PostgreSQL.
     */
    static PgProtocolException invalidContent(String message) {
        return new PgProtocolException(ClientError.PROTOCOL_VIOLATION, message, false);
    }

    public String sqlState() {
        return sqlState;
    }

    public boolean fatal() {
        return fatal;
    }

    /** The ErrorResponse's routine field ({@code R}), or null for none. */
    public String routine() {
        return routine;
    }

    public ClientError toClientError() {
        return ClientError.of(sqlState, getMessage());
    }
}
