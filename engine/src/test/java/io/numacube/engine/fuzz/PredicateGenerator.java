package io.numacube.engine.fuzz;

import io.numacube.engine.schema.ColumnType;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * Draws row conditions: comparisons ({@code = <> < <= > >=}), {@code [NOT] IN} lists and {@code [NOT] BETWEEN} on
 * dimensions (fact and lookup) with values they hold or lack, comparisons of numeric expressions with literals and
 * with each other, functions of one dimension ({@link DimensionFunctions}), subqueries ({@link SubqueryConditions}),
 * combined with AND, OR and NOT; with NULLs on, also {@code IS [NOT] NULL} of columns and of conditions. Stateless apart from the
 * context it draws from.
 */
final class PredicateGenerator {

    private static final String[] COMPARISONS = {"=", "<>", "<", "<=", ">", ">="};

    /** Kinds of atomic condition {@link #atom} draws from. */
    private static final int ATOMS = 14;

    private final QueryContext ctx;
    private final ScalarGenerator scalars;

    PredicateGenerator(QueryContext ctx, ScalarGenerator scalars) {
        this.ctx = ctx;
        this.scalars = scalars;
    }

    /** A condition with at most {@code depth} levels of AND, OR and NOT. */
    String condition(int depth) {
        int pick = ctx.rnd.nextInt(depth <= 0 ? ATOMS : ATOMS + 6);
        if (pick < ATOMS) {
            return atom(pick);
        }
        return switch (pick - ATOMS) {
            case 0, 1 -> junction("AND", depth);
            case 2, 3 -> junction("OR", depth);
            default -> {
                ctx.tags.add("where:not");
                yield "NOT (" + condition(depth - 1) + ")";
            }
        };
    }

