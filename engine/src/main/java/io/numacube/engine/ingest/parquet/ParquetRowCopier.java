package io.numacube.engine.ingest.parquet;

import dev.hardwood.reader.ColumnReader;
import dev.hardwood.reader.ColumnReaders;
import dev.hardwood.reader.Validity;
import io.numacube.engine.ingest.TableStaging;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.util.Arrays;
import java.util.List;

/**
 * Copies the batches of a Parquet file's column readers into a {@link TableStaging}, row by row: a NULL (an optional
 * column's value that its definition level leaves undefined) is staged as {@link TableStaging#setNull}. What the
 * staging cannot hold is refused with the file, column, 1-based row and row group: a NaN or infinite double, an
 * unsigned 64-bit value beyond BIGINT, a date outside years 1..9999. Not thread-safe: one per read.
 */
final class ParquetRowCopier {

    private static final int FIRST_DAY = (int) java.time.LocalDate.of(1, 1, 1).toEpochDay();
    private static final int LAST_DAY =
            (int) java.time.LocalDate.of(9999, 12, 31).toEpochDay();

    private final String file;
    private final List<ParquetColumn> columns;
    private final ColumnType[] types;
    private final long[] rowGroupStarts;
    private final int[][] ints;
    private final long[][] longs;
    private final float[][] floats;
    private final double[][] doubles;
    private final String[][] strings;
    private final boolean[][] booleans;
    private final byte[][][] binaries;
    /** Per column, the current batch's NULLs; null when the batch has none in that column. */
    private final Validity[] nulls;

    private long rowsBefore;

    /**
     * @param schema         the staged schema: the file's columns, in order, with the types they are staged as
     * @param rowGroupStarts the first row (0-based) of each row group, for error messages
     */
    ParquetRowCopier(String file, List<ParquetColumn> columns, TableSchema schema, long[] rowGroupStarts) {
        this.file = file;
        this.columns = columns;
        this.rowGroupStarts = rowGroupStarts;
        int n = columns.size();
        types = new ColumnType[n];
        for (int c = 0; c < n; c++) {
            types[c] = schema.column(c).type();
        }
        ints = new int[n][];
        longs = new long[n][];
        floats = new float[n][];
        doubles = new double[n][];
        booleans = new boolean[n][];
        binaries = new byte[n][][];
        strings = new String[n][];
        nulls = new Validity[n];
    }

    /** Stages every row of the readers' current batch. */
    void copyBatch(ColumnReaders readers, TableStaging staging) {
        int rows = readers.getRecordCount();
        for (int c = 0; c < columns.size(); c++) {
            ParquetColumn col = columns.get(c);
            ColumnReader r = readers.getColumnReader(col.index());
            Validity validity = r.getLeafValidity();
            nulls[c] = validity != null && validity.hasNulls() ? validity : null;
            switch (col.source()) {
                case INTS, DATES -> ints[c] = r.getInts();
                case LONGS, TIMESTAMP_MILLIS, TIMESTAMP_MICROS, TIMESTAMP_NANOS -> longs[c] = r.getLongs();
                case INT96 -> binaries[c] = r.getBinaries();
                case FLOATS -> floats[c] = r.getFloats();
                case DOUBLES -> doubles[c] = r.getDoubles();
                case STRINGS -> strings[c] = r.getStrings();
                case BOOLEANS -> booleans[c] = r.getBooleans();
            }
        }
        for (int k = 0; k < rows; k++) {
            for (int c = 0; c < types.length; c++) {
                set(staging, c, k);
            }
            staging.endRow();
        }
        rowsBefore += rows;
    }

    private void set(TableStaging staging, int c, int k) {
        if (nulls[c] != null && nulls[c].isNull(k)) {
            staging.setNull(c);
            return;
        }
        ParquetColumn col = columns.get(c);
        switch (col.source()) {
            case INTS -> setInteger(staging, c, col.unsigned() ? Integer.toUnsignedLong(ints[c][k]) : ints[c][k]);
            case DATES -> {
                int day = ints[c][k];
                if (day < FIRST_DAY || day > LAST_DAY) {
                    throw valueError(
                            col,
                            k,
                            "the date " + java.time.LocalDate.ofEpochDay(day) + " is outside 0001-01-01..9999-12-31,"
                                    + " the dates numacube reads and writes");
                }
                staging.setDate(c, day);
            }
            case LONGS -> {
                long v = longs[c][k];
                if (col.unsigned() && v < 0) {
                    throw valueError(col, k, "the unsigned value " + Long.toUnsignedString(v) + " is beyond BIGINT");
                }
                setInteger(staging, c, v);
            }
            case FLOATS -> setDouble(staging, c, k, floats[c][k]);
            case DOUBLES -> setDouble(staging, c, k, doubles[c][k]);
            case STRINGS -> staging.setString(c, strings[c][k]);
            case BOOLEANS -> staging.setBoolean(c, booleans[c][k]);
            case TIMESTAMP_MICROS -> staging.setLong(c, longs[c][k]);
            case TIMESTAMP_NANOS -> staging.setLong(c, Math.floorDiv(longs[c][k], 1000L));
            case TIMESTAMP_MILLIS -> {
                long ms = longs[c][k];
                if (Math.abs(ms) > Long.MAX_VALUE / 1000) {
                    throw valueError(col, k, "the timestamp of " + ms + " ms since 1970 is beyond TIMESTAMP's range");
                }
                staging.setLong(c, ms * 1000);
            }
            case INT96 -> staging.setLong(c, int96Micros(binaries[c][k]));
        }
    }

    /** An INT96 timestamp (nanoseconds of the day, then the Julian day; little-endian) in microseconds since 1970. */
    static long int96Micros(byte[] b) {
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long nanosOfDay = buf.getLong(0);
        long julianDay = Integer.toUnsignedLong(buf.getInt(8));
        return (julianDay - 2_440_588L) * io.numacube.engine.schema.Timestamps.MICROS_PER_DAY + nanosOfDay / 1000;
    }

    private void setInteger(TableStaging staging, int c, long v) {
        if (types[c] == ColumnType.DOUBLE) {
            staging.setDouble(c, v);
        } else {
            staging.setLong(c, v);
        }
    }

    private void setDouble(TableStaging staging, int c, int k, double v) {
        if (!Double.isFinite(v)) {
            throw valueError(
                    columns.get(c),
                    k,
                    "the value " + v + " is not finite (DOUBLE columns hold finite values only; NaN and infinities"
                            + " are not supported)");
        }
        staging.setDouble(c, v);
    }

    private NumacubeException valueError(ParquetColumn col, int k, String what) {
        long row = rowsBefore + k;
        int group = Arrays.binarySearch(rowGroupStarts, row);
        group = group >= 0 ? group : -group - 2;
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                "22P02",
                file + ": row " + (row + 1) + " (row group " + group + "), column " + col.name() + ": " + what,
                null,
                null);
    }
}
