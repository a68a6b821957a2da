package io.numacube.engine.fuzz;

import io.numacube.engine.schema.ColumnType;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * Draws plain projections: {@code SELECT *} of the fact table, or 1 to 5 columns and expressions (dimensions, joined
 * attributes, measures, functions of one dimension, arithmetic of measures, {@code coalesce(measure, constant)}),
 * with a WHERE, and an ORDER BY of every output, so the row order is fixed (rows equal in every column are
 * indistinguishable), usually with LIMIT and now and then OFFSET. Stateless apart from the context it draws from.
 */
final class ProjectionGenerator {

    private final QueryContext ctx;

    ProjectionGenerator(QueryContext ctx) {
        this.ctx = ctx;
    }

    FuzzQuery generate() {
        ScalarGenerator scalars = new ScalarGenerator(ctx);
        ctx.leftAttributes = true;
        List<Output> outputs = new ArrayList<>();
        String select;
        if (!ctx.join.any() && ctx.chance(15)) {
            ctx.tags.add("projection:star");
            for (String c : FactColumns.ALL) {
                outputs.add(new Output(c, Output.Kind.OTHER, null));
            }
            select = "*";
        } else {
            ctx.tags.add("projection");
            int n = 1 + ctx.rnd.nextInt(5);
            for (int i = 0; i < n; i++) {
                outputs.add(new Output(item(scalars), Output.Kind.OTHER, null));
            }
            select = String.join(", ", outputs.stream().map(Output::sql).toList());
        }
        String from = ctx.from();
        StringBuilder sql = new StringBuilder("SELECT " + select + " FROM " + from);
        boolean where = ctx.chance(80);
        if (where) {
            sql.append(" WHERE ").append(new PredicateGenerator(ctx, scalars).condition(ctx.rnd.nextInt(3)));
        }
        String core = sql.toString();
        List<String> order = new ArrayList<>();
        for (int i = 1; i <= outputs.size(); i++) {
            order.add(i + (ctx.chance(30) ? " DESC" : "") + (ctx.nulls && ctx.chance(20) ? " NULLS FIRST" : ""));
        }
        sql.append(" ORDER BY ").append(String.join(", ", order));
        if (!where || ctx.chance(75)) {
            ctx.tags.add("limit");
            sql.append(" LIMIT ").append(1 + ctx.rnd.nextInt(40));
            if (ctx.chance(30)) {
                ctx.tags.add("offset");
                sql.append(" OFFSET ").append(ctx.rnd.nextInt(20));
            }
        }
        return new FuzzQuery(sql.toString(), outputs, true, from, core, ctx.tags);
    }

    private String item(ScalarGenerator scalars) {
        return switch (ctx.rnd.nextInt(8)) {
            case 0, 1 -> ctx.ref(ctx.pick(ctx.columns(EnumSet.of(ColumnType.STRING, ColumnType.INT, ColumnType.DATE))));
            case 2, 3 -> ctx.pick(ctx.columns(EnumSet.of(ColumnType.DOUBLE, ColumnType.LONG, ColumnType.DECIMAL)));
            case 4, 5 -> new DimensionFunctions(ctx).any();
            default -> scalars.numeric(1);
        };
    }
}
