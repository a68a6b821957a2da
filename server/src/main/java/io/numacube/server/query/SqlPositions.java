package io.numacube.server.query;

/**
 * Converts between the engine's SQL positions (1-based line and column, columns in UTF-16 characters, lines ended by
 * {@code \n}) and PostgreSQL's (a 1-based character position in the query string, counted in characters, which for
 * text beyond the Basic Multilingual Plane differ from UTF-16 units). Stateless.
 */
public final class SqlPositions {

    private SqlPositions() {}

    /** The 0-based UTF-16 index of line {@code line}, column {@code column} in {@code sql}, clamped to its length. */
    public static int index(String sql, long line, int column) {
        int at = 0;
        for (long l = 1; l < line; l++) {
            int nl = sql.indexOf('\n', at);
            if (nl < 0) {
                return sql.length();
            }
            at = nl + 1;
        }
        return Math.min(sql.length(), at + Math.max(0, column - 1));
    }

    /** PostgreSQL's 1-based character position of the UTF-16 index {@code index} in {@code text}. */
    public static int characterPosition(String text, int index) {
        return text.codePointCount(0, Math.min(index, text.length())) + 1;
    }

    /** The engine's position (1-based line and column) of the 0-based UTF-16 index {@code index} in {@code sql}. */
    public static io.numacube.numa.base.ErrorPosition lineAndColumn(String sql, int index) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < Math.min(index, sql.length()); i++) {
            if (sql.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return io.numacube.numa.base.ErrorPosition.sql(line, index - lineStart + 1);
    }
}
