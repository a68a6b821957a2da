package io.numacube.engine.sqltest;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A 1-based line:column position in a SQL text, as written in {@code statement error L:C}. Immutable.
 *
 * <p>{@link #reportedIn} is the one place that reads the position an engine error reports. Today the engine puts it
 * only into the message text ({@code ... at line 1:8 ...}, written by SqlBinder); when errors carry the position as a
 * field, only that method changes.
 */
record SqlPosition(int line, int column) {

    private static final Pattern AT_LINE = Pattern.compile(" at line (\\d+):(\\d+)");

    /** Parses {@code L:C}; empty when the text is not of that form. */
    static Optional<SqlPosition> parse(String text) {
        Matcher m = Pattern.compile("(\\d+):(\\d+)").matcher(text);
        return m.matches() ? Optional.of(new SqlPosition(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))))
                : Optional.empty();
    }

    /** The position an engine error reports, read from its message; empty when it reports none. */
    static Optional<SqlPosition> reportedIn(RuntimeException error) {
        String message = error.getMessage();
        Matcher m = AT_LINE.matcher(message == null ? "" : message);
        return m.find() ? Optional.of(new SqlPosition(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))))
                : Optional.empty();
    }

    @Override
    public String toString() {
        return line + ":" + column;
    }
}
