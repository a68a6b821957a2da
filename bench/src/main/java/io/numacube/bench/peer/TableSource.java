package io.numacube.bench.peer;

import java.util.List;

/**
 * Rows of one table to load into a peer engine, produced row by row into a {@link RowSink}, so that the peer gets
 * exactly the rows numacube holds without an intermediate file.
 *
 * <p>Contract: {@link #produce} calls, for each row of {@code [fromRow, toRow)}, {@code beginRow}, then one append
 * per column in the order and of the types of {@link #columns()} ({@code appendCode} for {@link SqlType#CODED_VARCHAR}
 * columns: an index into the column's dictionary; {@code appendNull} for a NULL of any type), then {@code endRow};
 * calling it twice produces the same rows.
 * Thread-safe: the peer calls {@code produce} from several threads at once, each with its own sink and range.
 */
public interface TableSource {

    /** SQL types a column can have in the peer. */
    enum SqlType {
        BIGINT,
        INTEGER,
        DOUBLE,
        VARCHAR,
        DATE,
        /** A VARCHAR given as a code into {@link Column#dictionary()} (how numacube stores it). */
        CODED_VARCHAR
    }

    /**
     * One column: its name, SQL type and, for {@code CODED_VARCHAR}, the dictionary (code i is dictionary.get(i)).
     */
    record Column(String name, SqlType type, List<String> dictionary) {
        public Column {
            dictionary = dictionary == null ? List.of() : List.copyOf(dictionary);
            if (type == SqlType.CODED_VARCHAR && dictionary.isEmpty()) {
                throw new IllegalArgumentException("a coded column needs its dictionary: column=" + name);
            }
        }

        public Column(String name, SqlType type) {
            this(name, type, List.of());
        }
    }

    String tableName();

    List<Column> columns();

    long rowCount();

    /** Produces rows {@code [fromRow, toRow)} into {@code sink} (see the type's contract). */
    void produce(RowSink sink, long fromRow, long toRow) throws Exception;

    /** Receives rows; dates are days since 1970-01-01. Not thread-safe. */
    interface RowSink {
        void beginRow() throws Exception;

        void appendLong(long v) throws Exception;

        void appendInt(int v) throws Exception;

        void appendDouble(double v) throws Exception;

        void appendString(String v) throws Exception;

        void appendCode(int code) throws Exception;

        void appendEpochDay(int v) throws Exception;

        /** A NULL in place of the column's value. */
        void appendNull() throws Exception;

        void endRow() throws Exception;
    }
}
