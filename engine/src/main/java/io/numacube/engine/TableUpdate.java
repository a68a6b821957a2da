package io.numacube.engine;

/**
 * {@code UPDATE table [[AS] alias] SET column = expression [, ...] [WHERE condition]}, as part of an atomic write
 * ({@link Cube#write}): the rows the condition keeps are deleted and appended again with their new values, in the
 * write's one new version, so a query sees every row before the UPDATE or every row after it. Immutable.
 *
 * @param sql   the statement; errors give positions in it
 * @param clock the wall clock its clock functions ({@code now()}, {@code current_date}, their synonyms) read, to the
 *     microsecond, wherever in the statement and however often it is applied (tried, then written, then replayed
 *     from a log): {@link TableWrite#clockNow()} when it was made, unless given
 * @param replayed whether it is read back from a log, acknowledged already: its SET expressions are cast to their
 *     columns without the assignment check ({@link io.numacube.engine.sql.UpdateStatement#values(
 *     io.numacube.engine.schema.TableSchema, io.numacube.engine.sql.AssignedLiterals.TextCheck, boolean)}) that a
 *     build before that check did not make, so a log it wrote replays as it was applied
 */
public record TableUpdate(String sql, java.time.LocalDateTime clock, boolean replayed) implements TableWrite {

    public TableUpdate {
        java.util.Objects.requireNonNull(sql, "sql must not be null");
        clock = java.util.Objects.requireNonNull(clock, "clock must not be null")
                .truncatedTo(java.time.temporal.ChronoUnit.MICROS);
    }

    /** An UPDATE issued now (not replayed), reading {@code clock}. */
    public TableUpdate(String sql, java.time.LocalDateTime clock) {
        this(sql, clock, false);
    }

    /** The UPDATE reading the clock as it is now. */
    public TableUpdate(String sql) {
        this(sql, TableWrite.clockNow());
    }
}
