package io.numacube.engine.ingest.parquet;

import dev.hardwood.reader.ColumnReader;
import dev.hardwood.reader.ColumnReaders;
import dev.hardwood.reader.ParquetFileReader;
import dev.hardwood.reader.RowGroupPredicate;
import dev.hardwood.reader.Validity;
import dev.hardwood.schema.ColumnProjection;
import io.numacube.engine.ingest.NulText;
import io.numacube.engine.ingest.StagingBlock;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Decodes one row group of a Parquet file into a {@link StagingBlock}, column by column over whole batches of
 * hardwood's primitive arrays: integers, doubles and timestamps are copied, dimensions coded in the block's own
 * dictionaries (text straight from its UTF-8 bytes, {@link Utf8Codes}), NULLs (values an optional column's definition
 * level leaves undefined) set as NULLs. What the staging cannot hold is refused by {@link ParquetValueFault} with the
 * file, the 1-based row, the row group and the column: the first such value in row order, as a row-by-row reader
 * would find it.
 *
 * <p>Not thread-safe: one per worker, reused for the row groups it decodes (its {@link Utf8Codes} carry over).
 */
final class RowGroupDecoder {

    private final ParquetLayout layout;
    private final List<ParquetColumn> columns;
    private final TableSchema schema;
    private final ColumnType[] types;
    private final Utf8Codes[] strings;

    RowGroupDecoder(ParquetLayout layout, TableSchema schema) {
        this.layout = layout;
        this.columns = layout.columns();
        this.schema = schema;
        int n = columns.size();
        types = new ColumnType[n];
        strings = new Utf8Codes[n];
        for (int c = 0; c < n; c++) {
            types[c] = schema.column(c).type();
            if (columns.get(c).source() == ParquetColumn.Source.STRINGS) {
                strings[c] = new Utf8Codes();
            }
        }
    }

    /**
     * Row group {@code group} of the file {@code reader} reads, as a block.
     *
     * @throws NumacubeException INVALID_INPUT for a value the staging cannot hold, or pages that do not hold the
     *                           footer's row count; hardwood's own exceptions for a corrupt file pass through
     */
    StagingBlock decode(ParquetFileReader reader, int group) {
        int rows = layout.rowsOf(group);
        StagingBlock block = new StagingBlock(schema, rows);
        for (int c = 0; c < strings.length; c++) {
            if (strings[c] != null) {
                strings[c].startBlock(block.dictionary(c));
            }
        }
        if (rows == 0) {
            return block;
        }
        long mid = layout.midpointOf(group);
        int at = 0;
        try (ColumnReaders readers = reader.buildColumnReaders(ColumnProjection.all())
                .filter(RowGroupPredicate.byteRange(mid, mid + 1))
                .build()) {
            // stop at the footer's row count: asking past the last batch costs hardwood's 10 ms poll per column
            while (at < rows && readers.nextBatch()) {
                int n = readers.getRecordCount();
                if (at + n > rows) {
                    throw layout.rowCountMismatch(group, (long) at + n);
                }
                copyBatch(readers, block, group, at, n);
                at += n;
            }
        }
        if (at != rows) {
            throw layout.rowCountMismatch(group, at);
        }
        return block;
    }

    /** Copies rows {@code [at, at + n)} of the block from the readers' batch; refuses the first bad value by row. */
    private void copyBatch(ColumnReaders readers, StagingBlock block, int group, int at, int n) {
        ParquetValueFault first = null;
        for (int c = 0; c < columns.size(); c++) {
            ColumnReader r = readers.getColumnReader(columns.get(c).index());
            ParquetValueFault f = copyColumn(r, block, c, at, n);
            if (f != null && (first == null || f.row() < first.row())) {
                first = f;
            }
        }
        if (first != null) {
            throw first.toException(layout, group);
        }
    }

