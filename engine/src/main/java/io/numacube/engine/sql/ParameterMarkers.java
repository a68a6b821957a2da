package io.numacube.engine.sql;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Stand-ins for a statement's parameters whose type the client left to the server (PostgreSQL's {@code $1} of type
 * {@code unknown}), so that binding the statement once tells each one's type as PostgreSQL infers it: the type of
 * the operand it meets first ({@code k = $1}, {@code pnl * $1}, {@code x IN ($1, $2)}, {@code COALESCE(desk, $1)}), or
 * the type it is cast to ({@code CAST($1 AS INTEGER)}, an UPDATE's {@code SET col = $1}). A marker is a string literal
 * no SQL text writes (private-use characters around the parameter's number), bound as a NULL that takes the type it
 * meets, as the NULL literal does ({@link NullConstant}); a marker that meets no typed operand has no inferred type.
 *
 * <p>What a marker met is recorded only inside {@link #collect}, on the thread that binds; stateless otherwise.
 */
public final class ParameterMarkers {

    /** A parameter's inferred type: a column type, with a scale above 0 for a DECIMAL. */
    public record InferredType(ColumnType type, int scale) {}

    private static final char MARK = '\uE000';
    /** A marker NULL is {@code NULLIF(v, v)} of this value plus the parameter's number: no other NULL has it. */
    private static final long BASE = Long.MIN_VALUE + 0x5A5A_0000L;

    private static final ThreadLocal<Map<Integer, InferredType>> MET = new ThreadLocal<>();

    private ParameterMarkers() {}

    /** The SQL text of the marker of parameter {@code number} (1-based): a string literal. */
    public static String marker(int number) {
        if (number < 1) {
            throw new IllegalArgumentException("a parameter's number is 1 or more: " + number);
        }
        return "'" + MARK + number + MARK + "'";
    }

    /**
     * Runs {@code binding} (which binds statements holding markers, on this thread) and returns the type each
     * marker's parameter met first, by its number; markers that met none are absent.
     */
    public static Map<Integer, InferredType> collect(Supplier<?> binding) {
        Map<Integer, InferredType> outer = MET.get();
        Map<Integer, InferredType> met = new HashMap<>();
        MET.set(met);
        try {
            binding.get();
            return Map.copyOf(met);
        } finally {
            MET.set(outer);
        }
    }

    /** The marker NULL for a string literal's value when it is a marker, else null. */
    static Expr bound(String literalValue) {
        int n = literalValue.length();
        if (n < 3 || literalValue.charAt(0) != MARK || literalValue.charAt(n - 1) != MARK) {
            return null;
        }
        int number;
        try {
            number = Integer.parseInt(literalValue.substring(1, n - 1));
        } catch (NumberFormatException notMarker) {
            return null;
        }
        Expr.Literal v = new Expr.Literal(BASE + number, ColumnType.LONG);
        return new Expr.Call("nullif", List.of(v, v), ColumnType.LONG);
    }

    /** Records that {@code e}, when a marker NULL, met an operand of {@code type} (and {@code scale}). */
    static void met(Expr e, ColumnType type, int scale) {
        Map<Integer, InferredType> met = MET.get();
        if (met == null || type == null || !NullConstant.is(e)) {
            return;
        }
        Object v = ((Expr.Literal) ((Expr.Call) e).args().getFirst()).value();
        if (v instanceof Long l && l > BASE && l <= BASE + Integer.MAX_VALUE) {
            // an INT is a narrow column's storage of a BIGINT, which is its SQL type
            met.putIfAbsent((int) (l - BASE), new InferredType(type == ColumnType.INT ? ColumnType.LONG : type, scale));
        }
    }

    /** As {@link #met(Expr, ColumnType, int)} with {@code other}'s type, when {@code other} is no NULL itself. */
    static void met(Expr e, Expr other) {
        if (!NullConstant.is(other)) {
            met(e, other.type(), other.scale());
        }
    }
}
