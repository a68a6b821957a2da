package io.numacube.engine.fuzz;

import java.util.ArrayList;
import java.util.List;

/**
 * Draws a query over an aggregation named {@code g}, as {@code WITH g AS (...)} or a subquery in FROM (now and then
 * the UNION [ALL] of two such aggregations over different rows): the inner aggregation groups by 1 or 2 plain columns (now and then a BIGINT) (named as themselves) and computes exact aggregates ({@code a1},
 * {@code a2}, ...: counts, integer sums, sums of the exact measure {@code m0}, MIN and MAX), so the outer query sees
 * the same numbers in both engines; the outer query regroups them (by none or one inner key, optionally joined to
 * {@code d} when the inner key is its key), or projects them with an ORDER BY of every output. Stateless apart from
 * the context it draws from.
 */
final class WrapperGenerator {

    private static final List<String> EXACT = List.of(
            "COUNT(*)", "SUM(l0)", "SUM(m0)", "MIN(m0)", "MAX(l1)", "COUNT(s1)", "COUNT(DISTINCT i0)", "MAX(i0)");

    private final QueryContext ctx;

    WrapperGenerator(QueryContext ctx) {
        this.ctx = ctx;
    }

    FuzzQuery generate() {
        List<String> keys = new ArrayList<>();
        String dKey = ctx.data.shape().lookupKey();
        // now and then a BIGINT key: the temporary table holds it plain, then groups or filters by it
        keys.add(
                ctx.chance(40)
                        ? dKey
                        : ctx.chance(20) ? ctx.pick(FactColumns.LONGS) : ctx.pick(FactColumns.DIMENSIONS));
        if (ctx.chance(40) && !keys.contains("dt0")) {
            keys.add("dt0");
        }
        int aggs = 1 + ctx.rnd.nextInt(3);
        List<String> inner = new ArrayList<>();
        for (String k : keys) {
            inner.add(ctx.ref(k) + " AS " + k);
        }
        for (int i = 1; i <= aggs; i++) {
            String agg = ctx.pick(EXACT);
            for (String c : List.of("s1", "i0")) {
                agg = agg.replace("(" + c + ")", "(" + ctx.ref(c) + ")").replace(" " + c + ")", " " + ctx.ref(c) + ")");
            }
            inner.add(agg + " AS a" + i);
        }
        String head = "SELECT " + String.join(", ", inner) + " FROM " + ctx.from();
        String group =
                " GROUP BY " + String.join(", ", keys.stream().map(ctx::ref).toList());
        StringBuilder in = new StringBuilder(head);
        if (ctx.chance(60)) {
            in.append(" WHERE ").append(new PredicateGenerator(ctx, new ScalarGenerator(ctx)).condition(1));
        }
        in.append(group);
        if (ctx.chance(25)) {
            // the same aggregation over other rows, with its duplicates (UNION ALL) or without (UNION)
            boolean all = ctx.chance(50);
            ctx.tags.add(all ? "subquery:union-all" : "subquery:union");
            in.append(all ? " UNION ALL " : " UNION ")
                    .append(head)
                    .append(" WHERE ")
                    .append(new PredicateGenerator(ctx, new ScalarGenerator(ctx)).condition(1))
                    .append(group);
        }
        boolean with = ctx.chance(50);
        ctx.tags.add(with ? "subquery:with" : "subquery:from");
        String from = with ? "g" : "(" + in + ") g";
        boolean joinD = keys.get(0).equals(dKey) && ctx.chance(40);
        if (joinD) {
            ctx.tags.add("subquery:join-dimension");
            from += " JOIN d USING (" + dKey + ")";
        }
        Outer outer = ctx.chance(60) ? regroup(keys, aggs, joinD) : project(keys, aggs);
        String prefix = with ? "WITH g AS (" + in + ") " : "";
        String body = "SELECT "
                + String.join(", ", outer.outputs.stream().map(Output::sql).toList()) + " FROM " + from + outer.where
                + outer.group;
        String sql = prefix + body + " ORDER BY " + QueryGenerator.orderBy(ctx, outer.outputs) + outer.limit;
        // the tolerance query reads the FROM clause, which names g: compared exactly or relatively instead
        return new FuzzQuery(sql, outer.outputs, true, from, prefix + body, ctx.tags);
    }

    private record Outer(List<Output> outputs, String where, String group, String limit) {}

    private Outer regroup(List<String> keys, int aggs, boolean joinD) {
        List<Output> outputs = new ArrayList<>();
        String key = null;
        if (joinD && ctx.chance(70)) {
            key = ctx.pick(List.of("region", "tier", "w"));
        } else if (ctx.chance(70)) {
            key = ctx.pick(keys);
        }
        if (key != null) {
            outputs.add(Output.key(key));
        }
        for (int i = 1; i <= aggs; i++) {
            String fn = ctx.pick(List.of("SUM", "MIN", "MAX", "COUNT", "AVG"));
            outputs.add(
                    new Output(fn + "(a" + i + ")", fn.equals("COUNT") ? Output.Kind.COUNT : Output.Kind.OTHER, null));
        }
        outputs.add(new Output("COUNT(*)", Output.Kind.COUNT, null));
        String where = ctx.chance(30) ? " WHERE a1 IS NOT NULL" : "";
        return new Outer(outputs, where, key == null ? "" : " GROUP BY " + key, "");
    }

    private Outer project(List<String> keys, int aggs) {
        ctx.tags.add("subquery:projection");
        List<Output> outputs = new ArrayList<>();
        for (String k : keys) {
            outputs.add(Output.key(k));
        }
        for (int i = 1; i <= aggs; i++) {
            outputs.add(new Output("a" + i, Output.Kind.OTHER, null));
        }
        String where = ctx.chance(50) ? " WHERE a1 > " + ctx.rnd.nextInt(5) : "";
        return new Outer(outputs, where, "", QueryGenerator.limit(ctx));
    }
}
