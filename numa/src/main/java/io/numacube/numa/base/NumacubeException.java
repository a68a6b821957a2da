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
    private final String code;
    private final String detail;
    private final ErrorPosition position;

    public NumacubeException(Kind kind, String message) {
        this(kind, null, message, null, null);
    }

    public NumacubeException(Kind kind, String message, Throwable cause) {
        this(kind, null, message, null, cause);
    }

    /**
     * @param code     the SQLSTATE, or null for the default of {@code kind} ({@link #defaultCode})
     * @param detail   what is wrong, without the position: the rule, the facts, what to do
     * @param position where, or null; the message adds it ({@code detail at line 1:8} for SQL,
     *                 {@code file:line:column: detail} for a file)
     */
    public NumacubeException(Kind kind, String code, String detail, ErrorPosition position, Throwable cause) {
        super(message(detail, position), cause);
        this.kind = kind;
        this.code = code == null ? defaultCode(kind) : code;
        this.detail = detail;
        this.position = position;
    }

    private static String message(String detail, ErrorPosition position) {
        if (position == null) {
            return detail;
        }
        return position.inSql() ? detail + " at " + position.text() : position.text() + ": " + detail;
    }

    public Kind kind() {
        return kind;
    }

    /**
     * The stable error code: a PostgreSQL SQLSTATE (42601 syntax error, 42703 undefined column, 0A000 feature not
     * supported, 22P02 invalid text representation, 22003 numeric value out of range, ...), so that every front end
     * reports the same code for the same error.
     */
    public String code() {
        return code;
    }

    /** The message without its position. */
    public String detail() {
        return detail;
    }

    /** Where the error is, when it has a place in SQL or in an input file. */
    public java.util.Optional<ErrorPosition> position() {
        return java.util.Optional.ofNullable(position);
    }

    /** The SQLSTATE of an error of {@code kind} that names no more precise one. */
    public static String defaultCode(Kind kind) {
        return switch (kind) {
            case SYNTAX -> "42601";
            case BIND -> "42000";
            case INVALID_INPUT -> "22023";
            case PLATFORM -> "58000";
            case OUT_OF_MEMORY -> "53200";
            case INTERNAL -> "XX000";
        };
    }
}
