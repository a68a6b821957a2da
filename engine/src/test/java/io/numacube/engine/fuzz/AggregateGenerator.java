package io.numacube.engine.fuzz;

import io.numacube.engine.schema.ColumnType;
import java.util.EnumSet;
import java.util.List;

/**
 * Draws aggregate outputs (COUNT(*), COUNT(x), COUNT(DISTINCT x), SUM, MIN, MAX, AVG of columns, arithmetic and
 * functions of one dimension, MIN and MAX of fact dimensions, arithmetic of aggregates; some with
 * {@code FILTER (WHERE ...)}) and HAVING conditions. HAVING compares only aggregates whose value is exact in
 * both engines (counts, integer sums, sums of the exact measure {@code m0}, MIN and MAX), so rounding never decides
 * which groups pass. Stateless apart from the context it draws from.
 */
final class AggregateGenerator {

    private static final String[] COMPARISONS = {"=", "<>", "<", "<=", ">", ">="};

    private final QueryContext ctx;
    private final ScalarGenerator scalars;

    AggregateGenerator(QueryContext ctx, ScalarGenerator scalars) {
        this.ctx = ctx;
        this.scalars = scalars;
    }

    /** One aggregate select-list item, now and then with a {@code FILTER (WHERE ...)}. */
    Output aggregate() {
        int pick = ctx.rnd.nextInt(25);
        Output o = plain(pick);
        if ((pick < 15 || pick > 16) && ctx.chance(12)) {
            ctx.tags.add("agg:filter");
            String p = new PredicateGenerator(ctx, scalars).condition(1);
            return new Output(o.sql() + " FILTER (WHERE " + p + ")", o.kind(), o.argument());
        }
        return o;
    }

    private Output plain(int pick) {
        return switch (pick) {
            case 0, 1 -> count("COUNT(*)");
            case 2 -> count("COUNT(" + (ctx.chance(50) ? ctx.ref(anyColumn()) : scalars.numeric(1)) + ")");
            case 3, 4, 5, 6 -> sumOrAvg("SUM", scalars.numeric(ctx.rnd.nextInt(3)));
            case 7, 8 -> sumOrAvg("AVG", scalars.numeric(ctx.rnd.nextInt(3)));
            case 9, 10, 11 -> minMax(scalars.numeric(ctx.rnd.nextInt(3)));
            case 12 -> minMax(ctx.ref(ctx.pick(FactColumns.DIMENSIONS)));
            case 13 -> minMax(ctx.chance(50) ? ctx.ref(ctx.pick(FactColumns.DIMENSIONS)) : "ts0");
            case 14 -> sumOrAvg(ctx.chance(50) ? "SUM" : "AVG", ctx.ref(ctx.chance(50) ? "i0" : "i1"));
            case 15, 16 -> composite();
            case 17, 18 -> sumOrAvg("SUM", scalars.leaf());
            case 19, 20 -> countDistinct();
            default -> ofFunction();
        };
    }

    /** COUNT(DISTINCT x) of a column (a dimension, a joined attribute, a BIGINT, a DOUBLE) or a function of one. */
    private Output countDistinct() {
        ctx.tags.add("agg:count-distinct");
        String x = switch (ctx.rnd.nextInt(7)) {
            case 0 -> new DimensionFunctions(ctx).any();
            case 6 -> ctx.chance(50) ? "ts0" : "hour(ts0)";
            case 1 -> ctx.pick(ctx.columns(EnumSet.of(ColumnType.LONG)));
            case 2 -> ctx.ref(ctx.pick(ctx.chance(50) ? FactColumns.DOUBLES : FactColumns.DECIMALS));
            default -> ctx.ref(ctx.pick(ctx.columns(EnumSet.of(ColumnType.STRING, ColumnType.INT, ColumnType.DATE))));
        };
        return new Output("COUNT(DISTINCT " + x + ")", Output.Kind.COUNT, null);
    }

    /**
     * An aggregate of a function of one dimension, of a function or CASE of one measure (computed per value of its
     * query-time codes), or of a measure times a CASE over one dimension.
     */
    private Output ofFunction() {
        DimensionFunctions fn = new DimensionFunctions(ctx);
        return switch (ctx.rnd.nextInt(5)) {
            case 0 -> sumOrAvg(ctx.chance(60) ? "SUM" : "AVG", fn.integer());
            case 1 -> minMax(ctx.chance(50) ? fn.integer() : fn.text());
            case 2 -> ofMeasureFunction();
            default -> {
                ctx.tags.add("agg:case-weight");
                String m = ctx.chance(50) ? "m0" : ctx.chance(50) ? "l0" : scalars.leaf();
                yield sumOrAvg("SUM", m + " * CASE WHEN " + fn.condition() + " THEN 1 ELSE 0 END");
            }
        };
    }

