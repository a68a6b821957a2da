package io.numacube.engine.fuzz;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Draws one query within numacube's SQL over a random {@link JoinPlan}: mostly an aggregation — 0 to 3 group keys
 * ({@link KeyGenerator}) and 1 to 4 aggregates in a shuffled select list, an optional WHERE (over {@code f} alone, now and then
 * with a correlated subquery as a term of its own: {@link CorrelatedConditions}), GROUP BY by name, alias
 * or ordinal, an optional HAVING, and usually an ORDER BY of every output — the keys first, so the order is fixed
 * whatever the last bits of a double — with LIMIT and OFFSET now and then; else a SELECT DISTINCT of keys, a plain
 * projection ({@link ProjectionGenerator}) or an aggregation over a WITH or FROM subquery
 * ({@link WrapperGenerator}). The same seed and data set give the same query. Stateless.
 */
final class QueryGenerator {

    /**
     * Percent of the aggregations over {@code f} alone that get a correlated term ({@link CorrelatedConditions}):
     * {@code -Dfuzz.correlated}, 30 unless set (100 for a run that attacks decorrelation).
     */
    static final int CORRELATED_PERCENT = Integer.getInteger("fuzz.correlated", 30);

    private QueryGenerator() {}

    static FuzzQuery generate(long seed, FuzzDataset data, boolean nulls) {
        Random rnd = new Random(seed);
        QueryContext ctx = new QueryContext(rnd, data, JoinPlan.random(rnd), nulls);
        ctx.tags.addAll(ctx.join.tags());
        int shape = rnd.nextInt(100);
        if (shape < 10) {
            return new ProjectionGenerator(ctx).generate();
        }
        if (shape < 17) {
            return new WrapperGenerator(ctx).generate();
        }
        return aggregation(ctx, shape < 22);
    }

    /** An aggregation, or with {@code distinct} a SELECT DISTINCT of group keys. */
    private static FuzzQuery aggregation(QueryContext ctx, boolean distinct) {
        ScalarGenerator scalars = new ScalarGenerator(ctx);
        AggregateGenerator aggregates = new AggregateGenerator(ctx, scalars);
        List<Output> outputs =
                distinct ? new KeyGenerator(ctx).keys(1 + ctx.rnd.nextInt(3)) : selectList(ctx, aggregates);
        String[] aliases = aliases(ctx, outputs);
        String from = ctx.from();
        StringBuilder sql = new StringBuilder(distinct ? "SELECT DISTINCT " : "SELECT ");
        sql.append(String.join(", ", selectItems(outputs, aliases)));
        sql.append(" FROM ").append(from);
        if (distinct) {
            ctx.tags.add("select:distinct");
        }
        boolean where = ctx.chance(70);
        if (where) {
            ctx.tags.add("where");
            sql.append(" WHERE ").append(new PredicateGenerator(ctx, scalars).condition(ctx.rnd.nextInt(3)));
        }
        if (ctx.join == JoinPlan.NONE && ctx.chance(CORRELATED_PERCENT)) {
            // a top-level AND term, as decorrelation needs it; the other terms in parentheses
            String term = new CorrelatedConditions(ctx).term();
            if (where) {
                int at = sql.indexOf(" WHERE ") + " WHERE ".length();
                sql.insert(at, "(").append(") AND ").append(term);
            } else {
                sql.append(" WHERE ").append(term);
            }
        }
        boolean grouped = !distinct && outputs.stream().anyMatch(o -> o.isKey());
        if (grouped) {
            sql.append(" GROUP BY ").append(groupBy(ctx, outputs, aliases));
        }
        String core = sql.toString();
        if (!distinct && (grouped || ctx.chance(30)) && ctx.chance(15)) {
            sql.append(" HAVING ").append(aggregates.having());
        }
        boolean hidden = outputs.get(0).kind() == Output.Kind.HIDDEN_KEY;
        boolean ordered = (grouped || distinct) && (hidden || ctx.chance(85));
        if (ordered) {
            sql.append(" ORDER BY ").append(orderBy(ctx, outputs));
        }
        if (ordered || !(grouped || distinct)) {
            sql.append(limit(ctx));
        }
        List<Output> selected =
                outputs.stream().filter(o -> o.kind() != Output.Kind.HIDDEN_KEY).toList();
        return new FuzzQuery(sql.toString(), selected, ordered, from, core, ctx.tags);
    }

    private static List<Output> selectList(QueryContext ctx, AggregateGenerator aggregates) {
        int keys = ctx.rnd.nextInt(4);
        List<Output> keyOutputs = new KeyGenerator(ctx).keys(keys);
        List<Output> outputs = new ArrayList<>(keyOutputs);
        int aggs = (keys == 0 ? 1 : 0) + ctx.rnd.nextInt(4);
        for (int i = 0; i < aggs; i++) {
            outputs.add(aggregates.aggregate());
        }
        for (Output k : keyOutputs) {
            if ((k.sql().equals(ctx.ref("i0")) || k.sql().equals(ctx.ref("i1"))) && ctx.chance(15)) {
                ctx.tags.add("select:key-expression");
                outputs.add(new Output(k.sql() + (ctx.chance(50) ? " + 1" : " * -2"), Output.Kind.OTHER, null));
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

    /** Per output, its alias ({@code o2}) or null: half the keys that are expressions, a tenth of the rest. */
    private static String[] aliases(QueryContext ctx, List<Output> outputs) {
        String[] aliases = new String[outputs.size()];
        for (int i = 0; i < outputs.size(); i++) {
            Output o = outputs.get(i);
            boolean expression = o.kind() == Output.Kind.KEY && o.sql().contains("(");
            if (o.kind() != Output.Kind.HIDDEN_KEY && ctx.chance(expression ? 50 : 10)) {
                ctx.tags.add("select:alias");
                aliases[i] = "o" + (i + 1);
            }
        }
        return aliases;
    }

    /** The select list: the outputs but a hidden key, each with its alias if it has one. */
    private static List<String> selectItems(List<Output> outputs, String[] aliases) {
        List<String> items = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            Output o = outputs.get(i);
            if (o.kind() != Output.Kind.HIDDEN_KEY) {
                items.add(o.sql() + (aliases[i] != null ? " AS " + aliases[i] : ""));
            }
        }
        return items;
    }

    /** The group keys by alias, ordinal or as written. */
    private static String groupBy(QueryContext ctx, List<Output> outputs, String[] aliases) {
        boolean hidden = outputs.get(0).kind() == Output.Kind.HIDDEN_KEY;
        List<String> items = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            Output o = outputs.get(i);
            if (o.kind() == Output.Kind.KEY && aliases[i] != null && ctx.chance(50)) {
                ctx.tags.add("group:alias");
                items.add(aliases[i]);
            } else if (o.kind() == Output.Kind.KEY && ctx.chance(25)) {
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
    static String orderBy(QueryContext ctx, List<Output> outputs) {
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

    static String limit(QueryContext ctx) {
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
