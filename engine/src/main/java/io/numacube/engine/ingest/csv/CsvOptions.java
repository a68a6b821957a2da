package io.numacube.engine.ingest.csv;

import io.numacube.numa.base.NumacubeException;
import java.util.List;

/**
 * How CSV text is read. Immutable.
 *
 * @param delimiter    the field separator, one ASCII character other than a quote or line break ({@code ,} by default)
 * @param sampleRows   how many data rows schema inference looks at (10,000 by default)
 * @param bufferBytes  the read buffer size (1 MiB by default); it grows for records longer than this
 * @param nullStrings  texts read as SQL NULL besides the empty field, such as {@code NA} or {@code \N} (none by
 *                     default): each is matched against a field's whole text, and none may be empty or contain a quote,
 *                     a line break or the delimiter, which no unquoted field holds ({@link NullMarkers} says where they
 *                     apply)
 * @param postgresBooleans whether a BOOLEAN column's fields are read as PostgreSQL reads boolean text ({@link
 *                     io.numacube.engine.schema.BooleanText}: {@code on}, {@code off}, prefixes, blanks around), as
 *                     the server's COPY does, rather than as DuckDB reads a CSV file (false by default)
 */
public record CsvOptions(
        char delimiter, int sampleRows, int bufferBytes, List<String> nullStrings, boolean postgresBooleans) {

    /** Comma-separated, 10,000 sample rows, 1 MiB buffer, only the empty field is NULL, booleans as DuckDB's. */
    public static final CsvOptions DEFAULT = new CsvOptions(',', 10_000, 1 << 20, List.of(), false);

    public CsvOptions {
        checkDelimiter(delimiter);
        nullStrings = List.copyOf(nullStrings);
        for (String marker : nullStrings) {
            checkNullString(marker, delimiter);
        }
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

    /** @throws NumacubeException INVALID_INPUT when no unquoted field could hold {@code marker} */
    private static void checkNullString(String marker, char delimiter) {
        String bad = null;
        if (marker.isEmpty()) {
            bad = "is empty (an empty field is always NULL)";
        } else if (marker.indexOf('"') >= 0 || marker.indexOf('\n') >= 0 || marker.indexOf('\r') >= 0) {
            bad = "holds a quote or line break";
        } else if (marker.indexOf(delimiter) >= 0) {
            bad = "holds the delimiter";
        }
        if (bad != null) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a CSV NULL string must be text an unquoted field can hold: null=\"" + marker + "\" " + bad
                            + " — use e.g. NA, NULL or \\N");
        }
    }

    public CsvOptions withDelimiter(char d) {
        return new CsvOptions(d, sampleRows, bufferBytes, nullStrings, postgresBooleans);
    }

    public CsvOptions withSampleRows(int rows) {
        return new CsvOptions(delimiter, rows, bufferBytes, nullStrings, postgresBooleans);
    }

    public CsvOptions withBufferBytes(int bytes) {
        return new CsvOptions(delimiter, sampleRows, bytes, nullStrings, postgresBooleans);
    }

    /** These options with {@code markers} as the texts read as NULL besides the empty field. */
    public CsvOptions withNullStrings(List<String> markers) {
        return new CsvOptions(delimiter, sampleRows, bufferBytes, markers, postgresBooleans);
    }

    /** These options with a BOOLEAN column's fields read as PostgreSQL reads boolean text. */
    public CsvOptions withPostgresBooleans() {
        return new CsvOptions(delimiter, sampleRows, bufferBytes, nullStrings, true);
    }
}
