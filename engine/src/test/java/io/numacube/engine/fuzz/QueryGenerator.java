package io.numacube.engine.fuzz;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Draws one aggregation query within numacube's SQL: 0 to 3 group keys and 1 to 4 aggregates in a shuffled select
 * list, an optional lookup join ({@code USING} or {@code ON}), an optional WHERE, GROUP BY by name or ordinal, an
 * optional HAVING, and usually an ORDER BY of every output — the keys first, so the order is fixed whatever the last
 * bits of a double — with LIMIT and OFFSET now and then. The same seed and data set give the same query. Stateless.
 */
final class QueryGenerator {

    private QueryGenerator() {}

    static FuzzQuery generate(long seed, FuzzDataset data, boolean nulls) {
        Random rnd = new Random(seed);
        int j = rnd.nextInt(20);
        QueryContext.Join join =
                j < 12 ? QueryContext.Join.NONE : j < 17 ? QueryContext.Join.USING : QueryContext.Join.ON;
        QueryContext ctx = new QueryContext(rnd, data, join, nulls);
        if (join != QueryContext.Join.NONE) {
            ctx.tags.add("join:" + join.name().toLowerCase(java.util.Locale.ROOT));
        }
        ScalarGenerator scalars = new ScalarGenerator(ctx);
        AggregateGenerator aggregates = new AggregateGenerator(ctx, scalars);
        List<Output> outputs = selectList(ctx, aggregates);
        String from = ctx.from();
        StringBuilder sql = new StringBuilder("SELECT ");
        sql.append(String.join(", ", outputs.stream().map(Output::sql).toList()));
        sql.append(" FROM ").append(from);
        if (ctx.chance(70)) {
            ctx.tags.add("where");
            sql.append(" WHERE ").append(new PredicateGenerator(ctx, scalars).condition(rnd.nextInt(3)));
        }
        boolean grouped = outputs.stream().anyMatch(o -> o.kind() == Output.Kind.KEY);
        if (grouped) {
            sql.append(" GROUP BY ").append(groupBy(ctx, outputs));
        }
        String core = sql.toString();
        if ((grouped || ctx.chance(30)) && ctx.chance(15)) {
            sql.append(" HAVING ").append(aggregates.having());
        }
        boolean ordered = grouped && ctx.chance(85);
        if (ordered) {
            sql.append(" ORDER BY ").append(orderBy(ctx, outputs));
        }
        if (ordered || !grouped) {
            sql.append(limit(ctx));
        }
        return new FuzzQuery(sql.toString(), outputs, ordered, from, core, ctx.tags);
    }

    private static List<Output> selectList(QueryContext ctx, AggregateGenerator aggregates) {
        List<String> dims = new ArrayList<>(FactColumns.DIMENSIONS);
        Collections.shuffle(dims, ctx.rnd);
        int keys = ctx.rnd.nextInt(4);
        List<Output> outputs = new ArrayList<>();
        for (String k : dims.subList(0, keys)) {
            outputs.add(Output.key(ctx.ref(k)));
        }
        int aggs = (keys == 0 ? 1 : 0) + ctx.rnd.nextInt(4);
        for (int i = 0; i < aggs; i++) {
            outputs.add(aggregates.aggregate());
        }
        if (ctx.chance(40)) {
            ctx.tags.add("select:shuffled");
            Collections.shuffle(outputs, ctx.rnd);
        }
        return outputs;
    }

    private static String groupBy(QueryContext ctx, List<Output> outputs) {
        List<String> items = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            if (outputs.get(i).kind() == Output.Kind.KEY) {
                items.add(
                        ctx.chance(25) ? String.valueOf(i + 1) : outputs.get(i).sql());
            }
        }
        Collections.shuffle(items, ctx.rnd);
        return String.join(", ", items);
    }

    /** Every output by ordinal: counts may come first, then the keys, then the rest. */
    private static String orderBy(QueryContext ctx, List<Output> outputs) {
        List<Integer> first = new ArrayList<>();
        List<Integer> keys = new ArrayList<>();
        List<Integer> rest = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            Output.Kind k = outputs.get(i).kind();
            if (k == Output.Kind.KEY) {
                keys.add(i);
            } else if (k == Output.Kind.COUNT && ctx.chance(50)) {
                first.add(i);
            } else {
                rest.add(i);
            }
        }
        Collections.shuffle(keys, ctx.rnd);
        List<String> items = new ArrayList<>();
        for (List<Integer> part : List.of(first, keys, rest)) {
            for (int i : part) {
                items.add((i + 1) + (ctx.chance(40) ? " DESC" : ctx.chance(30) ? " ASC" : ""));
            }
        }
        ctx.tags.add("order");
        return String.join(", ", items);
    }

    private static String limit(QueryContext ctx) {
        if (!ctx.chance(30)) {
            return "";
        }
        ctx.tags.add("limit");
        String s = " LIMIT " + (ctx.chance(10) ? 0 : 1 + ctx.rnd.nextInt(20));
        if (ctx.chance(40)) {
            ctx.tags.add("offset");
            s += " OFFSET " + ctx.rnd.nextInt(10);
        }
        return s;
    }
}
