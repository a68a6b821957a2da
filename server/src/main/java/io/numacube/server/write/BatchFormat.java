package io.numacube.server.write;

/**
 * How the rows of a batch are written: CSV with a header row, or JSON lines (one object per line); or, for a DELETE,
 * its statement.
 */
public enum BatchFormat {
    /** RFC 4180 CSV, UTF-8, a header row naming the columns (any order); an empty unquoted field is NULL. */
    CSV,
    /** One JSON object per line, keys naming columns (any case); a missing key or {@code null} is NULL. */
    JSON_LINES,
    /** No rows: the body is a {@code DELETE FROM table [WHERE ...]} statement, UTF-8. */
    DELETE;

    /** The byte that stands for it in the write-ahead log. */
    public byte code() {
        return (byte) (this == CSV ? 'C' : this == JSON_LINES ? 'J' : 'D');
    }

    public static BatchFormat ofCode(byte code) {
        return switch (code) {
            case 'C' -> CSV;
            case 'J' -> JSON_LINES;
            case 'D' -> DELETE;
            default -> throw new IllegalArgumentException("no batch format has code " + code);
        };
    }
}
