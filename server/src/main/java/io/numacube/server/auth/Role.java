package io.numacube.server.auth;

import io.numacube.numa.base.NumacubeException;
import java.util.Locale;

/** What a user may do: a {@link #READER} runs queries; a {@link #WRITER} also writes (INSERT, COPY, UPDATE, DELETE, rows). */
public enum Role {
    READER,
    WRITER;

    /** The role's name in the auth file and on the command line: {@code reader}, {@code writer}. */
    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean mayWrite() {
        return this == WRITER;
    }

    /** @throws NumacubeException INVALID_INPUT naming the roles when {@code text} is none of them */
    public static Role parse(String text) {
        for (Role r : values()) {
            if (r.text().equals(text)) {
                return r;
            }
        }
        throw new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT, "unknown role: role=" + text + " — roles: reader, writer");
    }
}
