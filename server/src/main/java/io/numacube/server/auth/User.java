package io.numacube.server.auth;

import io.numacube.numa.base.NumacubeException;

/**
 * A user of the auth file: a name, a role and the verifier of the password. A name is 1 to 63 characters (PostgreSQL's
 * longest), without {@code :} (HTTP Basic and the auth file separate fields with it), white space or control
 * characters, and does not start with {@code #} (a comment line). Immutable.
 *
 * @param name     the user name, as clients give it
 * @param role     what the user may do
 * @param verifier checks the password
 */
public record User(String name, Role role, ScramVerifier verifier) {

    /** PostgreSQL's NAMEDATALEN less one. */
    public static final int MAX_NAME_CHARS = 63;

    public User {
        checkName(name);
        java.util.Objects.requireNonNull(role, "role must not be null");
        java.util.Objects.requireNonNull(verifier, "verifier must not be null");
    }

    /** @throws NumacubeException INVALID_INPUT with the rule the name breaks */
    public static void checkName(String name) {
        String rule = null;
        if (name == null || name.isEmpty()) {
            rule = "a user name must not be empty";
        } else if (name.length() > MAX_NAME_CHARS) {
            rule = "a user name has at most " + MAX_NAME_CHARS + " characters: chars=" + name.length();
        } else if (name.startsWith("#")) {
            rule = "a user name must not start with #";
        } else if (name.chars().anyMatch(c -> c == ':' || Character.isWhitespace(c) || Character.isISOControl(c))) {
            rule = "a user name must not contain ':', white space or control characters: user=" + name.strip();
        }
        if (rule != null) {
            throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT, rule);
        }
    }

    public Identity identity() {
        return new Identity(name, role);
    }
}
