package io.numacube.engine;

/**
 * {@code DELETE FROM table [WHERE condition]}, as part of an atomic write ({@link Cube#write}). Immutable.
 *
 * @param sql   the statement; errors give positions in it
 * @param clock the wall clock its clock functions ({@code now()}, {@code current_date}, their synonyms) read, to the
 *     microsecond, wherever in the statement and however often it is applied (tried, then written, then replayed
 *     from a log): {@link TableWrite#clockNow()} when it was made, unless given
 */
public record TableDelete(String sql, java.time.LocalDateTime clock) implements TableWrite {

    public TableDelete {
        java.util.Objects.requireNonNull(sql, "sql must not be null");
        clock = java.util.Objects.requireNonNull(clock, "clock must not be null")
                .truncatedTo(java.time.temporal.ChronoUnit.MICROS);
    }

    /** The DELETE reading the clock as it is now. */
    public TableDelete(String sql) {
        this(sql, TableWrite.clockNow());
    }
}
