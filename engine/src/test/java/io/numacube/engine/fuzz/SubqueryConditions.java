package io.numacube.engine.fuzz;

import io.numacube.engine.schema.ColumnType;
import java.util.EnumSet;
import java.util.List;

/**
 * Draws uncorrelated subqueries in conditions: {@code k [NOT] IN (SELECT k FROM d|e WHERE ...)} on a dimension
 * table's key, {@code c [NOT] IN (SELECT c FROM f WHERE ...)} on a fact dimension (whose NULLs make NOT IN unknown),
 * and comparisons with a scalar subquery ({@code MIN}, {@code MAX} of a dimension, {@code AVG}, {@code MIN},
 * {@code MAX} of a measure). The inner conditions are simple comparisons over the inner table alone. Stateless apart
 * from the context it draws from.
 */
final class SubqueryConditions {

    private static final String[] COMPARISONS = {"=", "<>", "<", "<=", ">", ">="};

    private final QueryContext ctx;
    private final QueryContext inner;

    SubqueryConditions(QueryContext ctx) {
        this.ctx = ctx;
        this.inner = new QueryContext(ctx.rnd, ctx.data, JoinPlan.NONE, ctx.nulls);
    }

    /** One condition with a subquery. */
    String condition() {
        return switch (ctx.rnd.nextInt(5)) {
            case 0 -> dimensionTableIn();
            case 1, 2 -> factIn();
            default -> scalar();
        };
    }

    private String dimensionTableIn() {
        ctx.tags.add("subquery:in-dimension");
        boolean d = ctx.chance(60);
        String key = d ? ctx.data.shape().lookupKey() : ctx.data.shape().lookup2Key();
        List<String> attrs = d ? FactColumns.LOOKUP_ATTRIBUTES : FactColumns.LOOKUP2_ATTRIBUTES;
        String a = ctx.pick(attrs);
        String where = a + " " + op() + " " + inner.literalFor(a);
        if (ctx.nulls && ctx.chance(20)) {
            where = a + (ctx.chance(50) ? " IS NULL" : " IS NOT NULL");
        }
        return ctx.ref(key) + (ctx.chance(25) ? " NOT IN " : " IN ") + "(SELECT " + key + " FROM " + (d ? "d" : "e")
                + " WHERE " + where + ")";
    }

    private String factIn() {
        boolean not = ctx.chance(25);
        ctx.tags.add(not ? "subquery:not-in-fact" : "subquery:in-fact");
        String c = ctx.pick(FactColumns.DIMENSIONS);
        // mostly without NULLs: numacube refuses an IN list with NULL (0A000), a count kept small
        String where = measureCondition() + (ctx.chance(80) ? " AND " + c + " IS NOT NULL" : "");
        return ctx.ref(c) + (not ? " NOT IN " : " IN ") + "(SELECT " + c + " FROM f WHERE " + where + ")";
    }

    private String scalar() {
        ctx.tags.add("subquery:scalar");
        if (ctx.chance(50)) {
            String c = ctx.pick(FactColumns.DIMENSIONS);
            return ctx.ref(c) + " " + op() + " (SELECT " + (ctx.chance(50) ? "MIN(" : "MAX(") + c + ") FROM f WHERE "
                    + measureCondition() + ")";
        }
        String m = ctx.pick(ctx.columns(EnumSet.of(ColumnType.DOUBLE, ColumnType.LONG, ColumnType.DECIMAL)));
        String fn = ctx.pick(List.of("AVG", "MIN", "MAX"));
        String of = FactColumns.ALL.contains(m) ? m : ctx.pick(FactColumns.LONGS);
        return m + " " + op() + " (SELECT " + fn + "(" + of + ") FROM f WHERE " + measureCondition() + ")";
    }

    private String measureCondition() {
        String m = inner.pick(List.of("m0", "m1", "l0", "l1"));
        return m + " " + op() + " " + inner.literalFor(m);
    }

    private String op() {
        return COMPARISONS[ctx.rnd.nextInt(COMPARISONS.length)];
    }
}
