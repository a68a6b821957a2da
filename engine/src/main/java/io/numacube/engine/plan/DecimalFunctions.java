package io.numacube.engine.plan;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.numa.base.NumacubeException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Set;

/**
 * The conversions of DECIMAL values that the binder inserts, on the {@code long} that holds a DECIMAL's value times
 * 10^scale, rounding half away from zero as DuckDB does:
 *
 * <ul>
 *   <li>{@code cast_decimal(x, from_scale, p, s)}: a BIGINT, DOUBLE, text or DECIMAL (of {@code from_scale}) as a
 *       DECIMAL(p,s); 22003 when it needs more than p digits, 22018 for text that is no number;
 *   <li>{@code decimal_round(x, from_scale, to_scale)}: {@code round(x, to_scale)} of a DECIMAL, at scale to_scale;
 *   <li>{@code decimal_bigint(x, from_scale)}: CAST to BIGINT;
 *   <li>{@code decimal_text(x, from_scale)}: the text DuckDB writes, every digit of the scale kept ({@code 1.20});
 *   <li>{@code decimal_ceil decimal_floor decimal_trunc decimal_sign (x, from_scale)}: {@code ceil floor trunc sign}
 *       of a DECIMAL, whole and exact (scale 0, as PostgreSQL's numeric results and DuckDB's DECIMAL(p,0)).
 * </ul>
 *
 * <p>Stateless; thread-safe.
 */
final class DecimalFunctions {

    static final Set<String> NAMES = Set.of(
            "cast_decimal",
            "decimal_round",
            "decimal_bigint",
            "decimal_text",
            "decimal_ceil",
            "decimal_floor",
            "decimal_trunc",
            "decimal_sign");

    private DecimalFunctions() {}

    /** The result type of one of {@link #NAMES}, or null for another name. */
    static ColumnType resultType(String name, List<Expr> args) {
        if (!NAMES.contains(name)) {
            return null;
        }
        if (name.equals("cast_decimal")) {
            ColumnType from = args.get(0).type();
            if (from == null || from == ColumnType.DATE || from == ColumnType.TIMESTAMP) {
                throw new IllegalArgumentException("CAST to DECIMAL of "
                        + (from == null ? "a condition" : from.name().toLowerCase(java.util.Locale.ROOT)) + ": "
                        + args.get(0).text());
            }
        }
        return name.equals("decimal_text") ? ColumnType.STRING : ColumnType.LONG;
    }

    /** The value of {@code name(v...)}; null when {@code x} is null. */
    static Object apply(String name, List<Object> v) {
        Object x = v.get(0);
        if (x == null) {
            return null;
        }
        int from = ((Long) v.get(1)).intValue();
        return switch (name) {
            case "cast_decimal" -> toDecimal(x, from, ((Long) v.get(2)).intValue(), ((Long) v.get(3)).intValue());
            case "decimal_round" -> {
                int to = ((Long) v.get(2)).intValue();
                yield BigDecimal.valueOf((Long) x, from)
                        .setScale(to, RoundingMode.HALF_UP)
                        .unscaledValue()
                        .longValueExact();
            }
            case "decimal_bigint" ->
                BigDecimal.valueOf((Long) x, from)
                        .setScale(0, RoundingMode.HALF_UP)
                        .longValueExact();
            case "decimal_text" -> BigDecimal.valueOf((Long) x, from).toPlainString();
            case "decimal_ceil" -> -Math.floorDiv(-(Long) x, pow10(from));
            case "decimal_floor" -> Math.floorDiv((Long) x, pow10(from));
            case "decimal_trunc" -> (Long) x / pow10(from);
            case "decimal_sign" -> (long) Long.signum((Long) x);
            default -> throw new IllegalStateException("unknown function " + name);
        };
    }

    private static long pow10(int scale) {
        long p = 1;
        for (int i = 0; i < scale; i++) {
            p *= 10;
        }
        return p;
    }

    private static long toDecimal(Object x, int from, int precision, int scale) {
        BigDecimal d;
        switch (x) {
            case Long l -> d = BigDecimal.valueOf(l, from);
            case Double dbl -> {
                // as DuckDB: the double times 10^scale, in doubles, rounded half away from zero
                double r = ScalarFunctions.halfAway(dbl * Math.pow(10, scale));
                if (!(Math.abs(r) < Math.pow(10, precision))) {
                    throw outOfRange(x, precision, scale);
                }
                return (long) r;
            }
            default -> {
                try {
                    String text = ((String) x).strip();
                    if (!Casts.isNumberText(text)) {
                        throw new NumberFormatException("not a number in SQL's notation: " + text);
                    }
                    d = new BigDecimal(text);
                } catch (NumberFormatException e) {
                    throw new NumacubeException(
                            NumacubeException.Kind.INVALID_INPUT,
                            "22018",
                            "could not convert '" + x + "' to DECIMAL(" + precision + "," + scale + ")",
                            null,
                            null);
                }
            }
        }
        BigDecimal r = d.setScale(scale, RoundingMode.HALF_UP);
        if (r.precision() - r.scale() > precision - scale && r.signum() != 0) {
            throw x instanceof Long l ? outOfRange(l, from, precision, scale) : outOfRange(x, precision, scale);
        }
        return r.unscaledValue().longValueExact();
    }

    private static NumacubeException outOfRange(Object x, int precision, int scale) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                "22003",
                ColumnSpec.decimalOverflow(precision, scale) + ": value " + x + " as DECIMAL(" + precision + "," + scale
                        + ")",
                null,
                null);
    }

    /** As {@link #outOfRange(Object, int, int)} for a DECIMAL of scale {@code from}: its value, not its digits. */
    private static NumacubeException outOfRange(long unscaled, int from, int precision, int scale) {
        return outOfRange(BigDecimal.valueOf(unscaled, from).toPlainString(), precision, scale);
    }
}
