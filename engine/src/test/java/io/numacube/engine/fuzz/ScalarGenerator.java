package io.numacube.engine.fuzz;

import io.numacube.engine.schema.ColumnType;
import java.util.EnumSet;
import java.util.List;

/**
 * Draws numeric row expressions for aggregate arguments and conditions: measures, INT dimensions, the lookup's
 * numeric attributes, literals, {@code + - * /} and unary minus, nested a few levels; with NULLs on, also
 * {@code COALESCE(column, literal)}. A binary operator always has a column on at least one side (DuckDB types
 * literal-only arithmetic as 32-bit INTEGER). Divisors are non-zero literals or columns (a zero column gives ±inf or
 * NaN in both engines). Stateless apart from the context it draws from.
 */
final class ScalarGenerator {

    private final QueryContext ctx;

    ScalarGenerator(QueryContext ctx) {
        this.ctx = ctx;
    }

    /** A numeric expression with at most {@code depth} levels of operators. */
    String numeric(int depth) {
        int pick = ctx.rnd.nextInt(depth <= 0 ? 3 : 10);
        return switch (pick) {
            case 0, 1, 2 -> leaf();
            case 3, 4 -> arith(numeric(depth - 1), ctx.numericLiteral(ctx.chance(50)));
            case 5 -> arith(ctx.numericLiteral(ctx.chance(50)), numeric(depth - 1));
            case 6, 7 -> arith(numeric(depth - 1), numeric(depth - 1));
            case 8 -> {
                ctx.tags.add("expr:neg");
                yield "-(" + numeric(depth - 1) + ")";
            }
            default -> nullable(depth);
        };
    }

    /** A plain numeric column: a measure most of the time, else an INT dimension or a lookup attribute. */
    String leaf() {
        List<String> measures = ctx.columns(EnumSet.of(ColumnType.DOUBLE, ColumnType.LONG, ColumnType.DECIMAL));
        if (ctx.chance(20)) {
            List<String> ints = ctx.columns(EnumSet.of(ColumnType.INT));
            ctx.tags.add("expr:int-dimension");
            return ctx.ref(ctx.pick(ints));
        }
        String c = ctx.pick(measures);
        if (FactColumns.LOOKUP_ATTRIBUTES.contains(c)) {
            ctx.tags.add("expr:lookup-attribute");
        }
        return c;
    }

    private String arith(String a, String b) {
        char op = "+-*/".charAt(ctx.rnd.nextInt(4));
        ctx.tags.add("expr:" + op);
        if (op == '/' && isZeroLiteral(b)) {
            b = "4";
        }
        if (op == '*' && a.contains("l1") && b.contains("l1")) {
            // l1 * l1 overflows nearly always: both engines fail, which tests nothing more than once
            op = '+';
        }
        return "(" + a + " " + op + " " + b + ")";
    }

    private String nullable(int depth) {
        if (!ctx.nulls) {
            return arith(leaf(), numeric(depth - 1));
        }
        ctx.tags.add("null:coalesce");
        String c = leaf();
        return "COALESCE(" + c + ", " + ctx.numericLiteral(ctx.chance(50)) + ")";
    }

    private static boolean isZeroLiteral(String s) {
        try {
            return Double.parseDouble(s) == 0.0;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
