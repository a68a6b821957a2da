package io.numacube.server.write;

/**
 * How the rows of a batch are written: CSV with a header row, or JSON lines (one object per line); or, for a DELETE or
 * an UPDATE, its statement.
 */
public enum BatchFormat {
    /** RFC 4180 CSV, UTF-8, a header row naming the columns (any order); an empty unquoted field is NULL. */
    CSV,
    /** One JSON object per line, keys naming columns (any case); a missing key or {@code null} is NULL. */
    JSON_LINES,
    /** No rows: the body is a {@code DELETE FROM table [WHERE ...]} statement, UTF-8. */
    DELETE,
    /** No rows: the body is an {@code UPDATE table SET ... [WHERE ...]} statement, UTF-8. */
    UPDATE;

    /** Whether the body is a statement the cube runs (DELETE, UPDATE) rather than rows. */
    public boolean isStatement() {
        return this == DELETE || this == UPDATE;
    }

    /** The byte that stands for it in the write-ahead log. */
    public byte code() {
        return (byte)
                switch (this) {
                    case CSV -> 'C';
                    case JSON_LINES -> 'J';
                    case DELETE -> 'D';
                    case UPDATE -> 'U';
                };
    }

    public static BatchFormat ofCode(byte code) {
        return switch (code) {
            case 'C' -> CSV;
            case 'J' -> JSON_LINES;
            case 'D' -> DELETE;
            case 'U' -> UPDATE;
            default -> throw new IllegalArgumentException("no batch format has code " + code);
        };
    }
}
