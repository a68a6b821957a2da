package io.numacube.engine.sqltest;

import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A 1-based line:column position in a SQL text, as written in {@code statement error L:C}. Immutable.
 *
 * <p>{@link #reportedIn} reads the position an engine error carries as data
 * ({@link NumacubeException#position()}), never from its message.
 */
record SqlPosition(int line, int column) {

    /** Parses {@code L:C}; empty when the text is not of that form. */
    static Optional<SqlPosition> parse(String text) {
        Matcher m = Pattern.compile("(\\d+):(\\d+)").matcher(text);
        return m.matches()
                ? Optional.of(new SqlPosition(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))))
                : Optional.empty();
    }

    /** The SQL position an engine error carries; empty when it has none (or is no NumacubeException). */
    static Optional<SqlPosition> reportedIn(RuntimeException error) {
        return error instanceof NumacubeException e
                ? e.position().filter(ErrorPosition::inSql).map(p -> new SqlPosition((int) p.line(), p.column()))
                : Optional.empty();
    }

    @Override
    public String toString() {
        return line + ":" + column;
    }
}
