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
        sql.append(String.join(", ", selectItems(ctx, outputs)));
        sql.append(" FROM ").append(from);
        if (ctx.chance(70)) {
            ctx.tags.add("where");
            sql.append(" WHERE ").append(new PredicateGenerator(ctx, scalars).condition(rnd.nextInt(3)));
        }
        boolean grouped = outputs.stream().anyMatch(o -> o.isKey());
        if (grouped) {
            sql.append(" GROUP BY ").append(groupBy(ctx, outputs));
        }
        String core = sql.toString();
        if ((grouped || ctx.chance(30)) && ctx.chance(15)) {
            sql.append(" HAVING ").append(aggregates.having());
        }
        boolean hidden = outputs.get(0).kind() == Output.Kind.HIDDEN_KEY;
        boolean ordered = grouped && (hidden || ctx.chance(85));
        if (ordered) {
            sql.append(" ORDER BY ").append(orderBy(ctx, outputs));
        }
        if (ordered || !grouped) {
            sql.append(limit(ctx));
        }
        List<Output> selected =
                outputs.stream().filter(o -> o.kind() != Output.Kind.HIDDEN_KEY).toList();
        return new FuzzQuery(sql.toString(), selected, ordered, from, core, ctx.tags);
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
        for (String k : dims.subList(0, keys)) {
            if ((k.equals("i0") || k.equals("i1")) && ctx.chance(15)) {
                ctx.tags.add("select:key-expression");
                outputs.add(new Output(ctx.ref(k) + (ctx.chance(50) ? " + 1" : " * -2"), Output.Kind.OTHER, null));
            }
        }

        if (ctx.chance(40)) {
            ctx.tags.add("select:shuffled");
            Collections.shuffle(outputs, ctx.rnd);
        }
        if (keys > 0 && outputs.size() > 1 && ctx.chance(10)) {
            // a group key that is not selected (moved first, then left out): ORDER BY names it to fix the order
            ctx.tags.add("group:hidden-key");
            Output key = outputs.stream().filter(Output::isKey).findFirst().orElseThrow();
            outputs.remove(key);
            outputs.add(0, new Output(key.sql(), Output.Kind.HIDDEN_KEY, null));
        }
        return outputs;
    }

    /** The select list: the outputs but a hidden key, some with an alias ({@code AS o2}). */
    private static List<String> selectItems(QueryContext ctx, List<Output> outputs) {
        List<String> items = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            Output o = outputs.get(i);
            if (o.kind() != Output.Kind.HIDDEN_KEY) {
                boolean alias = ctx.chance(10);
                if (alias) {
                    ctx.tags.add("select:alias");
                }
                items.add(o.sql() + (alias ? " AS o" + (i + 1) : ""));
            }
        }
        return items;
    }

    private static String groupBy(QueryContext ctx, List<Output> outputs) {
        boolean hidden = outputs.get(0).kind() == Output.Kind.HIDDEN_KEY;
        List<String> items = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            Output o = outputs.get(i);
            if (o.kind() == Output.Kind.KEY && ctx.chance(25)) {
                items.add(String.valueOf(hidden ? i : i + 1));
            } else if (o.isKey()) {
                items.add(o.sql());
            }
        }
        Collections.shuffle(items, ctx.rnd);
        return String.join(", ", items);
    }

    /**
     * Every output by ordinal (a hidden key by name, first): counts may come first, then the keys, then the rest;
     * with NULLs on, now and then NULLS FIRST or LAST.
     */
    private static String orderBy(QueryContext ctx, List<Output> outputs) {
        List<String> first = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        boolean hidden = outputs.get(0).kind() == Output.Kind.HIDDEN_KEY;
        for (int i = 0; i < outputs.size(); i++) {
            String ordinal = String.valueOf(hidden ? i : i + 1);
            Output.Kind k = outputs.get(i).kind();
            if (k == Output.Kind.HIDDEN_KEY) {
                keys.add(outputs.get(i).sql());
            } else if (k == Output.Kind.KEY) {
                keys.add(ordinal);
            } else if (k == Output.Kind.COUNT && ctx.chance(50)) {
                first.add(ordinal);
            } else {
                rest.add(ordinal);
            }
        }
        Collections.shuffle(keys, ctx.rnd);
        List<String> items = new ArrayList<>();
        for (List<String> part : List.of(first, keys, rest)) {
            for (String item : part) {
                String nulls = ctx.nulls && ctx.chance(20) ? (ctx.chance(50) ? " NULLS FIRST" : " NULLS LAST") : "";
                items.add(item + (ctx.chance(40) ? " DESC" : ctx.chance(30) ? " ASC" : "") + nulls);
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
