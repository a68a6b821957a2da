package io.numacube.engine.sql;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;

/**
 * Comparisons of an integer value (a BIGINT or INT column or expression, not a DECIMAL) with an exact number literal
 * that has a fraction or does not fit 64 bits ({@code v > 2.5}, {@code v < 9223372036854775807.5}), decided exactly
 * as DuckDB decides them (it compares in 128-bit decimals): the literal is rounded the way that keeps the answer
 * ({@code v > 2.5} is {@code v > 2}, {@code v >= 2.5} is {@code v >= 3}), and a comparison whose answer does not
 * depend on {@code v} ({@code v = 2.5}, {@code v < 1e30}) becomes one that is never or always true for a non-NULL
 * {@code v} ({@code v = 0.5} or {@code v <> 0.5} in doubles: no integer is 0.5) and NULL for a NULL one. So the
 * integer is never raised to the literal's scale (which could leave 64 bits) nor compared in doubles (which round
 * near 2^63). A DECIMAL value of scale s is compared so with an exact literal of more than 18 digits (which the binder
 * makes a DOUBLE, {@code d = 1.2500000000000000000001}) or with a DECIMAL literal of a scale finer than s ({@code d =
 * 1.50000000001}), in units of 10^-s, and so is such a literal in an IN list of it.
 *
 * <p>Stateless; thread-safe.
 */
final class IntegerComparisons {

    private static final BigDecimal MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final Expr.Literal HALF = new Expr.Literal(0.5, ColumnType.DOUBLE);

    private IntegerComparisons() {}

    /**
     * {@code l op r}, bound from {@code ln} and {@code rn}: exactly as above where one side is an integer value and
     * the other such a literal, else with both sides {@link DecimalRules#unify unified}.
     */
    static Expr.Compare compare(SqlNode node, SqlNode ln, SqlNode rn, Expr.CompareOp op, Expr l, Expr r) {
        BigDecimal rv = exactVersus(l, rn, r);
        if (rv != null) {
            return versus(op, l, rv);
        }
        BigDecimal lv = exactVersus(r, ln, l);
        if (lv != null) {
            return versus(flipped(op), r, lv);
        }
        List<Expr> u = DecimalRules.unify(node, l, r);
        return new Expr.Compare(op, u.get(0), u.get(1));
    }

    /**
     * {@code x [NOT] BETWEEN lo AND hi} as {@code [NOT] (x >= lo AND x <= hi)} where {@code x} is an integer value and
     * a bound such a literal; null otherwise.
     */
    static Expr between(SqlNode node, SqlNode loNode, SqlNode hiNode, Expr x, Expr lo, Expr hi, boolean negated) {
        if (exactVersus(x, loNode, lo) == null && exactVersus(x, hiNode, hi) == null) {
            return null;
        }
        Expr both = new Expr.And(List.of(
                compare(node, null, loNode, Expr.CompareOp.GE, x, lo),
                compare(node, null, hiNode, Expr.CompareOp.LE, x, hi)));
        return negated ? new Expr.Not(both) : both;
    }

    /**
     * {@code x [NOT] IN (values)} where {@code x} is an integer or DECIMAL value and some values such literals: each
     * exact value that is a whole number of x's units within 64 bits as that number (at x's scale), others left out
     * (no value of x equals them); {@code x = 0.5 * 10^-s} (never true) when none is left. Null when {@code x} is no
     * such value, no value is such a literal, or (for a DECIMAL) a value is a DOUBLE of no exact text.
     */
    static Expr in(List<SqlNode> nodes, Expr x, List<Expr.Literal> values, boolean negated) {
        if (!isIntegerValue(x) && !isDecimalValue(x)) {
            return null;
        }
        List<Expr.Literal> kept = new ArrayList<>();
        boolean any = false;
        for (int i = 0; i < values.size(); i++) {
            Expr.Literal lit = values.get(i);
            BigDecimal v = exactVersus(x, nodes.get(i), lit);
            any |= v != null;
            if (v == null && isDecimalValue(x) && lit.value() instanceof Long raw) {
                v = BigDecimal.valueOf(raw, lit.scale());
            } else if (v == null && isDecimalValue(x) && lit.value() != null) {
                return null;
            }
            if (v == null) {
                kept.add(lit);
                continue;
            }
            Expr.Literal units = inUnits(v, x.scale());
            if (units != null) {
                kept.add(units);
            }
        }
        if (!any) {
            return null;
        }
        if (kept.isEmpty()) {
            return constant(negated, x);
        }
        return new Expr.In(x, kept, negated);
    }

    /**
     * The exact value {@code v} in units of 10^-{@code scale} as a literal of that scale, where it is a whole number
     * of them within 64 bits; else null: no value of that scale equals it.
     */
    private static Expr.Literal inUnits(BigDecimal v, int scale) {
        BigDecimal u = v.movePointRight(scale);
        if (u.signum() != 0 && (u.stripTrailingZeros().scale() > 0 || u.compareTo(MIN) < 0 || u.compareTo(MAX) > 0)) {
            return null;
        }
        return new Expr.Literal(u.setScale(0, RoundingMode.UNNECESSARY).longValueExact(), ColumnType.LONG, scale);
    }

