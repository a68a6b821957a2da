package io.numacube.engine.plan;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.ValueOrder;
import io.numacube.numa.base.NumacubeException;
import java.util.List;
import java.util.Set;

/**
 * The numeric functions {@code ceil floor trunc sign power sqrt ln exp} and {@code greatest least}, with
 * PostgreSQL's result types and errors: every one of a BIGINT or DOUBLE is a DOUBLE ({@code ceil(7)} is {@code 7.0},
 * as in both PostgreSQL and DuckDB; {@code sign} too, where DuckDB answers a TINYINT); {@code ceil floor trunc sign}
 * of a DECIMAL are exact and whole ({@code decimal_ceil} and the like in {@link DecimalFunctions}, which the binder
 * picks); {@code greatest}/{@code least} are of their arguments' common type and skip NULLs (NULL only when every
 * argument is). Values as in {@link ScalarFunctions}: Long, Double, String, null for NULL. Stateless; thread-safe.
 */
final class NumberFunctions {

    static final Set<String> NAMES =
            Set.of("ceil", "floor", "trunc", "sign", "power", "sqrt", "ln", "exp", "greatest", "least");

    private NumberFunctions() {}

    /** Whether {@code name} skips NULL arguments (else a NULL argument gives NULL). */
    static boolean skipsNulls(String name) {
        return name.equals("greatest") || name.equals("least");
    }

    /** The result type of {@code name(args)}, or null when {@code name} is none of {@link #NAMES}. */
    static ColumnType resultType(String name, List<Expr> args) {
        if (!NAMES.contains(name)) {
            return null;
        }
        switch (name) {
            case "greatest", "least" -> {
                return ScalarFunctions.commonType(name, args, 1);
            }
            case "power" -> {
                ScalarFunctions.arity(name, args, 2);
                ScalarFunctions.numeric(name, args.get(1));
            }
            case "trunc" -> {
                if (args.size() != 1) {
                    throw new IllegalArgumentException(
                            "trunc takes 1 argument (trunc(x, n) is not supported yet: round(x, n) rounds)");
                }
            }
            default -> ScalarFunctions.arity(name, args, 1);
        }
        ScalarFunctions.numeric(name, args.get(0));
        return ColumnType.DOUBLE;
    }

    /** The value of {@code name(v...)} (NULL arguments already handled unless {@link #skipsNulls}). */
    static Object apply(String name, List<Object> v) {
        if (skipsNulls(name)) {
            return extreme(name.equals("greatest"), v);
        }
        double x = ((Number) v.get(0)).doubleValue();
        return switch (name) {
            case "ceil" -> Math.ceil(x);
            case "floor" -> Math.floor(x);
            // (long) drops the fraction toward zero; beyond 2^53 a double is whole already
            case "trunc" -> Math.abs(x) < 0x1p53 ? Math.copySign((double) (long) x, x) : x;
            // PostgreSQL's: NaN and -0.0 are 0
            case "sign" -> x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0;
            case "power" -> power(x, ((Number) v.get(1)).doubleValue());
            case "sqrt" -> {
                if (x < 0) {
                    throw invalid("2201F", "cannot take square root of a negative number: " + DoubleText.of(x));
                }
                yield Math.sqrt(x);
            }
            case "ln" -> {
                if (x <= 0) {
                    throw invalid(
                            "2201E",
                            "cannot take logarithm of " + (x == 0 ? "zero" : "a negative number: " + DoubleText.of(x)));
                }
                yield Math.log(x);
            }
            case "exp" -> finite(Math.exp(x), x, "exp(" + DoubleText.of(x) + ")");
            default -> throw new IllegalStateException("unknown function " + name);
        };
    }

    /** PostgreSQL's {@code power} of doubles: its three errors, and an overflow is 22003, never Infinity. */
    private static double power(double x, double y) {
        if (x == 0 && y < 0) {
            throw invalid("2201F", "zero raised to a negative power is undefined");
        }
        if (x < 0 && y != Math.rint(y) && Double.isFinite(y)) {
            throw invalid("2201F", "a negative number raised to a non-integer power yields a complex result");
        }
        double r = Math.pow(x, y);
        return finite(r, x + y, "power(" + DoubleText.of(x) + ", " + DoubleText.of(y) + ")");
    }

    /** {@code r}, or 22003 where finite arguments ({@code args} finite) gave an infinity (PostgreSQL's overflow). */
    private static double finite(double r, double args, String what) {
        if (Double.isInfinite(r) && Double.isFinite(args)) {
            throw invalid("22003", "value out of range: overflow in " + what);
        }
        return r;
    }

    /** The greatest (or least) non-NULL value, NULL when there is none; NaN is above every number, as in both. */
    private static Object extreme(boolean greatest, List<Object> v) {
        Object best = null;
        for (Object x : v) {
            if (x != null
                    && (best == null
                            || (ValueOrder.compare(x, best) > 0) == greatest && ValueOrder.compare(x, best) != 0)) {
                best = x;
            }
        }
        return best;
    }

    private static NumacubeException invalid(String sqlState, String message) {
        return new NumacubeException(NumacubeException.Kind.INVALID_INPUT, sqlState, message, null, null);
    }
}
