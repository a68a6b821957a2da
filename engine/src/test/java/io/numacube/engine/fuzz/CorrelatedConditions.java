package io.numacube.engine.fuzz;

import java.util.List;

/**
 * Draws correlated subqueries of the shapes numacube turns into joins (its {@code Decorrelation}), for a query over
 * {@code f} alone (a FROM list, as decorrelation needs), each to stand as a top-level AND term of WHERE: {@code [NOT]
 * EXISTS} over {@code f f2} correlated by an equality on a dimension, a BIGINT, a TIMESTAMP or a DECIMAL column
 * (NULL keys on both sides), with inner filters and now and then one comparison with an outer column; {@code [NOT]
 * EXISTS} over lookup {@code d} on its key; a comparison with a correlated MIN, MAX, SUM or AVG (exact arguments);
 * and {@code [NOT] IN (SELECT l FROM f ...)} on a BIGINT column (the subquery's values are plain BIGINTs). Stateless
 * apart from the context it draws from.
 */
final class CorrelatedConditions {

    private static final String[] COMPARISONS = {"=", "<>", "<", "<=", ">", ">="};

    /** Columns an outer row and an inner row are matched on. */
    private static final List<String> KEYS =
            List.of("s0", "s1", "i0", "i1", "dt0", "b0", "l0", "l1", "ts0", "n1", "l0", "i0");

    /** Exact numeric columns compared across the correlation, or aggregated. */
    private static final List<String> EXACT = List.of("m0", "l0", "l1", "i1", "n1");

    private final QueryContext ctx;
    private final QueryContext inner;

    CorrelatedConditions(QueryContext ctx) {
        this.ctx = ctx;
        this.inner = new QueryContext(ctx.rnd, ctx.data, JoinPlan.NONE, ctx.nulls);
    }

    /** One correlated term. */
    String term() {
        return switch (ctx.rnd.nextInt(6)) {
            case 0, 1 -> existsSelf();
            case 2 -> existsLookup();
            case 3, 4 -> scalar();
            default -> bigintIn();
        };
    }

    private String existsSelf() {
        boolean not = ctx.chance(40);
        String k = ctx.pick(KEYS);
        StringBuilder where = new StringBuilder("f2." + k + " = f." + k);
        if (ctx.chance(60)) {
            where.append(" AND ").append(innerCondition("f2."));
        }
        if (ctx.chance(30)) {
            ctx.tags.add("correlated:exists-comparison");
            String c = ctx.pick(EXACT);
            where.append(" AND f2.")
                    .append(c)
                    .append(' ')
                    .append(op())
                    .append(" f.")
                    .append(c);
        }
        ctx.tags.add(not ? "correlated:not-exists" : "correlated:exists");
        ctx.tags.add("correlated:key-" + k);
        return (not ? "NOT " : "") + "EXISTS (SELECT * FROM f f2 WHERE " + where + ")";
    }

    private String existsLookup() {
        boolean not = ctx.chance(40);
        String key = ctx.data.shape().lookupKey();
        String a = ctx.pick(FactColumns.LOOKUP_ATTRIBUTES);
        ctx.tags.add(not ? "correlated:not-exists-lookup" : "correlated:exists-lookup");
        return (not ? "NOT " : "") + "EXISTS (SELECT * FROM d WHERE d." + key + " = f." + key + " AND d." + a + " "
                + op() + " " + inner.literalFor(a) + ")";
    }

    private String scalar() {
        String k = ctx.pick(KEYS);
        String fn = ctx.pick(List.of("MIN", "MAX", "SUM", "AVG"));
        // no SUM of l1 (near 2^62 now and then: a BIGINT overflow), no arithmetic on it
        String of = fn.equals("AVG") || fn.equals("SUM") ? ctx.pick(List.of("l0", "i1", "m0", "n1")) : ctx.pick(EXACT);
        String value = fn + "(f2." + of + ")" + (!of.equals("l1") && ctx.chance(20) ? " * 2 - 1" : "");
        String where = "f2." + k + " = f." + k + (ctx.chance(50) ? " AND " + innerCondition("f2.") : "");
        ctx.tags.add("correlated:scalar-" + fn.toLowerCase(java.util.Locale.ROOT));
        return "f." + ctx.pick(EXACT) + " " + op() + " (SELECT " + value + " FROM f f2 WHERE " + where + ")";
    }

    private String bigintIn() {
        boolean not = ctx.chance(35);
        String l = ctx.pick(FactColumns.LONGS);
        ctx.tags.add(not ? "subquery:not-in-bigint" : "subquery:in-bigint");
        return "f." + l + (not ? " NOT IN " : " IN ") + "(SELECT " + l + " FROM f WHERE " + innerCondition("") + " AND "
                + l + " IS NOT NULL)";
    }

    /** A comparison of one of the inner table's measures with a literal. */
    private String innerCondition(String prefix) {
        String m = inner.pick(List.of("m0", "m1", "l0", "l1", "i0", "s0"));
        return prefix + m + " " + op() + " " + inner.literalFor(m);
    }

    private String op() {
        return COMPARISONS[ctx.rnd.nextInt(COMPARISONS.length)];
    }
}
