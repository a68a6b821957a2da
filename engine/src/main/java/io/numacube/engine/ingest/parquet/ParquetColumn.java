package io.numacube.engine.ingest.parquet;

import dev.hardwood.metadata.LogicalType;
import dev.hardwood.metadata.PhysicalType;
import dev.hardwood.schema.ColumnSchema;
import io.numacube.engine.schema.ColumnType;
import io.numacube.numa.base.NumacubeException;
import java.util.Locale;

/**
 * How one Parquet column is read: its numacube type and how its values arrive. Immutable.
 *
 * <p>Integers (INT32, INT64, with or without an INT logical type, signed or unsigned) are LONG, as the CSV reader
 * infers integers; DOUBLE and FLOAT are DOUBLE; UTF-8 text (STRING, ENUM, JSON) is STRING; DATE is DATE; BOOLEAN is
 * BOOLEAN; TIMESTAMP (MILLIS, MICROS or NANOS, adjusted to UTC or not) and INT96 (the old Impala/Spark timestamp) are
 * TIMESTAMP in microseconds, as DuckDB reads them (a UTC-adjusted one as its UTC wall time, which DuckDB would make a
 * TIMESTAMPTZ; nanoseconds truncated); DECIMAL(p,s) stored as INT32 or INT64 (p at most 18, as DuckDB and Spark write
 * them) is DECIMAL(p,s), its unscaled values read as they are. Every other type (a DECIMAL in bytes or of more than 18
 * digits, TIME, raw binary, nested LIST/MAP/STRUCT) is refused with an error naming the file, the column and its
 * Parquet type, never read approximately.
 *
 * @param name     the column name
 * @param index    the column's index in the file
 * @param type     the numacube type
 * @param source   how values arrive (which array of the reader holds them)
 * @param unsigned an unsigned integer: INT32 values are read as their unsigned value; INT64 values beyond BIGINT are
 *                 an error
 * @param bits      the integer's width in bits (8, 16, 32, 64), for unsigned values
 * @param precision a DECIMAL's precision (its values are the integers read, times 10^-scale), or 0
 * @param scale     a DECIMAL's scale, or 0
 */
