package io.numacube.server.write;

/** How the rows of a batch are written: CSV with a header row, or JSON lines (one object per line). */
public enum BatchFormat {
    /** RFC 4180 CSV, UTF-8, a header row naming the columns (any order); an empty unquoted field is NULL. */
    CSV,
    /** One JSON object per line, keys naming columns (any case); a missing key or {@code null} is NULL. */
    JSON_LINES;

    /** The byte that stands for it in the write-ahead log. */
    public byte code() {
        return (byte) (this == CSV ? 'C' : 'J');
    }

    /**
     * The format {@link #code} stands for.
     *
     * @throws IllegalArgumentException for a byte that is no format's code
     */
    public static BatchFormat ofCode(byte code) {
        return switch (code) {
            case 'C' -> CSV;
            case 'J' -> JSON_LINES;
            default -> throw new IllegalArgumentException("no batch format has code " + code);
        };
    }
}
