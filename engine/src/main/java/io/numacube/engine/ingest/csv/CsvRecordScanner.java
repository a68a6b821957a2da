package io.numacube.engine.ingest.csv;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits RFC 4180 bytes into records and fields without decoding them. After {@link #next()} returns true, field
 * {@code i} of the current record is the byte range {@code [fieldStart(i), fieldEnd(i))} of {@link #buffer()} (quotes
 * removed; {@code ""} escapes still doubled when {@link #fieldHasEscapes(int)}). The ranges stay valid until the next
 * call to {@link #next()}.
 *
 * <p>Accepted: fields separated by one delimiter byte; records ended by LF or CRLF (the last one may lack it); fields
 * that start with {@code "} are quoted and may hold delimiters, CR, LF and {@code ""}; a UTF-8 byte order mark before
 * the first record is skipped. Rejected with a {@link CsvFault}: a quote inside an unquoted field, anything but a
 * delimiter or line end after a closing quote, a quoted field still open at end of input, a record longer than
 * {@link #MAX_RECORD_BYTES}.
 *
 * <p>Line numbers are 1-based physical lines (a quoted newline starts a new line). Columns are 1-based character
 * positions (UTF-8 code points) within that line.
 *
 * <p>Not thread-safe: one reading thread owns an instance. Owns no native memory; {@link #close()} closes the channel.
 */
final class CsvRecordScanner implements AutoCloseable {

    /** Longest record accepted; a longer one is almost always an unterminated quote. */
    static final int MAX_RECORD_BYTES = 64 << 20;

    private static final byte QUOTE = '"';
    private static final byte LF = '\n';
    private static final byte CR = '\r';

    private final ReadableByteChannel channel;
    private final byte delimiter;
    private byte[] buf;
    private int limit;
    private boolean eof;
    private long bufferFileOffset;
    private boolean bomChecked;

    private int recordStart;
    private int recordEnd;
    private long recordLine = 1;
    private long nextLine = 1;
    private int fieldCount;
    private int[] starts = new int[16];
    private int[] ends = new int[16];
    private byte[] flags = new byte[16];

    private static final byte QUOTED = 1;
    private static final byte ESCAPES = 2;

    CsvRecordScanner(ReadableByteChannel channel, byte delimiter, int bufferBytes) {
        if (delimiter == QUOTE || delimiter == LF || delimiter == CR) {
            throw new IllegalArgumentException("delimiter must not be a quote or line break: delimiter=" + delimiter);
        }
        this.channel = channel;
        this.delimiter = delimiter;
        this.buf = new byte[Math.max(bufferBytes, 64)];
    }

    /**
     * A scanner of the records of a file from byte {@code fileOffset} on, which the channel delivers first (a chunk of
     * a file read in parallel): {@link #bytesConsumed()} counts from the file's first byte, lines are numbered from
     * {@code firstLine}, and no byte order mark is looked for.
     */
    CsvRecordScanner(ReadableByteChannel channel, byte delimiter, int bufferBytes, long fileOffset, long firstLine) {
        this(channel, delimiter, bufferBytes);
        this.bufferFileOffset = fileOffset;
        this.bomChecked = true;
        this.recordLine = firstLine;
        this.nextLine = firstLine;
    }

    /** The bytes the current record's ranges point into. */
    byte[] buffer() {
        return buf;
    }

    int fieldCount() {
        return fieldCount;
    }

    int fieldStart(int field) {
        return starts[field];
    }

    int fieldEnd(int field) {
        return ends[field];
    }

    boolean fieldQuoted(int field) {
        return (flags[field] & QUOTED) != 0;
    }

    boolean fieldHasEscapes(int field) {
        return (flags[field] & ESCAPES) != 0;
    }

    /** The line on which the current record starts. */
    long recordLine() {
        return recordLine;
    }

    /** True when the current record is an empty line (one unquoted, empty field). */
    boolean isBlankLine() {
        return fieldCount == 1 && flags[0] == 0 && starts[0] == ends[0];
    }

    /** The line on which the next record starts (the lines consumed so far, plus the first line). */
    long nextLine() {
        return nextLine;
    }

    /** Bytes of input consumed up to the end of the current record. */
    long bytesConsumed() {
        return bufferFileOffset + recordEnd;
    }

    /**
     * Advances to the next record.
     *
     * @return false at end of input (no record)
     * @throws CsvFault for malformed input
     */
    boolean next() throws IOException {
        recordStart = recordEnd;
        recordLine = nextLine;
        if (!bomChecked) {
            skipByteOrderMark();
        }
        while (true) {
            int r = scanRecord();
            if (r >= 0) {
                return r == 1;
            }
            refill();
        }
    }

    private void skipByteOrderMark() throws IOException {
        while (limit - recordStart < 3 && !eof) {
            refill();
        }
        bomChecked = true;
        if (limit - recordStart >= 3
                && (buf[recordStart] & 0xFF) == 0xEF
                && (buf[recordStart + 1] & 0xFF) == 0xBB
                && (buf[recordStart + 2] & 0xFF) == 0xBF) {
            recordStart += 3;
            recordEnd = recordStart;
        }
    }

    /** Scans one record from recordStart: 1 = record, 0 = end of input, -1 = more bytes needed. */
    // one method: this loop runs per input byte; position, field count and line stay in locals (registers) throughout
    @SuppressWarnings("checkstyle:MethodLength")
    private int scanRecord() {
        final byte[] b = buf;
        final int lim = limit;
        final byte delim = delimiter;
        int p = recordStart;
        long line = recordLine;
        if (p == lim) {
            if (eof) {
                fieldCount = 0;
                return 0;
            }
            return -1;
        }
        int n = 0;
        while (true) {
            if (n == starts.length) {
                growFields();
            }
            int fieldStart = p;
            if (p < lim && b[p] == QUOTE) {
                byte f = QUOTED;
                p++;
                int contentStart = p;
                while (true) {
                    if (p == lim) {
                        if (eof) {
                            throw fault(fieldStart, n, "unterminated quoted field", fieldStart, false);
                        }
                        return -1;
                    }
                    byte c = b[p];
                    if (c == QUOTE) {
                        if (p + 1 == lim && !eof) {
                            return -1;
                        }
                        if (p + 1 < lim && b[p + 1] == QUOTE) {
                            f |= ESCAPES;
                            p += 2;
                            continue;
                        }
                        break;
                    }
                    if (c == LF) {
                        line++;
                    }
                    p++;
                }
                starts[n] = contentStart;
                ends[n] = p;
                flags[n] = f;
                p++;
                if (p == lim) {
                    if (!eof) {
                        return -1;
                    }
                    n++;
                    recordEnd = p;
                    break;
                }
                byte c = b[p];
                if (c == delim) {
                    p++;
                    n++;
                    continue;
                }
                if (c == LF) {
                    n++;
                    line++;
                    recordEnd = p + 1;
                    break;
                }
                if (c == CR) {
                    if (p + 1 == lim && !eof) {
                        return -1;
                    }
                    if (p + 1 < lim && b[p + 1] == LF) {
                        n++;
                        line++;
                        recordEnd = p + 2;
                        break;
                    }
                }
                throw fault(
                        p,
                        n,
                        "unexpected character after closing quote (a quoted field must end at a delimiter"
                                + " or line end)",
                        fieldStart,
                        true);
            }
            while (p < lim) {
                byte c = b[p];
                if (c == delim || c == LF) {
                    break;
                }
                if (c == QUOTE) {
                    throw fault(
                            p,
                            n,
                            "quote inside an unquoted field (quote the whole field and double the quote)",
                            fieldStart,
                            true);
                }
                p++;
            }
            if (p == lim && !eof) {
                return -1;
            }
            starts[n] = fieldStart;
            flags[n] = 0;
            if (p == lim) {
                ends[n] = p > fieldStart && b[p - 1] == CR ? p - 1 : p;
                n++;
                recordEnd = p;
                break;
            }
            if (b[p] == delim) {
                ends[n] = p;
                p++;
                n++;
                continue;
            }
            ends[n] = p > fieldStart && b[p - 1] == CR ? p - 1 : p;
            n++;
            line++;
            recordEnd = p + 1;
            break;
        }
        fieldCount = n;
        nextLine = line;
        return 1;
    }

    private void growFields() {
        int size = starts.length * 2;
        starts = Arrays.copyOf(starts, size);
        ends = Arrays.copyOf(ends, size);
        flags = Arrays.copyOf(flags, size);
    }

    /** Moves the current record to the front of the buffer (growing it if the record fills it) and reads more. */
    private void refill() throws IOException {
        if (eof) {
            return;
        }
        int keep = limit - recordStart;
        if (recordStart > 0) {
            System.arraycopy(buf, recordStart, buf, 0, keep);
            bufferFileOffset += recordStart;
            recordEnd -= recordStart;
            recordStart = 0;
            limit = keep;
        }
        if (limit == buf.length) {
            if (buf.length >= MAX_RECORD_BYTES) {
                throw fault(
                        recordStart,
                        0,
                        "record longer than " + MAX_RECORD_BYTES + " bytes (an unterminated quote?)",
                        recordStart,
                        false);
            }
            buf = Arrays.copyOf(buf, Math.min(buf.length * 2, MAX_RECORD_BYTES));
        }
        int read = channel.read(ByteBuffer.wrap(buf, limit, buf.length - limit));
        if (read < 0) {
            eof = true;
        } else {
            limit += read;
        }
    }

    /** The line and column of a byte of the current record, computed by rescanning the record. */
    long[] locate(int bufferPosition) {
        long line = recordLine;
        int lineStart = recordStart;
        for (int p = recordStart; p < bufferPosition && p < limit; p++) {
            if (buf[p] == LF) {
                line++;
                lineStart = p + 1;
            }
        }
        long column = 1;
        for (int p = lineStart; p < bufferPosition && p < limit; p++) {
            if ((buf[p] & 0xC0) != 0x80) {
                column++;
            }
        }
        return new long[] {line, column};
    }

    /** The position of field {@code i}'s first byte in the line, including its opening quote. */
    int fieldOrigin(int field) {
        return fieldQuoted(field) ? starts[field] - 1 : starts[field];
    }

    /** The end of the current record's content (before its line break). */
    int recordContentEnd() {
        int e = recordEnd;
        if (e > recordStart && buf[e - 1] == LF) {
            e--;
            if (e > recordStart && buf[e - 1] == CR) {
                e--;
            }
        }
        return e;
    }

    /** The raw text of a field, with {@code ""} escapes resolved. */
    String fieldText(int field) {
        int s = starts[field];
        int e = ends[field];
        String raw = new String(buf, s, e - s, StandardCharsets.UTF_8);
        return fieldHasEscapes(field) ? raw.replace("\"\"", "\"") : raw;
    }

    /**
     * A fault at a byte of the current record; its value is the text from valueStart up to the line's end, or up to
     * the next delimiter when {@code toDelimiter}.
     */
    private CsvFault fault(int bufferPosition, int field, String reason, int valueStart, boolean toDelimiter) {
        long[] at = locate(bufferPosition);
        int e = valueStart;
        while (e < limit
                && e - valueStart < CsvFault.MAX_VALUE_BYTES
                && buf[e] != LF
                && !(toDelimiter && buf[e] == delimiter)) {
            e++;
        }
        if (e > valueStart && e < limit && buf[e] == LF && buf[e - 1] == CR) {
            e--;
        }
        return new CsvFault(
                at[0], at[1], field, reason, new String(buf, valueStart, e - valueStart, StandardCharsets.UTF_8));
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
