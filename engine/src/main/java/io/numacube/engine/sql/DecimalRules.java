package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlNode;

/**
 * The binder's DECIMAL rules. A DECIMAL value is bound as the {@code long} of its value times 10^scale (type LONG or
 * INT, {@link Expr#scale()} > 0), so the executor adds, compares, sums and groups those longs exactly without knowing
 * about decimals. A number literal with a point ({@code 1.50}) is such a DECIMAL, as in DuckDB. What keeps that exact is
 * here: values that meet in +, -, a comparison, IN, BETWEEN, CASE or COALESCE
 * are put on one scale first (the smaller scale raised by an implicit multiplication by a power of ten), an integer
 * met by a DECIMAL is raised to its scale, a number literal becomes the exact DECIMAL it spells, and a DECIMAL meeting
 * a DOUBLE (or divided, or passed to a function that computes in doubles) becomes a DOUBLE, as DuckDB casts it. A
 * scale beyond {@value ColumnSpec#MAX_DECIMAL_PRECISION} digits is refused rather than rounded.
 *
 * <p>Stateless; thread-safe.
 */
final class DecimalRules {

    private DecimalRules() {}

    /** True for a DECIMAL value with digits after the point. */
    static boolean isDecimal(Expr e) {
        return e.scale() > 0;
    }

    /** {@code e} as a DOUBLE: a DECIMAL's long divided by 10^scale; anything else as it is. */
    static Expr toDouble(Expr e) {
        return toDouble(e, e.scale());
    }

    /** {@code e}, the long of a value with {@code scale} digits after the point (or that value's average), as a DOUBLE. */
    static Expr toDouble(Expr e, int scale) {
        if (scale == 0) {
            return e;
        }
        if (e instanceof Expr.Literal lit && lit.value() instanceof Long v) {
            return new Expr.Literal(v / (double) ColumnSpec.powerOfTen(scale), ColumnType.DOUBLE);
        }
        return new Expr.Arith('/', e, new Expr.Literal((double) ColumnSpec.powerOfTen(scale), ColumnType.DOUBLE), true);
    }

    /** {@code e} (an integer or a DECIMAL of at most {@code scale} digits after the point) at scale {@code scale}. */
    static Expr rescale(SqlNode node, Expr e, int scale) {
        int by = scale - e.scale();
        if (by == 0) {
            return e;
        }
        if (by < 0 || scale > ColumnSpec.MAX_DECIMAL_PRECISION) {
            throw new IllegalArgumentException("cannot rescale " + e.text() + " to " + scale);
        }
        if (e instanceof Expr.Literal lit && lit.value() instanceof Long v) {
            try {
                return new Expr.Literal(Math.multiplyExact(v, ColumnSpec.powerOfTen(by)), ColumnType.LONG, scale);
            } catch (ArithmeticException overflow) {
                throw bindError(
                        node, "22003", "DECIMAL overflow: " + lit.text() + " does not fit 18 digits at scale " + scale);
            }
        }
        return new Expr.Arith('*', e, new Expr.Literal(ColumnSpec.powerOfTen(by), ColumnType.LONG, by), true);
    }

    /**
     * {@code values} as one kind of number where a DECIMAL is among them: all DOUBLE when a DOUBLE that is not a
     * literal is (or a scale would pass 18 digits), else all on the largest scale, number literals as the exact
     * DECIMALs they spell. Values that are no numbers, and lists without a DECIMAL, come back as they are.
     */
    static List<Expr> unify(SqlNode node, List<Expr> values) {
        if (values.stream().noneMatch(DecimalRules::isDecimal)) {
            return values;
        }
        List<Expr> exact = new ArrayList<>(values.size());
        boolean inDoubles = false;
        int scale = 0;
        for (Expr v : values) {
            Expr x = v instanceof Expr.Literal lit && lit.value() instanceof Double d ? exactLiteral(d) : v;
            inDoubles |= x == null || x.type() == ColumnType.DOUBLE;
            if (x != null && Expr.isInteger(x.type())) {
                scale = Math.max(scale, x.scale());
            }
            exact.add(x);
        }
        inDoubles |= scale > ColumnSpec.MAX_DECIMAL_PRECISION;
        List<Expr> out = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            Expr v = values.get(i);
            Expr x = exact.get(i);
            if (inDoubles) {
                out.add(isNumber(v) ? toDouble(v) : v);
            } else {
                out.add(x != null && Expr.isInteger(x.type()) ? rescale(node, x, scale) : v);
            }
        }
        return out;
    }

    /** {@code a} and {@code b} as {@link #unify} puts them, as a two-element list. */
    static List<Expr> unify(SqlNode node, Expr a, Expr b) {
        return unify(node, List.of(a, b));
    }

    /**
     * The operands of {@code l op r} where one is a DECIMAL: + and - on one scale, * on the exact longs (their scales
     * add), / and anything with a DOUBLE in doubles; 22003 when a product's scale passes 18 digits.
     */
    static List<Expr> arithmetic(SqlNode node, char op, Expr l, Expr r) {
        if (!isDecimal(l) && !isDecimal(r)) {
            return List.of(l, r);
        }
        if (op == '+' || op == '-') {
            return unify(node, l, r);
        }
        Expr el = l instanceof Expr.Literal lit && lit.value() instanceof Double d ? exactLiteral(d) : l;
        Expr er = r instanceof Expr.Literal lit && lit.value() instanceof Double d ? exactLiteral(d) : r;
        if (op == '/' || el == null || er == null || el.type() == ColumnType.DOUBLE || er.type() == ColumnType.DOUBLE) {
            return List.of(toDouble(l), toDouble(r));
        }
        if (el.scale() + er.scale() > ColumnSpec.MAX_DECIMAL_PRECISION) {
            throw bindError(
                    node,
                    "22003",
                    "DECIMAL product with more than " + ColumnSpec.MAX_DECIMAL_PRECISION + " digits after the point: "
                            + l.text() + " * " + r.text()
                            + " — cast a factor to DOUBLE or to a DECIMAL of fewer digits");
        }
        return List.of(el, er);
    }

    /** The DECIMAL literal that {@code d} spells (its shortest decimal form), or null when it needs over 18 digits. */
    private static Expr.Literal exactLiteral(double d) {
        if (!Double.isFinite(d)) {
            return null;
        }
        BigDecimal v = BigDecimal.valueOf(d).stripTrailingZeros();
        if (v.scale() < 0) {
            v = v.setScale(0);
        }
        if (v.precision() > ColumnSpec.MAX_DECIMAL_PRECISION || v.scale() > ColumnSpec.MAX_DECIMAL_PRECISION) {
            return null;
        }
        return new Expr.Literal(v.unscaledValue().longValueExact(), ColumnType.LONG, v.scale());
    }

    private static boolean isNumber(Expr e) {
        return e.type() == ColumnType.DOUBLE || Expr.isInteger(e.type());
    }
}
