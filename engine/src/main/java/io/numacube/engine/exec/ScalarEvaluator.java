package io.numacube.engine.exec;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.ValueOrder;
import io.numacube.numa.base.NumacubeException;
import java.util.List;
import java.util.function.Function;

/**
 * Evaluates an expression on single values: used once per dictionary code (to turn predicates on one dimension into
 * code masks) and once per result group (outputs, HAVING, ORDER BY) — never per row. Values: String, Long (LONG, INT,
 * DATE as epoch day), Double, Boolean for predicates, null for SQL NULL (three-valued logic). Stateless.
 */
final class ScalarEvaluator {

    private ScalarEvaluator() {}

    /** @param leaf the value of a Column, KeyRef or AggRef */
    static Object eval(Expr e, Function<Expr, Object> leaf) {
        return switch (e) {
            case Expr.Column c -> leaf.apply(c);
            case Expr.KeyRef k -> leaf.apply(k);
            case Expr.AggRef a -> leaf.apply(a);
            case Expr.Agg a -> leaf.apply(a);
            case Expr.Literal l -> l.value();
            case Expr.Neg n -> negate(n, eval(n.operand(), leaf));
            case Expr.Arith a -> arith(a, eval(a.left(), leaf), eval(a.right(), leaf));
            case Expr.Compare c -> {
                Object l = eval(c.left(), leaf);
                Object r = eval(c.right(), leaf);
                yield l == null || r == null ? null : c.op().test(ValueOrder.compare(l, r));
            }
            case Expr.In in -> {
                Object x = eval(in.operand(), leaf);
                yield x == null ? null : in.set().contains(x) != in.negated();
            }
            case Expr.Between b -> between(b, leaf);
            case Expr.And a -> junction(a.terms(), false, leaf);
            case Expr.Or o -> junction(o.terms(), true, leaf);
            case Expr.IsNull n -> (eval(n.operand(), leaf) == null) != n.negated();
            case Expr.Call c -> call(c, leaf);
            case Expr.Case c -> caseOf(c, leaf);
            case Expr.Like l -> {
                Object x = eval(l.operand(), leaf);
                yield x == null ? null : LikePattern.matches((String) x, l) != l.negated();
            }
            case Expr.IsDistinct d -> {
                Object l = eval(d.left(), leaf);
                Object r = eval(d.right(), leaf);
                boolean same = l == null || r == null ? l == r : ValueOrder.compare(l, r) == 0;
                yield same == d.negated();
            }
            case Expr.Not n -> {
                Object v = eval(n.operand(), leaf);
                yield v == null ? null : !(Boolean) v;
            }
        };
    }

    private static Object call(Expr.Call c, Function<Expr, Object> leaf) {
        java.util.ArrayList<Object> values = new java.util.ArrayList<>(c.args().size());
        for (Expr a : c.args()) {
            values.add(eval(a, leaf));
        }
        try {
            // COALESCE(bigint, double) gives the BIGINT itself where it is not NULL: a DOUBLE, as the call is typed
            return convert(io.numacube.engine.plan.ScalarFunctions.apply(c, values), c.type());
        } catch (ArithmeticException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    BatchExpression.NUMERIC_OUT_OF_RANGE,
                    "BIGINT overflow in " + c.text(),
                    null,
                    null);
        }
    }

    /** The first result whose condition is TRUE (NULL and FALSE skip it), else the ELSE value or NULL. */
    private static Object caseOf(Expr.Case c, Function<Expr, Object> leaf) {
        for (int i = 0; i < c.conditions().size(); i++) {
            if (Boolean.TRUE.equals(eval(c.conditions().get(i), leaf))) {
                return convert(eval(c.results().get(i), leaf), c.type());
            }
        }
        return c.otherwise() == null ? null : convert(eval(c.otherwise(), leaf), c.type());
    }

    /** An integer result of a CASE or a function whose type is DOUBLE, as a Double. */
    private static Object convert(Object v, ColumnType type) {
        return type == ColumnType.DOUBLE && v instanceof Long l ? (Object) l.doubleValue() : v;
    }

    private static Object negate(Expr.Neg n, Object v) {
        if (v instanceof Long x && x == Long.MIN_VALUE) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    BatchExpression.NUMERIC_OUT_OF_RANGE,
                    "BIGINT overflow in " + n.text(),
                    null,
                    null);
        }
        return v == null ? null : v instanceof Long x ? (Object) (-x) : (Object) (-((Number) v).doubleValue());
    }

    private static Object between(Expr.Between b, Function<Expr, Object> leaf) {
        Object x = eval(b.operand(), leaf);
        Object lo = eval(b.low(), leaf);
        Object hi = eval(b.high(), leaf);
        if (x == null || lo == null || hi == null) {
            return null;
        }
        boolean in = ValueOrder.compare(x, lo) >= 0 && ValueOrder.compare(x, hi) <= 0;
        return in != b.negated();
    }

    /**
     * AND ({@code decisive} false) or OR ({@code decisive} true) in three-valued logic: the first term equal to
     * {@code decisive} decides; else NULL if any term is NULL; else {@code !decisive}.
     */
    private static Object junction(List<Expr> terms, boolean decisive, Function<Expr, Object> leaf) {
        boolean unknown = false;
        for (Expr t : terms) {
            Object v = eval(t, leaf);
            if (v == null) {
                unknown = true;
            } else if ((Boolean) v == decisive) {
                return decisive;
            }
        }
        return unknown ? null : !decisive;
    }

    private static Object arith(Expr.Arith a, Object l, Object r) {
        if (l == null || r == null) {
            return null;
        }
        if (a.type() == ColumnType.LONG && l instanceof Long x && r instanceof Long y) {
            try {
                return switch (a.op()) {
                    case '+' -> Math.addExact(x, y);
                    case '-' -> Math.subtractExact(x, y);
                    default -> Math.multiplyExact(x, y);
                };
            } catch (ArithmeticException e) {
                throw BatchExpression.overflow(BatchExpression.overflowText(a), a.op(), x, y);
            }
        }
        double x = ((Number) l).doubleValue();
        double y = ((Number) r).doubleValue();
        return switch (a.op()) {
            case '+' -> x + y;
            case '-' -> x - y;
            case '*' -> x * y;
            default -> x / y;
        };
    }
}
