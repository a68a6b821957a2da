package io.numacube.server.auth;

import io.numacube.numa.base.NumacubeException;

/**
 * Who a request or connection acts as: the user's name and role. Without an auth file every client is a
 * {@link #unauthenticated} writer (the server then listens on loopback only). Immutable.
 *
 * @param user the user name (as authenticated, or as the client gave it when nothing is checked)
 * @param role what the user may do
 */
public record Identity(String user, Role role) {

    /** SQLSTATE insufficient_privilege, as PostgreSQL answers a write without the right. */
    public static final String INSUFFICIENT_PRIVILEGE = "42501";

    public Identity {
        java.util.Objects.requireNonNull(user, "user must not be null");
        java.util.Objects.requireNonNull(role, "role must not be null");
    }

    /** A client of a server without an auth file: nothing is checked, and it may write. */
    public static Identity unauthenticated(String user) {
        return new Identity(user, Role.WRITER);
    }

    /**
     * @throws NumacubeException SQLSTATE 42501 "permission denied for table ..." when the role may not write
     */
    public void checkMayWrite(String table) {
        if (!role.mayWrite()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    INSUFFICIENT_PRIVILEGE,
                    "permission denied for table " + table + ": user=" + user + " role=" + role.text()
                            + " — writes (INSERT, COPY, UPDATE, DELETE, POST /v1/tables/NAME/rows) need role writer",
                    null,
                    null);
        }
    }
}