    /** Copies one column of the batch; the first value it cannot hold, or null. */
    private ParquetValueFault copyColumn(ColumnReader r, StagingBlock block, int c, int at, int n) {
        Validity v = r.getLeafValidity();
        Validity nulls = v != null && v.hasNulls() ? v : null;
        ParquetColumn col = columns.get(c);
        return switch (col.source()) {
            case INTS -> integers(r.getInts(), null, col, nulls, block, c, at, n);
            case LONGS -> integers(null, r.getLongs(), col, nulls, block, c, at, n);
            case DATES -> ColumnCopies.dates(r.getInts(), nulls, block, c, at, n);
            case FLOATS -> ColumnCopies.floats(r.getFloats(), nulls, block, c, at, n);
            case DOUBLES -> ColumnCopies.doubles(r.getDoubles(), nulls, block, c, at, n);
            case STRINGS -> strings(r, nulls, block, c, at, n);
            case BOOLEANS -> ColumnCopies.booleans(r.getBooleans(), nulls, block, c, at, n);
            case TIMESTAMP_MICROS, TIMESTAMP_MILLIS, TIMESTAMP_NANOS ->
                ColumnCopies.timestamps(r.getLongs(), col.source(), nulls, block, c, at, n);
            case INT96 -> ColumnCopies.int96(r.getBinaryValues(), r.getBinaryOffsets(), nulls, block, c, at, n);
        };
    }

    /** An INT32 ({@code ints}) or INT64 ({@code longs}) column, staged as LONG, INT (a dimension) or DOUBLE. */
    private ParquetValueFault integers(
            int[] ints, long[] longs, ParquetColumn col, Validity nulls, StagingBlock block, int c, int at, int n) {
        ColumnType type = types[c];
        if (nulls == null && !col.unsigned() && type != ColumnType.INT && type != ColumnType.DOUBLE) {
            copyLongs(ints, longs, block.longs(c), at, n);
            return null;
        }
        for (int k = 0; k < n; k++) {
            if (nulls != null && nulls.isNull(k)) {
                block.setNull(c, at + k);
                continue;
            }
            long value;
            if (ints != null) {
                value = col.unsigned() ? Integer.toUnsignedLong(ints[k]) : ints[k];
            } else {
                value = longs[k];
                if (col.unsigned() && value < 0) {
                    return new ParquetValueFault(
                            at + k, c, "the unsigned value " + Long.toUnsignedString(value) + " is beyond BIGINT");
                }
            }
            switch (type) {
                case INT -> block.codes(c)[at + k] = block.dictionary(c).codeOf(value);
                case DOUBLE -> block.doubles(c)[at + k] = value;
                default -> block.longs(c)[at + k] = value;
            }
        }
        return null;
    }

    /**
     * A signed INT32 or INT64 column without NULLs staged as LONG (BIGINT, a DECIMAL's unscaled value, TIMESTAMP):
     * the values as they are, in one copy or one widening loop.
     */
    private static void copyLongs(int[] ints, long[] longs, long[] out, int at, int n) {
        if (longs != null) {
            System.arraycopy(longs, 0, out, at, n);
        } else {
            for (int k = 0; k < n; k++) {
                out[at + k] = ints[k];
            }
        }
    }

    private ParquetValueFault strings(ColumnReader r, Validity nulls, StagingBlock block, int c, int at, int n) {
        byte[] bytes = r.getBinaryValues();
        int[] offsets = r.getBinaryOffsets();
        int[] codes = block.codes(c);
        Utf8Codes coder = strings[c];
        for (int k = 0; k < n; k++) {
            if (nulls != null && nulls.isNull(k)) {
                block.setNull(c, at + k);
            } else {
                int code = coder.codeOf(bytes, offsets[k], offsets[k + 1]);
                if (code == Utf8Codes.HOLDS_NUL) {
                    return new ParquetValueFault(at + k, c, NulText.PROBLEM, NulText.SQL_STATE);
                }
                if (code == Utf8Codes.NOT_UTF8) {
                    String shown = new String(bytes, offsets[k], offsets[k + 1] - offsets[k], StandardCharsets.UTF_8);
                    return new ParquetValueFault(
                            at + k,
                            c,
                            "not valid UTF-8 text (value \""
                                    + (shown.length() > 40 ? shown.substring(0, 40) + "..." : shown)
                                    + "\")");
                }
                codes[at + k] = code;
            }
        }
        return null;
    }
}
