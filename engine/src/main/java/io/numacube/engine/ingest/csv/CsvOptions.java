package io.numacube.engine.ingest.csv;

import io.numacube.numa.base.NumacubeException;

/**
 * How CSV text is read. Immutable.
 *
 * @param delimiter    the field separator, one ASCII character other than a quote or line break ({@code ,} by default)
 * @param sampleRows   how many data rows schema inference looks at (10,000 by default)
 * @param bufferBytes  the read buffer size (1 MiB by default); it grows for records longer than this
 */
public record CsvOptions(char delimiter, int sampleRows, int bufferBytes) {

    /** Comma-separated, 10,000 sample rows, 1 MiB buffer. */
    public static final CsvOptions DEFAULT = new CsvOptions(',', 10_000, 1 << 20);

    public CsvOptions {
        checkDelimiter(delimiter);
        if (sampleRows < 1 || bufferBytes < 64) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "CSV sample rows and buffer must be positive: sampleRows=" + sampleRows + " bufferBytes="
                            + bufferBytes);
        }
    }

    /** @throws NumacubeException INVALID_INPUT unless {@code delimiter} is ASCII and not a quote or line break */
    static void checkDelimiter(char delimiter) {
        if (delimiter > 127 || delimiter == '"' || delimiter == '\n' || delimiter == '\r') {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "the CSV delimiter must be one ASCII character other than a quote or line break: delimiter="
                            + delimiter + " — use e.g. ',' ';' '|' or a tab");
        }
    }

    public CsvOptions withDelimiter(char d) {
        return new CsvOptions(d, sampleRows, bufferBytes);
    }

    public CsvOptions withSampleRows(int rows) {
        return new CsvOptions(delimiter, rows, bufferBytes);
    }

    public CsvOptions withBufferBytes(int bytes) {
        return new CsvOptions(delimiter, sampleRows, bytes);
    }
}