    private static Expr.Compare versus(Expr.CompareOp op, Expr x, BigDecimal literal) {
        int scale = x.scale();
        BigDecimal v = literal.movePointRight(scale);
        boolean integral = v.signum() == 0 || v.stripTrailingZeros().scale() <= 0;
        BigDecimal bound = switch (op) {
            case GT, LE -> v.setScale(0, RoundingMode.FLOOR);
            case LT, GE -> v.setScale(0, RoundingMode.CEILING);
            case EQ, NE -> integral ? v.setScale(0, RoundingMode.UNNECESSARY) : null;
        };
        if (bound == null) {
            return constant(op == Expr.CompareOp.NE, x);
        }
        if (bound.compareTo(MAX) > 0) {
            return constant(op == Expr.CompareOp.LT || op == Expr.CompareOp.LE || op == Expr.CompareOp.NE, x);
        }
        if (bound.compareTo(MIN) < 0) {
            return constant(op == Expr.CompareOp.GT || op == Expr.CompareOp.GE || op == Expr.CompareOp.NE, x);
        }
        return new Expr.Compare(op, x, new Expr.Literal(bound.longValueExact(), ColumnType.LONG, scale));
    }

    /**
     * True for every non-NULL {@code x} ({@code x <> 0.5}) or for none ({@code x = 0.5}); NULL for a NULL one. A
     * DECIMAL of scale s is compared with half its unit (0.5 * 10^-s as a DOUBLE), which no value of it equals.
     */
    private static Expr.Compare constant(boolean always, Expr x) {
        Expr.Literal half = x.scale() == 0 ? HALF : new Expr.Literal(0.5 / Math.pow(10, x.scale()), ColumnType.DOUBLE);
        return new Expr.Compare(always ? Expr.CompareOp.NE : Expr.CompareOp.EQ, x, half);
    }

    /**
     * The exact literal {@code e} is compared with {@code x} as this class compares: an integer value with any exact
     * literal of a fraction or beyond 64 bits, a DECIMAL value with one the binder made a DOUBLE or a DECIMAL literal
     * of a finer scale ({@code d = 1.50000000001} for a scale-2 {@code d}, which raised to scale 11 could leave 64
     * bits); else null.
     */
    private static BigDecimal exactVersus(Expr x, SqlNode node, Expr e) {
        if (isIntegerValue(x)) {
            return exact(node, e);
        }
        boolean finer = e instanceof Expr.Literal lit && Expr.isInteger(lit.type()) && lit.scale() > x.scale();
        return isDecimalValue(x) && (e.type() == ColumnType.DOUBLE || finer) ? exact(node, e) : null;
    }

    private static boolean isDecimalValue(Expr e) {
        return Expr.isInteger(e.type()) && e.scale() > 0 && !(e instanceof Expr.Literal);
    }

    /**
     * The exact value of a number literal with a fraction or beyond 64 bits: a DECIMAL literal, or a literal the
     * binder made a DOUBLE whose text is exact ({@code 9223372036854775806.5}, possibly negated); else null.
     */
    private static BigDecimal exact(SqlNode node, Expr e) {
        if (!(e instanceof Expr.Literal lit) || lit.type() == null) {
            return null;
        }
        if (lit.scale() > 0 && lit.value() instanceof Long raw) {
            return BigDecimal.valueOf(raw, lit.scale());
        }
        if (lit.type() != ColumnType.DOUBLE || node == null) {
            return null;
        }
        boolean negated = false;
        SqlNode n = node;
        while (n.getKind() == SqlKind.MINUS_PREFIX || n.getKind() == SqlKind.PLUS_PREFIX) {
            negated ^= n.getKind() == SqlKind.MINUS_PREFIX;
            n = ((SqlCall) n).operand(0);
        }
        if (n instanceof SqlNumericLiteral num && num.isExact()) {
            BigDecimal v = num.bigDecimalValue();
            return negated ? v.negate() : v;
        }
        if (n instanceof SqlCharStringLiteral quoted && !negated) {
            // a quoted number of more than 18 digits that QuotedNumbers made a DOUBLE: its text is the exact value
            try {
                return new BigDecimal(quoted.getValueAs(String.class).strip());
            } catch (NumberFormatException notANumber) {
                return null;
            }
        }
        return null;
    }

    private static boolean isIntegerValue(Expr e) {
        return Expr.isInteger(e.type()) && e.scale() == 0 && !(e instanceof Expr.Literal);
    }

    private static Expr.CompareOp flipped(Expr.CompareOp op) {
        return switch (op) {
            case LT -> Expr.CompareOp.GT;
            case LE -> Expr.CompareOp.GE;
            case GT -> Expr.CompareOp.LT;
            case GE -> Expr.CompareOp.LE;
            default -> op;
        };
    }
}