    private String junction(String op, int depth) {
        ctx.tags.add("where:" + op.toLowerCase(java.util.Locale.ROOT));
        int n = 2 + ctx.rnd.nextInt(2);
        List<String> terms = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            terms.add(condition(depth - 1));
        }
        return "(" + String.join(" " + op + " ", terms) + ")";
    }

    private String atom(int pick) {
        return switch (pick) {
            case 0, 1, 2 -> dimensionComparison();
            case 3 -> inList();
            case 4 -> between();
            case 5, 6 -> measureComparison();
            case 7 -> expressionComparison();
            case 8 -> nullTest();
            case 9 -> ctx.chance(50) ? inList() : columnComparison();
            case 10, 11 -> new DimensionFunctions(ctx).condition();
            case 12 -> new SubqueryConditions(ctx).condition();
            default -> conditionNullTest();
        };
    }

    /** {@code (p) IS [NOT] NULL} of a simple condition {@code p}: whether it is unknown. */
    private String conditionNullTest() {
        if (!ctx.nulls) {
            return new DimensionFunctions(ctx).condition();
        }
        boolean not = ctx.chance(50);
        ctx.tags.add(not ? "null:condition-is-not-null" : "null:condition-is-null");
        return "(" + atom(ctx.rnd.nextInt(10)) + ")" + (not ? " IS NOT NULL" : " IS NULL");
    }

    private String dimension() {
        return ctx.pick(
                ctx.columns(EnumSet.of(ColumnType.STRING, ColumnType.INT, ColumnType.DATE, ColumnType.BOOLEAN)));
    }

    private String dimensionComparison() {
        if (ctx.chance(12)) {
            return timestampComparison();
        }
        String c = dimension();
        if (FactColumns.DIMENSIONS.contains(c) && FactColumns.type(c) == ColumnType.BOOLEAN && ctx.chance(50)) {
            // a BOOLEAN column is a condition by itself
            boolean not = ctx.chance(50);
            ctx.tags.add(not ? "where:not-boolean-column" : "where:boolean-column");
            return (not ? "NOT " : "") + ctx.ref(c);
        }
        ctx.tags.add("where:compare-dimension");
        return ctx.ref(c) + " " + COMPARISONS[ctx.rnd.nextInt(COMPARISONS.length)] + " " + ctx.literalFor(c);
    }

    private String inList() {
        String c = dimension();
        boolean not = ctx.chance(30);
        ctx.tags.add(not ? "where:not-in" : "where:in");
        int n = 1 + ctx.rnd.nextInt(5);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            values.add(ctx.literalFor(c));
        }
        return ctx.ref(c) + (not ? " NOT IN (" : " IN (") + String.join(", ", values) + ")";
    }

    /**
     * The plain TIMESTAMP {@code ts0} compared row by row with a timestamp literal, a DATE literal or text (cast as
     * DuckDB casts them), or a part of it compared per value ({@code hour(ts0) < 7}).
     */
    private String timestampComparison() {
        String op = COMPARISONS[ctx.rnd.nextInt(COMPARISONS.length)];
        String literal = ctx.literalFor("ts0");
        return switch (ctx.rnd.nextInt(4)) {
            case 0 -> {
                ctx.tags.add("where:timestamp-vs-date");
                yield "ts0 " + op + " DATE '" + literal.substring("TIMESTAMP '".length(), "TIMESTAMP '".length() + 10)
                        + "'";
            }
            case 1 -> {
                ctx.tags.add("where:timestamp-part");
                yield "hour(ts0) " + op + " " + ctx.rnd.nextInt(24);
            }
            case 2 -> {
                ctx.tags.add("where:timestamp-between");
                yield "ts0 BETWEEN " + literal + " AND " + ctx.literalFor("ts0");
            }
            default -> {
                ctx.tags.add("where:compare-timestamp");
                yield "ts0 " + op + " " + literal;
            }
        };
    }

    private String between() {
        boolean onDimension = ctx.chance(60);
        String c = onDimension
                ? dimension()
                : ctx.pick(ctx.columns(EnumSet.of(ColumnType.DOUBLE, ColumnType.LONG, ColumnType.DECIMAL)));
        boolean not = ctx.chance(25);
        ctx.tags.add(not ? "where:not-between" : "where:between");
        // the bounds are drawn independently, so now and then lo > hi and BETWEEN holds for no row
        return ctx.ref(c) + (not ? " NOT BETWEEN " : " BETWEEN ") + ctx.literalFor(c) + " AND " + ctx.literalFor(c);
    }

    /**
     * Two columns of one type compared ({@code s0 < s1}, {@code i0 = tier}, {@code s0 <> region}), or a DATE with a
     * date written as a plain string (an implicit conversion in both engines), or an INT dimension with doubles.
     */
    private String columnComparison() {
        String op = COMPARISONS[ctx.rnd.nextInt(COMPARISONS.length)];
        return switch (ctx.rnd.nextInt(3)) {
            case 0 -> {
                ctx.tags.add("where:compare-columns");
                ColumnType t = ctx.chance(50) ? ColumnType.STRING : ColumnType.INT;
                List<String> cols = ctx.columns(EnumSet.of(t));
                yield ctx.ref(ctx.pick(cols)) + " " + op + " " + ctx.ref(ctx.pick(cols));
            }
            case 1 -> {
                ctx.tags.add("where:date-as-string");
                String date = ctx.literalFor("dt0");
                yield "dt0 " + op + " " + date.substring("DATE ".length());
            }
            default -> {
                ctx.tags.add("where:int-dimension-vs-double");
                String c = ctx.ref(ctx.chance(50) ? "i0" : "i1");
                yield ctx.chance(50)
                        ? c + " " + op + " " + SqlLiterals.ofDouble(ctx.rnd.nextInt(2001) - 1000 + 0.5)
                        : c + " IN (" + SqlLiterals.ofDouble(ctx.rnd.nextInt(21) - 10.0) + ", " + ctx.literalFor("i0")
                                + ")";
            }
        };
    }

    private String measureComparison() {
        String c = ctx.pick(ctx.columns(EnumSet.of(ColumnType.DOUBLE, ColumnType.LONG, ColumnType.DECIMAL)));
        ctx.tags.add("where:compare-measure");
        return c + " " + COMPARISONS[ctx.rnd.nextInt(COMPARISONS.length)] + " " + ctx.literalFor(c);
    }

    private String expressionComparison() {
        ctx.tags.add("where:compare-expression");
        String left = scalars.numeric(2);
        String right = ctx.chance(50) ? scalars.numeric(1) : ctx.numericLiteral(ctx.chance(50));
        return left + " " + COMPARISONS[ctx.rnd.nextInt(COMPARISONS.length)] + " " + right;
    }

    private String nullTest() {
        if (!ctx.nulls) {
            return measureComparison();
        }
        List<String> all = ctx.columns(EnumSet.allOf(ColumnType.class));
        String c = ctx.ref(ctx.pick(all));
        if (ctx.chance(50)) {
            ctx.tags.add("null:is-null");
            return c + " IS NULL";
        }
        ctx.tags.add("null:is-not-null");
        return c + " IS NOT NULL";
    }
}