record ParquetColumn(
        String name, int index, ColumnType type, Source source, boolean unsigned, int bits, int precision, int scale) {

    /** A column of a type other than DECIMAL. */
    ParquetColumn(String name, int index, ColumnType type, Source source, boolean unsigned, int bits) {
        this(name, index, type, source, unsigned, bits, 0, 0);
    }

    /** The column as the staging's schema holds it. */
    io.numacube.engine.schema.ColumnSpec spec() {
        return new io.numacube.engine.schema.ColumnSpec(name, type, precision, scale);
    }

    /** The array of the column reader that holds the values. */
    enum Source {
        INTS,
        LONGS,
        FLOATS,
        DOUBLES,
        STRINGS,
        DATES,
        BOOLEANS,
        TIMESTAMP_MILLIS,
        TIMESTAMP_MICROS,
        TIMESTAMP_NANOS,
        /** 12 bytes: nanoseconds of the day (8, little-endian), then the Julian day (4, little-endian). */
        INT96
    }

    /** The column's mapping, or an error naming {@code file}, the column and why it cannot be read. */
    static ParquetColumn of(String file, ColumnSchema c) {
        if (c.maxRepetitionLevel() > 0 || c.fieldPath().elements().size() > 1) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "0A000",
                    file + ": column " + c.fieldPath().topLevelName() + " is nested (a LIST, MAP or STRUCT: "
                            + String.join(".", c.fieldPath().elements()) + "), which numacube cannot load — it reads"
                            + " flat columns: flatten it where the file is written, or leave it out",
                    null,
                    null);
        }
        LogicalType logical = c.logicalType();
        PhysicalType physical = c.type();
        return switch (physical) {
            case INT32 -> int32(file, c, logical);
            case INT64 -> int64(file, c, logical);
            case DOUBLE -> plain(c, logical, file, ColumnType.DOUBLE, Source.DOUBLES);
            case FLOAT -> plain(c, logical, file, ColumnType.DOUBLE, Source.FLOATS);
            case BOOLEAN -> plain(c, logical, file, ColumnType.BOOLEAN, Source.BOOLEANS);
            case INT96 -> plain(c, logical, file, ColumnType.TIMESTAMP, Source.INT96);
            case BYTE_ARRAY -> {
                if (logical instanceof LogicalType.StringType
                        || logical instanceof LogicalType.EnumType
                        || logical instanceof LogicalType.JsonType) {
                    yield new ParquetColumn(c.name(), c.columnIndex(), ColumnType.STRING, Source.STRINGS, false, 0);
                }
                throw refused(file, c, describe(c) + " (binary data, not UTF-8 text)");
            }
            default -> throw refused(file, c, describe(c));
        };
    }

    private static ParquetColumn int32(String file, ColumnSchema c, LogicalType logical) {
        if (logical == null) {
            return new ParquetColumn(c.name(), c.columnIndex(), ColumnType.LONG, Source.INTS, false, 32);
        }
        if (logical instanceof LogicalType.IntType t) {
            return new ParquetColumn(c.name(), c.columnIndex(), ColumnType.LONG, Source.INTS, !t.isSigned(), 32);
        }
        if (logical instanceof LogicalType.DateType) {
            return new ParquetColumn(c.name(), c.columnIndex(), ColumnType.DATE, Source.DATES, false, 32);
        }
        if (logical instanceof LogicalType.DecimalType d && fits(d)) {
            return new ParquetColumn(
                    c.name(), c.columnIndex(), ColumnType.LONG, Source.INTS, false, 32, d.precision(), d.scale());
        }
        throw refused(file, c, describe(c));
    }

    private static ParquetColumn int64(String file, ColumnSchema c, LogicalType logical) {
        if (logical == null) {
            return new ParquetColumn(c.name(), c.columnIndex(), ColumnType.LONG, Source.LONGS, false, 64);
        }
        if (logical instanceof LogicalType.IntType t) {
            return new ParquetColumn(c.name(), c.columnIndex(), ColumnType.LONG, Source.LONGS, !t.isSigned(), 64);
        }
        if (logical instanceof LogicalType.DecimalType d && fits(d)) {
            return new ParquetColumn(
                    c.name(), c.columnIndex(), ColumnType.LONG, Source.LONGS, false, 64, d.precision(), d.scale());
        }
        if (logical instanceof LogicalType.TimestampType t) {
            Source unit = switch (t.unit()) {
                case MILLIS -> Source.TIMESTAMP_MILLIS;
                case MICROS -> Source.TIMESTAMP_MICROS;
                case NANOS -> Source.TIMESTAMP_NANOS;
            };
            return new ParquetColumn(c.name(), c.columnIndex(), ColumnType.TIMESTAMP, unit, false, 64);
        }
        throw refused(file, c, describe(c));
    }

    private static boolean fits(LogicalType.DecimalType d) {
        return d.precision() >= 1
                && d.precision() <= io.numacube.engine.schema.ColumnSpec.MAX_DECIMAL_PRECISION
                && d.scale() >= 0
                && d.scale() <= d.precision();
    }

    private static ParquetColumn plain(
            ColumnSchema c, LogicalType logical, String file, ColumnType type, Source source) {
        if (logical != null) {
            throw refused(file, c, describe(c));
        }
        return new ParquetColumn(c.name(), c.columnIndex(), type, source, false, 0);
    }

    /** The column's Parquet type as a reader would write it: {@code INT64 (DECIMAL(18,2))}, {@code BOOLEAN}. */
    static String describe(ColumnSchema c) {
        LogicalType t = c.logicalType();
        if (t == null) {
            return c.type().toString();
        }
        String logical = t instanceof LogicalType.DecimalType d
                ? "DECIMAL(" + d.precision() + "," + d.scale() + ")"
                : t.getClass().getSimpleName().replaceFirst("Type$", "").toUpperCase(Locale.ROOT);
        return c.type() + " (" + logical + ")";
    }

    private static NumacubeException refused(String file, ColumnSchema c, String what) {
        String hint = c.logicalType() instanceof LogicalType.DecimalType
                ? "numacube reads a DECIMAL of at most 18 digits stored as INT32 or INT64, and never one approximately:"
                        + " cast it to DECIMAL(18,s) or DOUBLE where the file is written, or leave it out"
                : "numacube reads integers, DOUBLE, FLOAT, UTF-8 text, DATE, TIMESTAMP and BOOLEAN: cast it where the file is written,"
                        + " or leave it out";
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                "0A000",
                file + ": column " + c.name() + " is " + what + ", which numacube cannot load — " + hint,
                null,
                null);
    }
}
