package io.numacube.numa.base;

/**
 * The one unchecked exception family of numacube. Every failure carries a {@link Kind} so that callers
 * (the CLI above all) can decide what to show and which exit code to use without parsing messages.
 *
 * <p>Messages follow one shape: the rule that was broken, then {@code name=value} facts, then what the
 * user can do. Example: {@code mbind failed: errno=EPERM(1) node=1 length=67108864 — running without
 * CAP_SYS_NICE? using first touch}.
 */
public class NumacubeException extends RuntimeException {

    /** What went wrong, in terms of who must act. */
    public enum Kind {
        /** Text that does not parse: SQL, CSV, a list such as {@code 0-3,8}. */
        SYNTAX,
        /** Parsed input that names something that does not exist or does not fit (unknown column, type mismatch). */
        BIND,
        /** A value or option outside what is allowed. */
        INVALID_INPUT,
        /** The operating system refused or lacks something (a syscall failed, a file is missing). */
        PLATFORM,
        /** Native or heap memory could not be had. */
        OUT_OF_MEMORY,
        /** A bug in numacube: an invariant broke. */
        INTERNAL
    }

    private final Kind kind;

    public NumacubeException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public NumacubeException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
