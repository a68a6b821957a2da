package io.numacube.engine;

/**
 * {@code UPDATE table [[AS] alias] SET column = expression [, ...] [WHERE condition]}, as part of an atomic write
 * ({@link Cube#write}): the rows the condition keeps are deleted and appended again with their new values, in the
 * write's one new version, so a query sees every row before the UPDATE or every row after it. Immutable.
 *
 * @param sql the statement; errors give positions in it
 */
public record TableUpdate(String sql) implements TableWrite {

    public TableUpdate {
        java.util.Objects.requireNonNull(sql, "sql must not be null");
    }
}
