package io.numacube.engine.fuzz;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import java.util.List;

/**
 * The fixed schemas of the fuzzed tables; only their data varies. Fact table {@code f}: STRING dimensions {@code s0}
 * (few values, skewed, with the empty string and non-ASCII text) and {@code s1} (many values); INT dimensions
 * {@code i0} (small values) and {@code i1} (up to ±2^50); DATE dimension {@code dt0}; BOOLEAN dimension {@code b0}; DOUBLE measures {@code m0}
 * (multiples of 1/8 below 1,024 in magnitude, so their sums are exact) and {@code m1} (magnitudes from 1e-6 to 1e15);
 * LONG measures {@code l0} (±10^6) and {@code l1} (±2^40, a few near ±2^62); a plain TIMESTAMP {@code ts0} (a few hundred
 * hours around 2013, some with fractions of a second, some before 1970); DECIMAL measures {@code n0} DECIMAL(12,2)
 * (within ±10^7, many values: stored plain) and {@code n1} DECIMAL(5,3) (41 values in steps of 0.125: stored coded).
 * Lookup table {@code d}, keyed by
 * {@code s0} or {@code i0}: {@code rate} DOUBLE, {@code w} LONG, {@code region} STRING, {@code tier} INT. Second lookup
 * table {@code e} (a star), keyed by another fact dimension: {@code grade} STRING, {@code fee} DOUBLE, {@code lvl} INT,
 * {@code opened} DATE. Snowflake table {@code r}, keyed by {@code d.region}: {@code zone} STRING, {@code zrank} INT.
 *
 * <p>Constants only; thread-safe.
 */
public final class FactColumns {

    public static final List<String> DIMENSIONS = List.of("s0", "s1", "i0", "i1", "dt0", "b0");
    public static final List<String> DOUBLES = List.of("m0", "m1");
    public static final List<String> LONGS = List.of("l0", "l1");
    public static final List<String> DECIMALS = List.of("n0", "n1");
    public static final List<String> ALL =
            List.of("s0", "s1", "i0", "i1", "dt0", "b0", "m0", "m1", "l0", "l1", "ts0", "n0", "n1");

    public static final TableSchema FACT = new TableSchema(
            "f",
            List.of(
                    ColumnSpec.of("s0", ColumnType.STRING),
                    ColumnSpec.of("s1", ColumnType.STRING),
                    ColumnSpec.of("i0", ColumnType.INT),
                    ColumnSpec.of("i1", ColumnType.INT),
                    ColumnSpec.of("dt0", ColumnType.DATE),
                    ColumnSpec.of("b0", ColumnType.BOOLEAN),
                    ColumnSpec.of("m0", ColumnType.DOUBLE),
                    ColumnSpec.of("m1", ColumnType.DOUBLE),
                    ColumnSpec.of("l0", ColumnType.LONG),
                    ColumnSpec.of("l1", ColumnType.LONG),
                    ColumnSpec.of("ts0", ColumnType.TIMESTAMP),
                    ColumnSpec.decimal("n0", 12, 2),
                    ColumnSpec.decimal("n1", 5, 3)));

    /** The lookup table's attribute columns (its key is named as the fact column it joins). */
    public static final List<String> LOOKUP_ATTRIBUTES = List.of("rate", "w", "region", "tier");

    /** The second lookup table's attribute columns (its key is named as the fact column it joins). */
    public static final List<String> LOOKUP2_ATTRIBUTES = List.of("grade", "fee", "lvl", "opened");

    /** The snowflake table's attribute columns (its key is {@code region}, an attribute of {@code d}). */
    public static final List<String> SNOWFLAKE_ATTRIBUTES = List.of("zone", "zrank");

    /** The snowflake table {@code r}, keyed by {@code region}. */
    public static final TableSchema SNOWFLAKE = new TableSchema(
            "r",
            List.of(
                    ColumnSpec.of("region", ColumnType.STRING),
                    ColumnSpec.of("zone", ColumnType.STRING),
                    ColumnSpec.of("zrank", ColumnType.INT)));

    private FactColumns() {}

    /** The lookup table's schema when keyed by fact dimension {@code key}. */
    public static TableSchema lookup(String key) {
        return new TableSchema(
                "d",
                List.of(
                        ColumnSpec.of(key, type(key)),
                        ColumnSpec.of("rate", ColumnType.DOUBLE),
                        ColumnSpec.of("w", ColumnType.LONG),
                        ColumnSpec.of("region", ColumnType.STRING),
                        ColumnSpec.of("tier", ColumnType.INT)));
    }

    /** The second lookup table's schema when keyed by fact dimension {@code key}. */
    public static TableSchema lookup2(String key) {
        return new TableSchema(
                "e",
                List.of(
                        ColumnSpec.of(key, type(key)),
                        ColumnSpec.of("grade", ColumnType.STRING),
                        ColumnSpec.of("fee", ColumnType.DOUBLE),
                        ColumnSpec.of("lvl", ColumnType.INT),
                        ColumnSpec.of("opened", ColumnType.DATE)));
    }

    /** The type of a fact or lookup column by name; DECIMAL for the DECIMAL columns (stored as LONG). */
    public static ColumnType type(String column) {
        return switch (column) {
            case "s0", "s1", "region", "grade", "zone" -> ColumnType.STRING;
            case "i0", "i1", "tier", "lvl", "zrank" -> ColumnType.INT;
            case "dt0", "opened" -> ColumnType.DATE;
            case "b0" -> ColumnType.BOOLEAN;
            case "m0", "m1", "rate", "fee" -> ColumnType.DOUBLE;
            case "l0", "l1", "w" -> ColumnType.LONG;
            case "ts0" -> ColumnType.TIMESTAMP;
            case "n0", "n1" -> ColumnType.DECIMAL;
            default -> throw new IllegalArgumentException("no fuzz column: " + column);
        };
    }
}