    /** SUM, AVG, MIN or MAX of abs, round or a CASE of one measure, NULL where the measure is. */
    private Output ofMeasureFunction() {
        ctx.tags.add("agg:measure-function");
        String m = ctx.pick(List.of("m0", "m1", "l0", "l1", "n0", "n1"));
        String c = SqlLiterals.ofDouble((ctx.rnd.nextInt(2001) - 1000) / 4.0);
        String arg = switch (ctx.rnd.nextInt(4)) {
            case 0 -> "abs(" + m + ")";
            case 1 -> "round(" + m + ")";
            case 2 -> "CASE WHEN " + m + " > " + c + " THEN " + m + " ELSE 0 END";
            default -> "CASE WHEN " + m + " < " + c + " THEN " + m + " END";
        };
        return switch (ctx.rnd.nextInt(3)) {
            case 0 -> sumOrAvg("SUM", arg);
            case 1 -> sumOrAvg("AVG", arg);
            default -> minMax(arg);
        };
    }

    private String anyColumn() {
        return ctx.pick(ctx.columns(EnumSet.allOf(ColumnType.class)));
    }

    private Output count(String sql) {
        ctx.tags.add(sql.equals("COUNT(*)") ? "agg:count-star" : "agg:count");
        return new Output(sql, Output.Kind.COUNT, null);
    }

    private Output sumOrAvg(String fn, String arg) {
        ctx.tags.add("agg:" + fn.toLowerCase(java.util.Locale.ROOT));
        return new Output(fn + "(" + arg + ")", fn.equals("SUM") ? Output.Kind.SUM : Output.Kind.AVG, arg);
    }

    private Output minMax(String arg) {
        String fn = ctx.chance(50) ? "MIN" : "MAX";
        ctx.tags.add("agg:" + fn.toLowerCase(java.util.Locale.ROOT));
        return new Output(fn + "(" + arg + ")", Output.Kind.OTHER, null);
    }

    /** Arithmetic of exact aggregates and literals. */
    private Output composite() {
        ctx.tags.add("agg:arithmetic");
        String sql = switch (ctx.rnd.nextInt(7)) {
            case 5 -> "SUM(n0) - SUM(n1) * " + ctx.decimalLiteral("n1");
            case 6 -> "MAX(n0) - MIN(n1)";
            case 0 -> "SUM(l0) * 2";
            case 1 -> "SUM(m0) / COUNT(*)";
            case 2 -> "COUNT(*) + " + (ctx.rnd.nextInt(5) + 1);
            case 3 -> "MAX(m0) - MIN(m0)";
            default -> "SUM(" + ctx.ref("i0") + ") - SUM(l0)";
        };
        return new Output(sql, Output.Kind.OTHER, null);
    }

    /** A HAVING condition over exact aggregates, with at most one level of AND, OR or NOT. */
    String having() {
        ctx.tags.add("having");
        return switch (ctx.rnd.nextInt(6)) {
            case 0 -> havingAtom() + " AND " + havingAtom();
            case 1 -> "(" + havingAtom() + " OR " + havingAtom() + ")";
            case 2 -> "NOT (" + havingAtom() + ")";
            default -> havingAtom();
        };
    }

    private String havingAtom() {
        String op = COMPARISONS[ctx.rnd.nextInt(COMPARISONS.length)];
        return switch (ctx.rnd.nextInt(7)) {
            case 6 -> "SUM(n0) " + op + " " + ctx.decimalLiteral("n0");
            case 0, 1 -> "COUNT(*) " + op + " " + ctx.rnd.nextInt(50);
            case 2 -> "SUM(l0) " + op + " " + (ctx.rnd.nextInt(2_000_001) - 1_000_000);
            case 3 -> "SUM(m0) " + op + " " + SqlLiterals.ofDouble((ctx.rnd.nextInt(8001) - 4000) / 8.0);
            case 4 -> "MAX(m1) " + op + " " + ctx.numericLiteral(false);
            default -> {
                String dim = ctx.pick(FactColumns.DIMENSIONS);
                yield (ctx.chance(50) ? "MIN(" : "MAX(") + ctx.ref(dim) + ") " + op + " " + ctx.literalFor(dim);
            }
        };
    }
}
