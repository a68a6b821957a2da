package io.numacube.engine.ingest.parquet;

import dev.hardwood.reader.Validity;
import io.numacube.engine.ingest.StagingBlock;
import io.numacube.engine.schema.Timestamps;
import java.time.LocalDate;

/**
 * Copies one batch of one Parquet column into rows {@code [at, at + n)} of a {@link StagingBlock}, for the columns
 * whose staged type is fixed by their Parquet type (dates, floating point, booleans, timestamps). Each returns the
 * first value the staging cannot hold, or null; a NULL ({@code nulls} says so, or null for none) is set as NULL.
 * Stateless.
 */
final class ColumnCopies {

    private static final int FIRST_DAY = (int) LocalDate.of(1, 1, 1).toEpochDay();
    private static final int LAST_DAY = (int) LocalDate.of(9999, 12, 31).toEpochDay();
    /** The Julian day of 1970-01-01. */
    private static final long JULIAN_EPOCH_DAY = 2_440_588L;

    private ColumnCopies() {}

    /** DATE: days since 1970, within years 1..9999. */
    static ParquetValueFault dates(int[] days, Validity nulls, StagingBlock block, int c, int at, int n) {
        int[] codes = block.codes(c);
        var dict = block.dictionary(c);
        for (int k = 0; k < n; k++) {
            if (nulls != null && nulls.isNull(k)) {
                block.setNull(c, at + k);
                continue;
            }
            int day = days[k];
            if (day < FIRST_DAY || day > LAST_DAY) {
                return new ParquetValueFault(
                        at + k,
                        c,
                        "the date " + LocalDate.ofEpochDay(day) + " is outside 0001-01-01..9999-12-31, the dates"
                                + " numacube reads and writes");
            }
            codes[at + k] = dict.codeOf(day);
        }
        return null;
    }

    static ParquetValueFault floats(float[] values, Validity nulls, StagingBlock block, int c, int at, int n) {
        double[] to = block.doubles(c);
        for (int k = 0; k < n; k++) {
            if (nulls != null && nulls.isNull(k)) {
                block.setNull(c, at + k);
            } else if (Float.isFinite(values[k])) {
                to[at + k] = values[k];
            } else {
                return notFinite(at + k, c, values[k]);
            }
        }
        return null;
    }

    static ParquetValueFault doubles(double[] values, Validity nulls, StagingBlock block, int c, int at, int n) {
        double[] to = block.doubles(c);
        for (int k = 0; k < n; k++) {
            if (nulls != null && nulls.isNull(k)) {
                block.setNull(c, at + k);
            } else if (Double.isFinite(values[k])) {
                to[at + k] = values[k];
            } else {
                return notFinite(at + k, c, values[k]);
            }
        }
        return null;
    }

    private static ParquetValueFault notFinite(int row, int c, double v) {
        return new ParquetValueFault(
                row,
                c,
                "the value " + v + " is not finite (DOUBLE columns hold finite values only; NaN and infinities are"
                        + " not supported)");
    }

    /** BOOLEAN, a dimension coded 0 (false) and 1 (true). */
    static ParquetValueFault booleans(boolean[] values, Validity nulls, StagingBlock block, int c, int at, int n) {
        int[] codes = block.codes(c);
        var dict = block.dictionary(c);
        for (int k = 0; k < n; k++) {
            if (nulls != null && nulls.isNull(k)) {
                block.setNull(c, at + k);
            } else {
                codes[at + k] = dict.codeOf(values[k] ? 1 : 0);
            }
        }
        return null;
    }

    /** INT64 TIMESTAMP in {@code unit} (MILLIS, MICROS or NANOS), staged in microseconds (nanoseconds floored). */
    static ParquetValueFault timestamps(
            long[] values, ParquetColumn.Source unit, Validity nulls, StagingBlock block, int c, int at, int n) {
        long[] to = block.longs(c);
        for (int k = 0; k < n; k++) {
            if (nulls != null && nulls.isNull(k)) {
                block.setNull(c, at + k);
                continue;
            }
            long v = values[k];
            long micros = switch (unit) {
                case TIMESTAMP_MICROS -> v;
                case TIMESTAMP_NANOS -> Math.floorDiv(v, 1000L);
                default -> Math.abs(v) > Long.MAX_VALUE / 1000 ? Long.MIN_VALUE : v * 1000;
            };
            if (!Timestamps.inRange(micros)) {
                return outOfRange(at + k, c, v, unit);
            }
            to[at + k] = micros;
        }
        return null;
    }

    /**
     * A TIMESTAMP outside years 0001 to 9999 (DuckDB writes years up to 294247, before year 1, and {@code infinity}
     * as the largest INT64): refused, never held as a value that prints and compares as another.
     */
    private static ParquetValueFault outOfRange(int row, int c, long value, ParquetColumn.Source unit) {
        String units = switch (unit) {
            case TIMESTAMP_MILLIS -> " ms";
            case TIMESTAMP_NANOS -> " ns";
            case INT96 -> " µs (INT96)";
            default -> " µs";
        };
        return new ParquetValueFault(
                row,
                c,
                "the timestamp of " + value + units + " since 1970 is outside 0001-01-01 00:00:00..9999-12-31"
                        + " 23:59:59.999999, the timestamps numacube reads and writes");
    }

    /** INT96 timestamps, 12 bytes each in {@code bytes} from {@code offsets[k]}. */
    static ParquetValueFault int96(
            byte[] bytes, int[] offsets, Validity nulls, StagingBlock block, int c, int at, int n) {
        long[] to = block.longs(c);
        for (int k = 0; k < n; k++) {
            if (nulls != null && nulls.isNull(k)) {
                block.setNull(c, at + k);
            } else {
                long micros = int96Micros(bytes, offsets[k]);
                if (!Timestamps.inRange(micros)) {
                    return outOfRange(at + k, c, micros, ParquetColumn.Source.INT96);
                }
                to[at + k] = micros;
            }
        }
        return null;
    }

    /**
     * An INT96 timestamp (nanoseconds of the day, then the Julian day; little-endian) in microseconds since 1970, or
     * {@code Long.MIN_VALUE} for a Julian day more than 100,000,000 days from 1970 (whose microseconds, plus those of
     * any nanoseconds of the day, could leave 64 bits).
     */
    static long int96Micros(byte[] b, int offset) {
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long nanosOfDay = buf.getLong(offset);
        long days = Integer.toUnsignedLong(buf.getInt(offset + 8)) - JULIAN_EPOCH_DAY;
        if (Math.abs(days) > 100_000_000L) {
            return Long.MIN_VALUE;
        }
        return days * Timestamps.MICROS_PER_DAY + nanosOfDay / 1000;
    }
}
