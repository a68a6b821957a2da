package io.numacube.bench.peer;

import java.util.List;

/**
 * Rows of one table to load into a peer engine, produced row by row into a {@link RowSink}, so that the peer gets
 * exactly the rows numacube holds without an intermediate file.
 *
 * <p>Contract: {@link #produce} calls, for each row, {@code beginRow}, then one append per column in the order and
 * of the types of {@link #columns()}, then {@code endRow}; it produces {@link #rowCount()} rows; calling it twice
 * produces the same rows. Implementations say whether they are thread-safe; the bench calls them from one thread.
 */
public interface TableSource {

    /** SQL types a column can have in the peer. */
    enum SqlType {
        BIGINT, INTEGER, DOUBLE, VARCHAR, DATE
    }

    /** One column: its name and SQL type. */
    record Column(String name, SqlType type) {
    }

    String tableName();

    List<Column> columns();

    long rowCount();

    /** Produces every row into {@code sink} (see the type's contract). */
    void produce(RowSink sink) throws Exception;

    /** Receives rows; dates are days since 1970-01-01. Not thread-safe. */
    interface RowSink {
        void beginRow() throws Exception;

        void appendLong(long v) throws Exception;

        void appendInt(int v) throws Exception;

        void appendDouble(double v) throws Exception;

        void appendString(String v) throws Exception;

        void appendEpochDay(int v) throws Exception;

        void endRow() throws Exception;
    }
}
