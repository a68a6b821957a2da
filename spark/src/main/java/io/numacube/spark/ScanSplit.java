package io.numacube.spark;

import java.io.Serializable;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A row scan split into ranges of one column, as Spark's JDBC source splits a table: the options {@code
 * partitionColumn} (a BIGINT, DATE or TIMESTAMP column), {@code numPartitions} (ranges per shard) and, both or neither,
 * {@code lowerBound} and {@code upperBound} (an integer, {@code 2024-01-01} or {@code 2024-01-01 12:00:00[.ffffff]};
 * without them each shard's MIN and MAX of the column). The bounds only place the cuts: the first range also holds
 * every value below its cut and the NULLs, the last every value from its cut up, so each row of a shard is in exactly
 * one range, whatever the bounds. Each range is its own query, and Spark partition, so a shard computes and holds one
 * range's answer at a time, never its whole table's. Values are compared as numacube holds them (integers, days,
 * microseconds), the cuts spaced evenly between the bounds. Immutable.
 *
 * @param column the column's name, as the table spells it
 * @param type   its Spark type: LongType, DateType or TimestampNTZType
 * @param pieces the ranges per shard, at least 1
 * @param lower  the lower bound as numacube holds it, or null to ask each shard its MIN
 * @param upper  the upper bound as numacube holds it, or null to ask each shard its MAX
 */
record ScanSplit(String column, DataType type, int pieces, Long lower, Long upper) implements Serializable {

    /** The split the read's options ask for, or null when they name no {@code partitionColumn}. */
    static ScanSplit of(Map<String, String> options, StructType schema) {
        String name = ReadOptions.get(options, "partitionColumn");
        if (name == null) {
            return null;
        }
        StructField field = Arrays.stream(schema.fields())
                .filter(f -> f.name().equalsIgnoreCase(name.strip()))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("numacube: partitionColumn=" + name
                        + " is not a column of the table: " + Arrays.toString(schema.fieldNames())));
        DataType type = field.dataType();
        if (type != DataTypes.LongType && type != DataTypes.DateType && type != DataTypes.TimestampNTZType) {
            throw new IllegalArgumentException("numacube: partitionColumn=" + field.name() + " is a " + type.sql()
                    + " column: a scan splits by a BIGINT, DATE or TIMESTAMP column");
        }
        String count = ReadOptions.get(options, "numPartitions");
        int pieces;
        try {
            pieces = count == null ? -1 : Integer.parseInt(count.strip());
        } catch (NumberFormatException e) {
            pieces = -1;
        }
        if (pieces <= 0) {
            throw new IllegalArgumentException("numacube: partitionColumn needs numPartitions, the ranges per shard,"
                    + " a positive number: numPartitions=" + count);
        }
        String lower = ReadOptions.get(options, "lowerBound");
        String upper = ReadOptions.get(options, "upperBound");
        if ((lower == null) != (upper == null)) {
            throw new IllegalArgumentException("numacube: give lowerBound and upperBound together, or neither (each"
                    + " shard's MIN and MAX of " + field.name() + "): lowerBound=" + lower + " upperBound=" + upper);
        }
        Long lo = lower == null ? null : bound("lowerBound", lower, type);
        Long hi = upper == null ? null : bound("upperBound", upper, type);
        if (lo != null && lo > hi) {
            throw new IllegalArgumentException(
                    "numacube: lowerBound=" + lower + " is above upperBound=" + upper + " for " + field.name());
        }
        return new ScanSplit(field.name(), type, pieces, lo, hi);
    }

    private static long bound(String option, String text, DataType type) {
        String t = text.strip();
        try {
            if (type == DataTypes.LongType) {
                return Long.parseLong(t);
            }
            LocalDateTime time =
                    t.length() == 10 ? LocalDate.parse(t).atStartOfDay() : LocalDateTime.parse(t.replace(' ', 'T'));
            if (SqlFilters.literal(time) != null && (type != DataTypes.DateType || t.length() == 10)) {
                return type == DataTypes.DateType
                        ? time.toLocalDate().toEpochDay()
                        : time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1_000;
            }
        } catch (NumberFormatException | DateTimeParseException e) {
            // refused below
        }
        throw new IllegalArgumentException("numacube: " + option + "=" + text + " is not a " + type.sql()
                + (type == DataTypes.LongType
                        ? " (e.g. 1000)"
                        : " of the years 0001 to 9999 (e.g. "
                                + (type == DataTypes.DateType ? "2024-01-01)" : "2024-01-01 12:00:00)")));
    }

    /** The SQL that asks a shard for the column's MIN and MAX (the bounds it cuts between, when none were given). */
    String boundsSql(String table) {
        String c = SqlFilters.column(column);
        return "SELECT MIN(" + c + "), MAX(" + c + ") FROM " + SqlFilters.column(table);
    }

    /**
     * One condition per range of a shard whose values lie between {@code min} and {@code max} (null: the shard has
     * none): cuts at {@code min + (max - min) * i / pieces}, each once, so fewer ranges where there are fewer values
     * than ranges; none (the whole scan) for a single range.
     */
    List<String> conditions(Long min, Long max) {
        long lo = lower != null ? lower : min == null ? 0 : min;
        long hi = upper != null ? upper : max == null ? 0 : max;
        List<Long> cuts = new ArrayList<>();
        BigInteger span = BigInteger.valueOf(hi).subtract(BigInteger.valueOf(lo));
        for (int i = 1; i < pieces; i++) {
            long cut = BigInteger.valueOf(lo)
                    .add(span.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(pieces)))
                    .longValueExact();
            if (cut > lo && (cuts.isEmpty() || cut > cuts.getLast())) {
                cuts.add(cut);
            }
        }
        String c = SqlFilters.column(column);
        List<String> out = new ArrayList<>();
        for (int i = 0; i <= cuts.size() && !cuts.isEmpty(); i++) {
            String from = i == 0 ? null : c + " >= " + literal(cuts.get(i - 1));
            String below = i == cuts.size() ? null : c + " < " + literal(cuts.get(i));
            out.add(from == null ? below + " OR " + c + " IS NULL" : below == null ? from : from + " AND " + below);
        }
        return out;
    }

    /** A value as numacube holds it (integer, days, microseconds) as a SQL literal of the column's type. */
    private String literal(long v) {
        return SqlFilters.literal(type == DataTypes.DateType ? (Object) Math.toIntExact(v) : (Object) v, type);
    }

    /** For {@code explain()}. */
    String describe() {
        return pieces + " ranges of " + column + " per shard"
                + (lower == null
                        ? " (between each shard's MIN and MAX)"
                        : " (cut between " + literal(lower) + " and " + literal(upper) + ")");
    }
}
