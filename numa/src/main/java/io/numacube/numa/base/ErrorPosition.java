package io.numacube.numa.base;

/**
 * Where an error is, as data: a position in a SQL statement ({@code file} null; {@code line} and {@code column}
 * 1-based within the statement's text), or in an input file ({@code file} as the user named it, its 1-based line and
 * column, and the field's name when known). Front ends (the CLI, HTTP, the PostgreSQL protocol) format it; nobody
 * parses it back out of a message. Immutable.
 *
 * @param file   the input file, or null for a position in SQL
 * @param line   1-based line
 * @param column 1-based column, or 0 when unknown
 * @param field  the column (field) name of an input file, or null
 */
public record ErrorPosition(String file, long line, int column, String field) {

    public ErrorPosition {
        if (line < 1 || column < 0) {
            throw new IllegalArgumentException("positions are 1-based: line=" + line + " column=" + column);
        }
    }

    /** A position in a SQL statement. */
    public static ErrorPosition sql(int line, int column) {
        return new ErrorPosition(null, line, column, null);
    }

    /** A position in an input file; {@code column} 0 and {@code field} null when unknown. */
    public static ErrorPosition file(String file, long line, int column, String field) {
        return new ErrorPosition(file, line, column, field);
    }

    public boolean inSql() {
        return file == null;
    }

    /** {@code line 3:14} in SQL, {@code trades.csv:1043:7} in a file (without the column when unknown). */
    public String text() {
        if (inSql()) {
            return "line " + line + ":" + column;
        }
        return file + ":" + line + (column > 0 ? ":" + column : "");
    }
}
