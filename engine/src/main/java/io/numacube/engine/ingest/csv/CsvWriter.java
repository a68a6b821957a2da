package io.numacube.engine.ingest.csv;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;

/**
 * Writes RFC 4180 CSV that {@link CsvTableReader} reads back to the same values: LF line ends; a text field is quoted
 * when it is empty (so it is not read as missing) or holds the delimiter, a quote, CR, LF, or leading or trailing
 * spaces or tabs, with quotes doubled; doubles in {@link Double#toString} form (shortest round-trip digits); dates
 * {@code yyyy-MM-dd}. Delimiters between fields are added automatically.
 *
 * <p>Not thread-safe. Buffers internally; {@link #close()} flushes and closes the stream.
 */
public final class CsvWriter implements AutoCloseable {

    private final OutputStream out;
    private final byte delimiter;
    private final byte[] buf = new byte[1 << 16];
    private int pos;
    private boolean rowStarted;

    public CsvWriter(OutputStream out, char delimiter) {
        CsvOptions.checkDelimiter(delimiter);
        this.out = out;
        this.delimiter = (byte) delimiter;
    }

    public CsvWriter(OutputStream out) {
        this(out, ',');
    }

    /** Writes the header row: the schema's column names. */
    public void writeHeader(TableSchema schema) throws IOException {
        for (ColumnSpec c : schema.columns()) {
            writeString(c.name());
        }
        endRow();
    }

    public void writeString(String value) throws IOException {
        separate();
        int n = value.length();
        boolean quote = n == 0
                || value.charAt(0) == ' '
                || value.charAt(0) == '\t'
                || value.charAt(n - 1) == ' '
                || value.charAt(n - 1) == '\t';
        boolean ascii = true;
        for (int i = 0; i < n && !quote; i++) {
            char c = value.charAt(i);
            if (c == (char) delimiter || c == '"' || c == '\n' || c == '\r') {
                quote = true;
            } else if (c >= 0x80) {
                ascii = false;
            }
        }
        if (!quote && ascii && n <= buf.length) {
            ensure(n);
            for (int i = 0; i < n; i++) {
                buf[pos++] = (byte) value.charAt(i);
            }
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (!quote) {
            put(bytes);
            return;
        }
        ensure(1);
        buf[pos++] = '"';
        for (byte b : bytes) {
            ensure(2);
            if (b == '"') {
                buf[pos++] = '"';
            }
            buf[pos++] = b;
        }
        ensure(1);
        buf[pos++] = '"';
    }

    public void writeLong(long value) throws IOException {
        separate();
        ensure(20);
        if (value < 0) {
            buf[pos++] = '-';
        } else {
            value = -value;
        }
        // digits of a non-positive value, so that Long.MIN_VALUE works
        int start = pos;
        do {
            buf[pos++] = (byte) ('0' - (value % 10));
            value /= 10;
        } while (value != 0);
        for (int i = start, j = pos - 1; i < j; i++, j--) {
            byte t = buf[i];
            buf[i] = buf[j];
            buf[j] = t;
        }
    }

    /**
     * Writes a double; NaN and the infinities as DuckDB's CSV writer does: {@code nan}, {@code inf}, {@code -inf}
     * (a query result may hold them; the reader refuses them, as numacube's DOUBLE columns hold finite values only).
     */
    public void writeDouble(double value) throws IOException {
        separate();
        String s = Double.isNaN(value)
                ? "nan"
                : value == Double.POSITIVE_INFINITY
                        ? "inf"
                        : value == Double.NEGATIVE_INFINITY ? "-inf" : Double.toString(value);
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[pos++] = (byte) s.charAt(i);
        }
    }

    /** A DECIMAL as DuckDB's CSV writer writes it: every digit of its scale, no exponent ({@code 1.20}). */
    public void writeDecimal(java.math.BigDecimal value) throws IOException {
        separate();
        String s = value.toPlainString();
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[pos++] = (byte) s.charAt(i);
        }
    }

    /** @param epochDay days since 1970-01-01; the year must have four digits */
    public void writeDate(long epochDay) throws IOException {
        LocalDate d = LocalDate.ofEpochDay(epochDay);
        if (d.getYear() < 0 || d.getYear() > 9999) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT, "CSV dates have a four-digit year: date=" + d);
        }
        separate();
        ensure(10);
        int y = d.getYear();
        buf[pos++] = (byte) ('0' + y / 1000);
        buf[pos++] = (byte) ('0' + y / 100 % 10);
        buf[pos++] = (byte) ('0' + y / 10 % 10);
        buf[pos++] = (byte) ('0' + y % 10);
        buf[pos++] = '-';
        buf[pos++] = (byte) ('0' + d.getMonthValue() / 10);
        buf[pos++] = (byte) ('0' + d.getMonthValue() % 10);
        buf[pos++] = '-';
        buf[pos++] = (byte) ('0' + d.getDayOfMonth() / 10);
        buf[pos++] = (byte) ('0' + d.getDayOfMonth() % 10);
    }

    /**
     * A TIMESTAMP (microseconds since 1970-01-01 00:00:00) as DuckDB's CSV writer writes it: {@code 2013-01-01
     * 05:00:00}, the fraction only when it is not zero; {@link CsvTableReader} reads it back as the same TIMESTAMP.
     */
    public void writeTimestamp(long micros) throws IOException {
        writeString(io.numacube.engine.schema.Timestamps.format(micros));
    }

    /** A BOOLEAN as DuckDB's CSV writer writes it: {@code true} or {@code false}. */
    public void writeBoolean(boolean value) throws IOException {
        writeString(value ? "true" : "false");
    }

    /** Writes SQL NULL: an empty unquoted field, which {@link CsvTableReader} reads back as NULL. */
    public void writeNull() throws IOException {
        separate();
    }

    /** Ends the current row with LF. */
    public void endRow() throws IOException {
        ensure(1);
        buf[pos++] = '\n';
        rowStarted = false;
    }

    public void flush() throws IOException {
        out.write(buf, 0, pos);
        pos = 0;
        out.flush();
    }

    @Override
    public void close() throws IOException {
        try {
            flush();
        } finally {
            out.close();
        }
    }

    private void separate() throws IOException {
        if (rowStarted) {
            ensure(1);
            buf[pos++] = delimiter;
        }
        rowStarted = true;
    }

    private void put(byte[] bytes) throws IOException {
        if (bytes.length > buf.length) {
            out.write(buf, 0, pos);
            pos = 0;
            out.write(bytes);
            return;
        }
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, pos, bytes.length);
        pos += bytes.length;
    }

    private void ensure(int bytes) throws IOException {
        if (pos + bytes > buf.length) {
            out.write(buf, 0, pos);
            pos = 0;
        }
        if (bytes > buf.length) {
            throw new IOException("value too long for the CSV writer's buffer: bytes=" + bytes);
        }
    }
}
