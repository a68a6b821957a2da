package io.numacube.engine.ingest.csv;

import io.numacube.engine.ingest.NulText;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.TextCodeIndex;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.ErrorPosition;
import io.numacube.numa.base.NumacubeException;
import java.io.IOException;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Reads a CSV file with a header row into a {@link CsvRowSink}, typed by a {@link TableSchema} that is declared or
 * inferred ({@link #infer}). Header names are matched to schema columns by name (case-insensitive, any order); every
 * schema column must appear exactly once.
 *
 * <p>NULL: an empty field, or one whose text is a {@linkplain CsvOptions#nullStrings() NULL string}, is SQL NULL in
 * every column type and reaches the sink as {@link CsvRowSink#setNull}; quoted, it is text in a STRING column
 * ({@code ""} is the empty string) and still NULL in a number or date column ({@link NullMarkers}).
 *
 * <p>Strict, so that nothing is dropped silently: every record must have as many fields as the header (empty lines
 * are skipped when the table has more than one column, and are a NULL when it has one); numbers and dates must parse
 * in full ({@link FieldDecoder}: a field of blanks only is not NULL but an error); text must be UTF-8. The first bad
 * record stops the read with a {@link NumacubeException} of kind INVALID_INPUT whose message is
 * {@code FILE:LINE:COLUMN: reason (field NAME, value "...")}. Rows already handed to the sink stay there: a caller that
 * wants an atomic load stages rows and publishes only after {@code read} returns.
 *
 * <p>Speed: a byte-level scanner over a large buffer, numbers parsed from bytes, repeated strings decoded once per
 * column ({@link StringCache}); no per-field allocation for numbers, dates and repeated strings.
 *
 * <p>Stateless apart from its options; thread-safe, each call reads on the calling thread.
 */
public final class CsvTableReader {

    /** How often {@link CsvProgress#update} is called, in rows. */
    public static final long PROGRESS_EVERY_ROWS = 1L << 16;

    /**
     * The most columns a CSV header may have: each column is staged in arrays of its own and placed as a column
     * of every partition, so a million-column file would exhaust the heap long before its rows. PostgreSQL's limit
     * is 1,600; this one leaves room for wide exports.
     */
    public static final int MAX_COLUMNS = 10_000;

    /** Schema inference keeps a numeric or date type for a column when at most this share of sampled values misfit. */
    public static final int MISFIT_PERCENT = 1;

    private final CsvOptions options;
    private final NullMarkers nulls;
    private final boolean missingColumnsNull;

    public CsvTableReader(CsvOptions options) {
        this(options, false);
    }

    /**
     * @param missingColumnsNull whether a schema column the header leaves out is NULL in every row (rows appended to
     *                           a table) rather than an error (a file loaded as a table)
     */
    CsvTableReader(CsvOptions options, boolean missingColumnsNull) {
        this.options = options;
        this.nulls = new NullMarkers(options.nullStrings());
        this.missingColumnsNull = missingColumnsNull;
    }

    public CsvOptions options() {
        return options;
    }

    /** Reads {@code file} with the given schema; the file name in messages is {@code file} as given. */
    public CsvReadSummary read(Path file, TableSchema schema, CsvRowSink sink, CsvProgress progress) {
        return read(file, schema, null, sink, progress);
    }

    /**
     * As {@link #read(Path, TableSchema, CsvRowSink, CsvProgress)}, with a hint appended (after {@code " — "}) to the
     * message about a value that does not fit its column's type, e.g. how the schema was chosen.
     *
     * @param misfitHint the hint, or null for none
     */
    public CsvReadSummary read(
            Path file, TableSchema schema, String misfitHint, CsvRowSink sink, CsvProgress progress) {
        try (CsvInput in = CsvInput.open(file)) {
            return read(in, file.toString(), schema, misfitHint, sink, progress);
        } catch (IOException e) {
            throw ioFailure(file.toString(), e);
        }
    }

    /** As {@link #read(Path, TableSchema, String, CsvRowSink, CsvProgress)}, from an input opened by the caller. */
    public CsvReadSummary read(
            CsvInput in, String source, TableSchema schema, String misfitHint, CsvRowSink sink, CsvProgress progress) {
        return read(in, source, schema, misfitHint == null ? null : (column, value) -> misfitHint, sink, progress);
    }

    /**
     * As {@link #read(CsvInput, String, TableSchema, String, CsvRowSink, CsvProgress)}, with a hint that depends on the
     * column and the value that does not fit it (such as the type that would hold the value).
     *
     * @param misfitHint (column name, value as in the file) to the hint, or null (the function too) for none
     */
    public CsvReadSummary read(
            CsvInput in,
            String source,
            TableSchema schema,
            BiFunction<String, String, String> misfitHint,
            CsvRowSink sink,
            CsvProgress progress) {
        try {
            return read(in.all(), source, in.size(), schema, misfitHint, sink, progress);
        } catch (IOException e) {
            throw ioFailure(source, e);
        }
    }

    /**
     * Reads CSV bytes from a channel (not closed here).
     *
     * @param source     the name used in messages
     * @param totalBytes the input size for progress, or -1
     */
    public CsvReadSummary read(
            ReadableByteChannel in,
            String source,
            long totalBytes,
            TableSchema schema,
            CsvRowSink sink,
            CsvProgress progress) {
        return read(in, source, totalBytes, schema, null, sink, progress);
    }

    private CsvReadSummary read(
            ReadableByteChannel in,
            String source,
            long totalBytes,
            TableSchema schema,
            BiFunction<String, String, String> misfitHint,
            CsvRowSink sink,
            CsvProgress progress) {
        long started = System.nanoTime();
        CsvRecordScanner scanner = new CsvRecordScanner(in, (byte) options.delimiter(), options.bufferBytes());
        long rows = 0;
        List<String> header = List.of();
        try {
            header = readHeader(scanner, source);
            int[] fieldColumn = mapHeader(header, schema, scanner, source, missingColumnsNull);
            RowConverter converter = new RowConverter(schema, fieldColumn, nulls, options.postgresBooleans());
            int fields = fieldColumn.length;
            while (scanner.next()) {
                if (scanner.fieldCount() != fields) {
                    if (fields > 1 && scanner.isBlankLine()) {
                        continue;
                    }
                    throw fieldCountError(scanner, schema, fieldColumn);
                }
                converter.convert(scanner, sink);
                rows++;
                if ((rows & (PROGRESS_EVERY_ROWS - 1)) == 0) {
                    progress.update(rows, scanner.bytesConsumed(), totalBytes);
                }
            }
            progress.update(rows, scanner.bytesConsumed(), totalBytes);
            return new CsvReadSummary(rows, scanner.bytesConsumed(), System.nanoTime() - started);
        } catch (CsvFault f) {
            throw failure(source, f, header, misfitHint);
        } catch (IOException e) {
            throw ioFailure(source, e);
        }
    }

    /** The exception a fault in a record is reported as, with the misfit hint where the value misfits its type. */
    private static NumacubeException failure(
            String source, CsvFault f, List<String> header, BiFunction<String, String, String> misfitHint) {
        NumacubeException e =
                error(source, f, f.field() < header.size() ? header.get(f.field()) : "#" + (f.field() + 1));
        String hint = misfitHint != null && f instanceof NamedFault nf && nf.misfit
                ? misfitHint.apply(nf.name, f.value())
                : null;
        if (hint != null) {
            return new NumacubeException(
                    e.kind(), e.code(), e.detail() + " — " + hint, e.position().orElse(null), null);
        }
        return e;
    }

    /**
     * Reads the data rows of a regular file (or of CSV text in memory), {@code size} bytes, into {@code staging} in
     * chunks parsed on {@code workers} and the calling thread: the same rows,
     * in the same order, with the same dictionaries' first-seen order and the same error for the first bad record as
     * {@link #read(CsvInput, String, TableSchema, BiFunction, CsvRowSink, CsvProgress)} into a {@link TableStaging}
     * gives (see {@link CsvChunks} for how chunks are cut and checked). Rows are appended to the staging only from
     * the calling thread, which must not be one of the pool's workers.
     *
     * @param chunkBytes the bytes of a chunk, at least 1
     */
    CsvReadSummary readInChunks(
            CsvChunks.Positional file,
            long size,
            String source,
            TableSchema schema,
            BiFunction<String, String, String> misfitHint,
            TableStaging staging,
            CsvProgress progress,
            WorkerPool workers,
            long chunkBytes) {
        long started = System.nanoTime();
        List<String> header = List.of();
        try {
            CsvRecordScanner scanner = new CsvRecordScanner(
                    CsvChunks.channel(file, 0, size), (byte) options.delimiter(), options.bufferBytes());
            header = readHeader(scanner, source);
            int[] fieldColumn = mapHeader(header, schema, scanner, source, missingColumnsNull);
            CsvChunks.Plan plan =
                    new CsvChunks.Plan(file, size, scanner.bytesConsumed(), scanner.nextLine(), chunkBytes);
            long rows = new CsvChunks(
                            plan,
                            workers,
                            (start, end, firstLine, stop) ->
                                    readChunk(file, start, end, firstLine, staging, fieldColumn, stop))
                    .stageInto(staging, progress);
            return new CsvReadSummary(rows, size, System.nanoTime() - started);
        } catch (CsvFault f) {
            throw failure(source, f, header, misfitHint);
        } catch (IOException e) {
            throw ioFailure(source, e);
        }
    }

    /**
     * The records that start in {@code [start, end)} of a file (the last one read to its end, past {@code end}),
     * staged in a new staging; a fault is kept in the chunk, not thrown. {@code start} is taken for a record's start.
     */
    private CsvChunks.Chunk readChunk(
            CsvChunks.Positional file,
            long start,
            long end,
            long firstLine,
            TableStaging target,
            int[] fieldColumn,
            java.util.function.BooleanSupplier stop) {
        TableSchema schema = target.schema();
        CsvRecordScanner scanner = new CsvRecordScanner(
                CsvChunks.channel(file, start, end),
                (byte) options.delimiter(),
                options.bufferBytes(),
                start,
                firstLine);
        TableStaging staging = target.sibling();
        // room for rows of 64 bytes: the arrays grow at most once for narrower rows, and are not copied again and again
        staging.reserve(Math.min((end - start) / 64, 1 << 22));
        CsvRowSink sink = new CsvStagingLoader.StagingSink(staging, true);
        RowConverter converter = new RowConverter(schema, fieldColumn, nulls, options.postgresBooleans());
        int fields = fieldColumn.length;
        try {
            while (scanner.bytesConsumed() < end && scanner.next()) {
                if (scanner.fieldCount() != fields) {
                    if (fields > 1 && scanner.isBlankLine()) {
                        continue;
                    }
                    throw fieldCountError(scanner, schema, fieldColumn);
                }
                converter.convert(scanner, sink);
                if ((staging.rows() & 4095) == 0 && stop.getAsBoolean()) {
                    break;
                }
            }
            return new CsvChunks.Chunk(staging, start, scanner.bytesConsumed(), scanner.nextLine() - firstLine, null);
        } catch (IOException e) {
            return new CsvChunks.Chunk(null, start, -1, 0, new java.io.UncheckedIOException(e));
        } catch (RuntimeException e) {
            return new CsvChunks.Chunk(null, start, -1, 0, e);
        }
    }

    /** Infers a schema from the header and the first {@link CsvOptions#sampleRows()} rows of {@code file}. */
    public TableSchema infer(Path file, String tableName) {
        try (CsvInput in = CsvInput.open(file)) {
            return infer(in.head(), file.toString(), tableName);
        } catch (IOException e) {
            throw ioFailure(file.toString(), e);
        }
    }

    /**
     * Infers a schema from CSV bytes, per column as {@link #inferredType}: LONG, DOUBLE or DATE when every non-NULL
     * sampled value is one; DOUBLE or DATE when all but at most {@value #MISFIT_PERCENT}% are (so that a stray bad
     * value stops the load instead of turning a numeric column into text); else STRING (also for a column with no
     * non-NULL sampled value, as DuckDB makes an all-NULL column VARCHAR). NULLs are left out of the counts: empty
     * fields and NULL strings, quoted or not ({@link NullMarkers#isNullText}). As DuckDB's sniffer, a column with a
     * number written with a leading zero ({@code 007}, {@code -01.5}, not {@code 0} or {@code 0.5}) is STRING, and NaN,
     * infinities and numbers beyond the double range count as DOUBLE (the load then refuses them). The channel is not
     * closed.
     */
    public TableSchema infer(ReadableByteChannel in, String source, String tableName) {
        return inferWithNotes(in, source, tableName).schema();
    }

    /** As {@link #infer(ReadableByteChannel, String, String)}, with why each widened or text column got its type. */
    public CsvInference inferWithNotes(ReadableByteChannel in, String source, String tableName) {
        CsvRecordScanner scanner = new CsvRecordScanner(in, (byte) options.delimiter(), options.bufferBytes());
        try {
            List<String> header = readHeader(scanner, source);
            int n = header.size();
            SampleTally tally = new SampleTally(n);
            FieldDecoder dec = new FieldDecoder();
            int sampled = 0;
            while (sampled < options.sampleRows() && scanner.next()) {
                if (scanner.fieldCount() != n) {
                    // blank lines, and rows the load will report with the schema in hand
                    continue;
                }
                tally.add(scanner, source, header, dec, nulls);
                sampled++;
            }
            return tally.inference(tableName, header);
        } catch (CsvFault f) {
            throw error(source, f, "#" + (f.field() + 1));
        } catch (IOException e) {
            throw ioFailure(source, e);
        }
    }

    /** Per column of a sample: how many non-NULL values parse as each type, and the first value that did not. */
    private static final class SampleTally {
        private final int[] nonNull;
        private final int[] longs;
        private final int[] doubles;
        private final int[] dates;
        private final int[] booleans;
        private final int[] timestamps;
        private final boolean[] firstIsTimestamp;
        private final CsvInference.Note[] notLong;
        private final CsvInference.Note[] notNumberOrDate;
        private final CsvInference.Note[] leadingZero;

        SampleTally(int n) {
            nonNull = new int[n];
            longs = new int[n];
            doubles = new int[n];
            dates = new int[n];
            booleans = new int[n];
            timestamps = new int[n];
            firstIsTimestamp = new boolean[n];
            notLong = new CsvInference.Note[n];
            notNumberOrDate = new CsvInference.Note[n];
            leadingZero = new CsvInference.Note[n];
        }

        /** Counts the fields of the scanner's current record, which has one field per header column. */
        void add(CsvRecordScanner scanner, String source, List<String> header, FieldDecoder dec, NullMarkers nulls) {
            byte[] b = scanner.buffer();
            for (int f = 0; f < nonNull.length; f++) {
                if (nulls.isNullText(scanner, f)) {
                    continue;
                }
                int s = scanner.fieldStart(f);
                int e = scanner.fieldEnd(f);
                nonNull[f]++;
                String notALong = dec.parseLong(b, s, e);
                String notADouble = dec.parseDouble(b, s, e);
                boolean isDouble = notADouble == null || notADouble == FieldDecoder.NOT_FINITE;
                boolean isDate = dec.parseDate(b, s, e) == null;
                boolean isBoolean = FieldDecoder.isBooleanWord(b, s, e);
                boolean isTimestamp = !isDate && dec.isTimestampWithTime(b, s, e);
                if (isTimestamp) {
                    timestamps[f]++;
                    firstIsTimestamp[f] |= nonNull[f] == 1;
                }
                if (isBoolean) {
                    booleans[f]++;
                }
                if (isDouble && leadingZero[f] == null && FieldDecoder.hasLeadingZero(b, s, e)) {
                    leadingZero[f] = note(scanner, source, header.get(f), f, LEADING_ZERO);
                }
                if (notALong == null) {
                    longs[f]++;
                } else if (isDouble && notLong[f] == null) {
                    notLong[f] = note(scanner, source, header.get(f), f, widening(notALong, notADouble));
                }
                if (isDouble) {
                    doubles[f]++;
                }
                if (isDate) {
                    dates[f]++;
                }
                if (!isDouble && !isDate && !isBoolean && !isTimestamp && notNumberOrDate[f] == null) {
                    notNumberOrDate[f] = note(scanner, source, header.get(f), f, null);
                }
            }
        }

        /** The schema the counts give, with a note for each column widened to DOUBLE or left as text. */
        CsvInference inference(String tableName, List<String> header) {
            List<ColumnSpec> cols = new ArrayList<>(nonNull.length);
            List<CsvInference.Note> notes = new ArrayList<>();
            for (int f = 0; f < nonNull.length; f++) {
                ColumnType type = leadingZero[f] != null
                        ? ColumnType.STRING
                        : inferredType(
                                nonNull[f],
                                longs[f],
                                doubles[f],
                                dates[f],
                                booleans[f],
                                timestamps[f],
                                firstIsTimestamp[f]);
                cols.add(new ColumnSpec(header.get(f), type));
                if (leadingZero[f] != null) {
                    notes.add(leadingZero[f]);
                } else if (type == ColumnType.DOUBLE && longs[f] > 0 && notLong[f] != null) {
                    notes.add(withType(notLong[f], type, notLong[f].reason()));
                } else if (type == ColumnType.STRING
                        && notNumberOrDate[f] != null
                        && booleans[f] > doubles[f]
                        && booleans[f] > dates[f]) {
                    notes.add(withType(
                            notNumberOrDate[f],
                            type,
                            "is not a boolean (true/false/t/f), and " + (nonNull[f] - booleans[f]) + " of " + nonNull[f]
                                    + " sampled values are not"));
                } else if (type == ColumnType.STRING
                        && notNumberOrDate[f] != null
                        && (doubles[f] > 0 || dates[f] > 0)) {
                    notes.add(withType(
                            notNumberOrDate[f],
                            type,
                            doubles[f] >= dates[f]
                                    ? "is not a number, and " + (nonNull[f] - doubles[f]) + " of " + nonNull[f]
                                            + " sampled values are not (at most " + MISFIT_PERCENT + "% may be)"
                                    : "is not a date (yyyy-MM-dd), and " + (nonNull[f] - dates[f]) + " of "
                                            + nonNull[f] + " sampled values are not (at most " + MISFIT_PERCENT
                                            + "% may be)"));
                }
            }
            return new CsvInference(new TableSchema(tableName, cols), notes);
        }
    }

    /** Why a number with a leading zero keeps its column as text. */
    static final String LEADING_ZERO = "has a leading zero: a code such as a ZIP, kept as text as DuckDB's sniffer"
            + " does (007 and 07 stay apart; --types TABLE.COLUMN=BIGINT reads the column as numbers)";

    /** Why a value that is a double but not a LONG widens its column. */
    private static String widening(String notALong, String notADouble) {
        if (notADouble == FieldDecoder.NOT_FINITE) {
            return "is not finite: DuckDB infers DOUBLE, as here, but the load stops at it (DOUBLE columns hold "
                    + "finite values only; no option changes that)";
        }
        if (notALong == FieldDecoder.INTEGER_RANGE) {
            return "is outside the 64-bit integer range (DuckDB infers HUGEINT, which numacube lacks: the column's "
                    + "values are read as doubles, exact only up to 2^53)";
        }
        return "is not an integer";
    }

    private static CsvInference.Note note(
            CsvRecordScanner scanner, String source, String column, int f, String reason) {
        long line = scanner.locate(scanner.fieldOrigin(f))[0];
        return new CsvInference.Note(column, ColumnType.STRING, scanner.fieldText(f), source, line, reason);
    }

    private static CsvInference.Note withType(CsvInference.Note n, ColumnType type, String reason) {
        return new CsvInference.Note(n.column(), type, n.value(), n.source(), n.line(), reason);
    }

    /**
     * The type of a column from how many of its non-NULL sampled values parse as each type: BOOLEAN when all of them
     * are words DuckDB's sniffer reads as booleans ({@link FieldDecoder#isBooleanWord}; no misfit is allowed, as in
     * DuckDB); else the first of LONG, DOUBLE, DATE that all of them parse as; else TIMESTAMP when the first is a date
     * and a time of day ({@link FieldDecoder#isTimestampWithTime}) and every other one that or a date (a midnight),
     * as DuckDB's sniffer, whose first value fixes the format (a column of dates with later timestamps is text
     * there, as here; no misfit is allowed); else DOUBLE or DATE when at most {@value #MISFIT_PERCENT}% of them do not
     * (a few bad values among numbers or dates, which the load then reports, rather than a text column); else STRING.
     */
    static ColumnType inferredType(
            int nonNull, int longs, int doubles, int dates, int booleans, int timestamps, boolean firstIsTimestamp) {
        if (nonNull == 0) {
            return ColumnType.STRING;
        }
        if (booleans == nonNull) {
            return ColumnType.BOOLEAN;
        }
        if (longs == nonNull) {
            return ColumnType.LONG;
        }
        if (doubles == nonNull) {
            return ColumnType.DOUBLE;
        }
        if (dates == nonNull) {
            return ColumnType.DATE;
        }
        if (firstIsTimestamp && timestamps + dates == nonNull) {
            return ColumnType.TIMESTAMP;
        }
        if ((long) (nonNull - doubles) * 100 <= (long) nonNull * MISFIT_PERCENT) {
            return ColumnType.DOUBLE;
        }
        if ((long) (nonNull - dates) * 100 <= (long) nonNull * MISFIT_PERCENT) {
            return ColumnType.DATE;
        }
        return ColumnType.STRING;
    }

    private static NumacubeException ioFailure(String source, IOException e) {
        return CsvInput.failure(source, e);
    }

    private static List<String> readHeader(CsvRecordScanner scanner, String source) throws IOException {
        if (!scanner.next()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    source + ":1:1: empty file (a header row with the column names is required)");
        }
        if (scanner.fieldCount() == 1 && scanner.isBlankLine()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    source + ":1:1: empty header row (a header row with the column names is required)");
        }
        if (scanner.fieldCount() > MAX_COLUMNS) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "54011",
                    "the header row has " + String.format(Locale.ROOT, "%,d", scanner.fieldCount())
                            + " columns; a table has at most " + String.format(Locale.ROOT, "%,d", MAX_COLUMNS)
                            + " (is the delimiter right? --delimiter sets it)",
                    ErrorPosition.file(source, 1, 1, null),
                    null);
        }
        List<String> names = new ArrayList<>(scanner.fieldCount());
        Map<String, Integer> seen = new HashMap<>();
        for (int f = 0; f < scanner.fieldCount(); f++) {
            String notText = notText(scanner, f);
            if (notText != null) {
                throw error(
                        source, at(scanner, f, notText + " in the header row (is this a CSV file?)"), "#" + (f + 1));
            }
            String name = scanner.fieldText(f).strip();
            if (!scanner.fieldQuoted(f) && name.indexOf('\r') >= 0) {
                throw error(
                        source,
                        at(
                                scanner,
                                f,
                                "carriage return without a line feed: lines must end with LF or"
                                        + " CRLF, not CR alone"),
                        "#" + (f + 1));
            }
            if (name.isEmpty()) {
                throw error(source, at(scanner, f, "empty column name in the header row"), "#" + (f + 1));
            }
            if (seen.put(name.toLowerCase(Locale.ROOT), f) != null) {
                throw error(source, at(scanner, f, "duplicate column name in the header row"), name);
            }
            names.add(name);
        }
        return names;
    }

    /** Why field {@code f} is not text (a NUL byte, or bytes that are not UTF-8), or null when it is text. */
    private static String notText(CsvRecordScanner scanner, int f) {
        byte[] b = scanner.buffer();
        int s = scanner.fieldStart(f);
        int e = scanner.fieldEnd(f);
        for (int p = s; p < e; p++) {
            if (b[p] == 0) {
                return "a NUL byte";
            }
        }
        try {
            java.nio.charset.StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(b, s, e - s));
            return null;
        } catch (CharacterCodingException notUtf8) {
            return NOT_UTF8;
        }
    }

    private static int[] mapHeader(
            List<String> header, TableSchema schema, CsvRecordScanner scanner, String source, boolean missingNull) {
        int[] fieldColumn = new int[header.size()];
        boolean[] used = new boolean[schema.size()];
        for (int f = 0; f < header.size(); f++) {
            int c = schema.indexOf(header.get(f));
            if (c < 0) {
                throw error(
                        source,
                        at(scanner, f, "header column is not in the schema (schema: " + schema.declaration() + ")"),
                        header.get(f));
            }
            fieldColumn[f] = c;
            used[c] = true;
        }
        for (int c = 0; c < schema.size(); c++) {
            if (!used[c] && !missingNull) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        source + ":1:1: the header lacks a schema column (field "
                                + schema.column(c).name() + ", value \""
                                + escape(String.join(String.valueOf(','), header)) + "\")");
            }
        }
        return fieldColumn;
    }

    private static CsvFault at(CsvRecordScanner scanner, int field, String reason) {
        long[] lc = scanner.locate(scanner.fieldOrigin(field));
        return new CsvFault(lc[0], lc[1], field, reason, scanner.fieldText(field));
    }

    private static CsvFault fieldCountError(CsvRecordScanner scanner, TableSchema schema, int[] fieldColumn) {
        int expected = fieldColumn.length;
        int found = scanner.fieldCount();
        String reason = "row has " + found + (found == 1 ? " field" : " fields") + ", the header has " + expected;
        if (found > expected) {
            long[] lc = scanner.locate(scanner.fieldOrigin(expected));
            return new NamedFault(
                    lc[0], lc[1], expected, reason, scanner.fieldText(expected), "#" + (expected + 1) + " (extra)");
        }
        long[] lc = scanner.locate(scanner.recordContentEnd());
        return new NamedFault(
                lc[0],
                lc[1],
                found,
                reason,
                "",
                schema.column(fieldColumn[found]).name());
    }

    /** A fault whose field is already named. */
    private static final class NamedFault extends CsvFault {
        private final String name;
        /** True when the value is present but not of the column's type (a schema question, not a syntax one). */
        private final boolean misfit;

        NamedFault(long line, long column, int field, String reason, String value, String name) {
            this(line, column, field, reason, value, name, false);
        }

        NamedFault(long line, long column, int field, String reason, String value, String name, boolean misfit) {
            super(line, column, field, reason, value);
            this.name = name;
            this.misfit = misfit;
        }
    }

    static NumacubeException error(String source, CsvFault f, String fieldName) {
        String name = f instanceof NamedFault nf ? nf.name : fieldName;
        StringBuilder sb = new StringBuilder(f.reason());
        sb.append(" (field ").append(name);
        if (f.value() != null) {
            sb.append(", value \"").append(escape(f.value())).append('"');
        }
        sb.append(')');
        ErrorPosition at = ErrorPosition.file(
                source, Math.max(1, f.line()), (int) Math.max(0, Math.min(Integer.MAX_VALUE, f.column())), name);
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT, FieldDecoder.sqlState(f.reason()), sb.toString(), at, null);
    }

    /** Shows a value on one line: control characters and quotes escaped, cut after {@link CsvFault#MAX_VALUE_BYTES}. */
    static String escape(String value) {
        StringBuilder sb = new StringBuilder();
        int n = Math.min(value.length(), CsvFault.MAX_VALUE_BYTES);
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        if (value.length() > n) {
            sb.append("...");
        }
        return sb.toString();
    }

    private static final String NOT_UTF8 = "not valid UTF-8 text";

    /** Converts the fields of one record into sink calls. One per read. */
    private static final class RowConverter {
        private final TableSchema schema;
        private final int[] fieldColumn;
        private final ColumnType[] fieldType;
        private final io.numacube.engine.schema.ColumnSpec[] decimal;
        private final StringCache[] caches;
        private final NullMarkers nulls;
        private final FieldDecoder dec = new FieldDecoder();
        private final boolean postgresBooleans;
        private final int[] missing;
        private byte[] scratch = new byte[256];

        RowConverter(TableSchema schema, int[] fieldColumn, NullMarkers nulls, boolean postgresBooleans) {
            this.schema = schema;
            this.postgresBooleans = postgresBooleans;
            this.fieldColumn = fieldColumn;
            this.nulls = nulls;
            boolean[] given = new boolean[schema.size()];
            for (int c : fieldColumn) {
                given[c] = true;
            }
            this.missing = java.util.stream.IntStream.range(0, schema.size())
                    .filter(c -> !given[c])
                    .toArray();
            this.fieldType = new ColumnType[fieldColumn.length];
            this.caches = new StringCache[fieldColumn.length];
            this.decimal = new io.numacube.engine.schema.ColumnSpec[fieldColumn.length];
            for (int f = 0; f < fieldColumn.length; f++) {
                fieldType[f] = schema.column(fieldColumn[f]).type();
                decimal[f] = schema.column(fieldColumn[f]).isDecimal() ? schema.column(fieldColumn[f]) : null;
                if (fieldType[f] == ColumnType.STRING) {
                    caches[f] = new StringCache();
                }
            }
        }

        void convert(CsvRecordScanner sc, CsvRowSink sink) {
            byte[] b = sc.buffer();
            for (int f = 0; f < fieldColumn.length; f++) {
                int s = sc.fieldStart(f);
                int e = sc.fieldEnd(f);
                int col = fieldColumn[f];
                String problem;
                boolean refused = false;
                try {
                    if (nulls.isNull(sc, f, fieldType[f])) {
                        sink.setNull(col);
                        continue;
                    }
                    problem = value(sc, b, f, s, e, sink, col);
                } catch (NumacubeException rejected) {
                    problem = rejected.getMessage();
                    refused = true;
                }
                if (problem != null) {
                    throw fieldFault(sc, f, col, problem, refused);
                }
            }
            for (int c : missing) {
                sink.setNull(c);
            }
            try {
                sink.endRow();
            } catch (NumacubeException rejected) {
                long[] lc = sc.locate(sc.fieldOrigin(0));
                throw new NamedFault(lc[0], lc[1], 0, rejected.getMessage(), null, "(row)");
            }
        }

        /** Parses field {@code f} as its column's type and sets it in the sink; null, or why the text is no value. */
        private String value(CsvRecordScanner sc, byte[] b, int f, int s, int e, CsvRowSink sink, int col) {
            String problem;
            switch (fieldType[f]) {
                case STRING -> {
                    problem = string(sc, b, f, s, e, sink, col);
                }
                case LONG, INT -> {
                    problem = decimal[f] != null
                            ? dec.parseDecimal(b, s, e, decimal[f].precision(), decimal[f].scale())
                            : dec.parseLong(b, s, e);
                    if (problem == null) {
                        sink.setLong(col, dec.longValue);
                    }
                }
                case DOUBLE -> {
                    problem = dec.parseDouble(b, s, e);
                    if (problem == null) {
                        sink.setDouble(col, dec.doubleValue);
                    }
                }
                case DATE -> {
                    problem = dec.parseDate(b, s, e);
                    if (problem == null) {
                        sink.setDate(col, dec.longValue);
                    }
                }
                case TIMESTAMP -> {
                    problem = dec.parseTimestamp(b, s, e);
                    if (problem == null) {
                        sink.setTimestamp(col, dec.longValue);
                    }
                }
                case BOOLEAN -> {
                    problem = postgresBooleans ? dec.parsePostgresBoolean(b, s, e) : dec.parseBoolean(b, s, e);
                    if (problem == null) {
                        sink.setBoolean(col, dec.longValue != 0);
                    }
                }
                default ->
                    throw new NumacubeException(
                            NumacubeException.Kind.INTERNAL,
                            "column type without a CSV converter: type=" + fieldType[f]);
            }
            return problem;
        }

        /** The fault for field {@code f}; a misfit is a value of the wrong type, not a refused or blank one. */
        private NamedFault fieldFault(CsvRecordScanner sc, int f, int col, String problem, boolean refused) {
            long[] lc = sc.locate(sc.fieldOrigin(f));
            boolean misfit = !refused
                    && problem != FieldDecoder.EMPTY
                    && problem != NOT_UTF8
                    && problem != NulText.PROBLEM
                    && problem != FieldDecoder.NOT_FINITE;
            return new NamedFault(
                    lc[0],
                    lc[1],
                    f,
                    problem,
                    sc.fieldText(f),
                    schema.column(col).name(),
                    misfit);
        }

        private String string(CsvRecordScanner sc, byte[] b, int f, int s, int e, CsvRowSink sink, int col) {
            byte[] bytes = b;
            int from = s;
            int to = e;
            if (sc.fieldHasEscapes(f)) {
                to = unescape(b, s, e);
                bytes = scratch;
                from = 0;
            }
            if (sink.knowsValues(col)) {
                int known = sink.knownCode(col, bytes, from, to, TextCodeIndex.hash(bytes, from, to));
                if (known >= 0) {
                    sink.setCode(col, known);
                    return null;
                }
            }
            try {
                String v = caches[f].decode(bytes, from, to);
                if (caches[f].bypassed()) {
                    sink.setFreeText(col, v);
                    return null;
                }
                int known = caches[f].lastCode();
                if (known >= 0) {
                    sink.setCode(col, known);
                } else {
                    caches[f].rememberCode(sink.setStringCoded(col, v));
                }
                return null;
            } catch (StringCache.NulCharacter nul) {
                return NulText.PROBLEM;
            } catch (CharacterCodingException bad) {
                return NOT_UTF8;
            }
        }

        private int unescape(byte[] b, int s, int e) {
            if (scratch.length < e - s) {
                scratch = new byte[Math.max(e - s, scratch.length * 2)];
            }
            int n = 0;
            for (int p = s; p < e; p++) {
                scratch[n++] = b[p];
                if (b[p] == '"') {
                    p++;
                }
            }
            return n;
        }
    }
}
