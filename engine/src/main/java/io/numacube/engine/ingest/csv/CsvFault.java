package io.numacube.engine.ingest.csv;

/**
 * A malformed record found by the scanner or a value converter, before the file name and field name are known.
 * {@link CsvTableReader} turns it into a {@link io.numacube.numa.base.NumacubeException} of kind INVALID_INPUT. Immutable.
 */
class CsvFault extends RuntimeException {

    /** Values longer than this are cut in messages. */
    static final int MAX_VALUE_BYTES = 80;

    private final long line;
    private final long column;
    private final int field;
    private final String value;

    CsvFault(long line, long column, int field, String reason, String value) {
        super(reason, null, false, false);
        this.line = line;
        this.column = column;
        this.field = field;
        this.value = value;
    }

    long line() {
        return line;
    }

    long column() {
        return column;
    }

    /** The 0-based field index in the record. */
    int field() {
        return field;
    }

    String reason() {
        return getMessage();
    }

    /** The offending text, or null when there is none to show. */
    String value() {
        return value;
    }
}
