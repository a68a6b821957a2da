package io.numacube.engine;

/**
 * One change to one table, as part of an atomic write ({@link Cube#write}): rows appended ({@link TableBatch}), rows
 * deleted ({@link TableDelete}) or rows changed ({@link TableUpdate}).
 */
public sealed interface TableWrite permits TableBatch, TableDelete, TableUpdate {

    /**
     * The wall clock of the JVM's time zone now, to the microsecond: what the clock functions of a statement
     * ({@code now()}, {@code current_date}, {@code localtimestamp}, their synonyms) read when it is made. numacube has
     * no time zones: {@code now()} is this wall clock as a TIMESTAMP, so a write keeps this reading, not an instant,
     * and reads the same values wherever it is applied again.
     */
    static java.time.LocalDateTime clockNow() {
        return io.numacube.engine.sql.StatementClock.wallClockNow();
    }
}
