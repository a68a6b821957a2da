package io.numacube.engine;

/**
 * {@code DELETE FROM table [WHERE condition]}, as part of an atomic write ({@link Cube#write}). Immutable.
 *
 * @param sql the statement; errors give positions in it
 */
public record TableDelete(String sql) implements TableWrite {

    public TableDelete {
        java.util.Objects.requireNonNull(sql, "sql must not be null");
    }
}
