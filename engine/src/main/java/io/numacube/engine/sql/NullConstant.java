package io.numacube.engine.sql;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import java.util.List;

/**
 * The SQL {@code NULL} literal as a bound expression: {@code NULLIF(v, v)} of a zero {@code v}, a constant that is
 * NULL on every row and that every evaluator already knows. Bound alone it is a BIGINT; beside a typed operand
 * ({@code pnl = NULL}, {@code CASE ... THEN NULL ELSE name END}, {@code COALESCE(d, NULL)}) it takes that operand's
 * type and scale, as DuckDB's NULL literal casts to whatever it meets. A comparison with it is the {@link #unknown()}
 * condition, NULL on every row, so a WHERE keeps no row and {@code NOT (x = NULL)} none either (three-valued logic,
 * not false).
 *
 * <p>Stateless; thread-safe.
 */
final class NullConstant {

    private NullConstant() {}

    /** The NULL literal before it meets a typed operand: a BIGINT NULL. */
    static Expr untyped() {
        return typed(ColumnType.LONG, 0);
    }

    /** A NULL of {@code type} (a DECIMAL when {@code scale > 0}); a condition's NULL when {@code type} is null. */
    static Expr typed(ColumnType type, int scale) {
        if (type == null) {
            return new Expr.Compare(Expr.CompareOp.EQ, untyped(), untyped());
        }
        Expr.Literal zero = new Expr.Literal(
                switch (type) {
                    case STRING -> "";
                    case DOUBLE -> 0.0;
                    default -> 0L;
                },
                type == ColumnType.INT ? ColumnType.LONG : type,
                scale);
        return new Expr.Call("nullif", List.of(zero, zero), zero.type());
    }

    /** Whether {@code e} is a NULL constant ({@code NULLIF} of one literal twice, the NULL literal among them). */
    static boolean is(Expr e) {
        return e instanceof Expr.Call c
                && c.name().equals("nullif")
                && c.args().get(0) instanceof Expr.Literal
                && c.args().get(0).equals(c.args().get(1));
    }

    /**
     * Whether {@code call} is NULL on every row for a NULL literal among its arguments: every argument of COALESCE
     * one (of GREATEST and LEAST too, which skip NULLs), the first of NULLIF, any argument of the other functions (which are NULL for a NULL argument; CONCAT
     * skips NULLs, as DuckDB's).
     */
    static boolean isNullOf(Expr.Call call) {
        List<Expr> args = call.args();
        return switch (call.name()) {
            case "coalesce", "greatest", "least" -> args.stream().allMatch(NullConstant::is);
            case "nullif" -> !is(call) && is(args.getFirst());
            case "concat" -> false;
            case "concat_ws" -> is(args.getFirst());
            default -> args.stream().anyMatch(NullConstant::is);
        };
    }

    /** {@code e} as a NULL of {@code like}'s type when it is a NULL constant, else {@code e} itself. */
    static Expr like(Expr e, Expr like) {
        if (!is(e) || is(like)) {
            return e;
        }
        ParameterMarkers.met(e, like);
        return typed(like.type(), like.scale());
    }

    /** The condition that is NULL on every row ({@code NULL = NULL}): a comparison with a NULL literal folds to it. */
    static Expr unknown() {
        return typed(null, 0);
    }

    /** Whether {@code e} is the {@link #unknown()} condition. */
    static boolean isUnknown(Expr e) {
        return e instanceof Expr.Compare c && is(c.left()) && is(c.right());
    }
}
