package io.numacube.engine.fuzz;

import io.numacube.engine.schema.ColumnType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Draws group keys: a fact dimension, a joined table's attribute (text, INT, DATE, or the coded LONG {@code w}), now
 * and then a loaded BIGINT measure (coded, as a data set holds at most 50,000 rows), a DOUBLE measure or attribute
 * (coded at query time), or a function of one such column ({@link DimensionFunctions}). Keys of one query are distinct. Stateless apart from the context it draws from.
 */
final class KeyGenerator {

    private final QueryContext ctx;

    KeyGenerator(QueryContext ctx) {
        this.ctx = ctx;
    }

    /** {@code n} distinct group keys. */
    List<Output> keys(int n) {
        List<String> columns = new ArrayList<>(FactColumns.DIMENSIONS);
        List<String> doubles = new ArrayList<>(FactColumns.DOUBLES);
        for (String a : ctx.join.attributes()) {
            (FactColumns.type(a) != ColumnType.DOUBLE ? columns : doubles).add(a);
        }
        Collections.shuffle(columns, ctx.rnd);
        Set<String> keys = new LinkedHashSet<>();
        DimensionFunctions fn = new DimensionFunctions(ctx);
        for (int i = 0; keys.size() < n && i < 4 * n + 8; i++) {
            int pick = ctx.rnd.nextInt(100);
            if (pick < 22) {
                ctx.tags.add("group:function");
                keys.add(fn.any());
            } else if (pick < 24) {
                ctx.tags.add("group:bigint");
                keys.add(ctx.pick(ctx.columns(EnumSet.of(ColumnType.LONG))));
            } else if (pick < 26) {
                ctx.tags.add("group:timestamp");
                keys.add(ctx.chance(50) ? "ts0" : "date_trunc('" + (ctx.chance(50) ? "hour" : "day") + "', ts0)");
            } else if (pick < 28) {
                ctx.tags.add("group:double");
                keys.add(ctx.ref(ctx.pick(doubles)));
            } else if (pick < 31) {
                ctx.tags.add("group:decimal");
                keys.add(ctx.pick(FactColumns.DECIMALS));
            } else {
                String c = columns.get(keys.size() % columns.size());
                if (ctx.join.attributes().contains(c)) {
                    ctx.tags.add("group:joined-attribute");
                }
                keys.add(ctx.ref(c));
            }
        }
        List<Output> out = new ArrayList<>();
        for (String k : keys) {
            out.add(Output.key(k));
        }
        return out;
    }
}
