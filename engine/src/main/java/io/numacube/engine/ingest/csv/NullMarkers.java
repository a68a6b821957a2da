package io.numacube.engine.ingest.csv;

import io.numacube.engine.schema.ColumnType;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Which CSV fields are SQL NULL: a field whose text is empty, or equal byte for byte to one of
 * {@link CsvOptions#nullStrings()} (no trimming: {@code " NA"} is not {@code NA}).
 *
 * <p>Quotes keep text as text. In a STRING column a quoted field is never NULL: {@code ""} is the empty string and
 * {@code "NA"} the text NA, as PostgreSQL's {@code COPY} reads them and as numacube's and DuckDB's CSV writers write
 * them (an empty string as {@code ""}, NULL as an empty field). In a number or date column, which holds no text, a
 * quoted empty field or marker is NULL as well, as DuckDB's {@code read_csv} reads it.
 *
 * <p>Immutable; thread-safe.
 */
final class NullMarkers {

    private final byte[][] markers;

    NullMarkers(List<String> nullStrings) {
        markers = new byte[nullStrings.size()][];
        for (int i = 0; i < markers.length; i++) {
            markers[i] = nullStrings.get(i).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Whether field {@code f} of the scanner's current record is NULL in a column of {@code type}. */
    boolean isNull(CsvRecordScanner scanner, int f, ColumnType type) {
        if (type == ColumnType.STRING && scanner.fieldQuoted(f)) {
            return false;
        }
        return isNullText(scanner, f);
    }

    /**
     * Whether field {@code f} is empty or a marker, quoted or not: what schema inference leaves out, since it is NULL
     * in whichever number or date type the column gets (and a column of nothing else is STRING).
     */
    boolean isNullText(CsvRecordScanner scanner, int f) {
        int s = scanner.fieldStart(f);
        int e = scanner.fieldEnd(f);
        if (s == e) {
            return true;
        }
        byte[] b = scanner.buffer();
        for (byte[] m : markers) {
            if (m.length == e - s && java.util.Arrays.equals(b, s, e, m, 0, m.length)) {
                return true;
            }
        }
        return false;
    }
}
