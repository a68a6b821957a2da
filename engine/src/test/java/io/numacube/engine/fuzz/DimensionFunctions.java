package io.numacube.engine.fuzz;

import io.numacube.engine.schema.ColumnType;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/**
 * Draws scalar functions of one dimension column (fact or joined), the SQL numacube evaluates once per dictionary
 * value: text functions ({@code lower substring trim ltrim rtrim concat || coalesce nullif}, CASE, CAST to
 * VARCHAR), integer ones ({@code length}, date parts, {@code EXTRACT}, {@code date_part}, {@code abs}, {@code %},
 * {@code coalesce nullif}, CASE), dates ({@code date_trunc} cast to DATE, {@code coalesce}) and one-column conditions
 * ({@code [NOT] LIKE}, {@code ILIKE}, {@code IS [NOT] DISTINCT FROM}, a function compared with a literal). Without
 * NULLs, no {@code nullif} (its NULLs would fill the TLP oracle's third part, which then is not queried). Stateless
 * apart from the context it draws from.
 */
final class DimensionFunctions {

    private static final String[] COMPARISONS = {"=", "<>", "<", "<=", ">", ">="};

    private static final List<String> DATE_PARTS =
            List.of("year", "quarter", "month", "day", "dayofweek", "isodow", "dayofyear", "week");

    private final QueryContext ctx;

    DimensionFunctions(QueryContext ctx) {
        this.ctx = ctx;
    }

    /** A column of {@code type} the query may read (unqualified; pass it through {@link QueryContext#ref}). */
    String column(ColumnType type) {
        return ctx.pick(ctx.columns(EnumSet.of(type)));
    }

    /** A function of one dimension, of any result type. */
    String any() {
        return switch (ctx.rnd.nextInt(3)) {
            case 0 -> text();
            case 1 -> integer();
            default -> ctx.chance(25) ? date() : integer();
        };
    }

    /** A text-valued function of one dimension. */
    String text() {
        String s = column(ColumnType.STRING);
        String c = ctx.ref(s);
        ctx.tags.add("fn:text");
        return switch (ctx.rnd.nextInt(13)) {
            case 0 -> "lower(trim(" + c + "))";
            case 1 -> (ctx.chance(50) ? "upper(" : "lower(") + c + ")";
            case 2 -> "substring(" + c + ", 1, " + (1 + ctx.rnd.nextInt(3)) + ")";
            case 3 -> "substring(" + c + ", " + (2 + ctx.rnd.nextInt(2)) + ")";
            case 4 -> (ctx.chance(50) ? "trim(" : ctx.chance(50) ? "ltrim(" : "rtrim(") + c + ")";
            case 5 -> "concat(" + c + ", '-x')";
            case 6 -> c + " || '/'";
            case 7 -> "coalesce(" + c + ", 'none')";
            case 8 -> ctx.nulls ? "nullif(" + c + ", " + ctx.literalFor(s) + ")" : "concat('<', " + c + ")";
            case 9 ->
                "CASE WHEN " + c + " IN (" + ctx.literalFor(s) + ", " + ctx.literalFor(s) + ") THEN 'p' WHEN " + c
                        + " LIKE " + pattern(s) + " THEN 'q' ELSE 'r' END";
            case 10 -> "CASE " + c + " WHEN " + ctx.literalFor(s) + " THEN 'one' ELSE 'other' END";
            case 11 -> {
                String i = column(ColumnType.INT);
                yield ctx.chance(50)
                        ? "CAST(" + ctx.ref(i) + " AS VARCHAR)"
                        : "CASE WHEN " + ctx.ref(i) + " > " + ctx.literalFor(i) + " THEN 'hi' ELSE 'lo' END";
            }
            default -> "lower(substring(" + c + ", 1, 2))";
        };
    }

    /** An integer-valued function of one dimension. */
    String integer() {
        ctx.tags.add("fn:integer");
        int pick = ctx.rnd.nextInt(10);
        if (pick < 3) {
            String d = ctx.ref(column(ColumnType.DATE));
            return switch (ctx.rnd.nextInt(4)) {
                case 0 -> "EXTRACT(year FROM " + d + ")";
                case 1 -> "date_part('month', " + d + ")";
                default -> ctx.pick(DATE_PARTS) + "(" + d + ")";
            };
        }
        if (pick < 5) {
            String s = column(ColumnType.STRING);
            return ctx.chance(60)
                    ? "length(" + ctx.ref(s) + ")"
                    : "CASE WHEN " + ctx.ref(s) + " LIKE " + pattern(s) + " THEN 1 ELSE 0 END";
        }
        String i = column(ColumnType.INT);
        String c = ctx.ref(i);
        return switch (pick) {
            case 5 -> "abs(" + c + ")";
            case 6 -> c + " % " + (2 + ctx.rnd.nextInt(6));
            case 7 -> "coalesce(" + c + ", 0)";
            case 8 -> ctx.nulls ? "nullif(" + c + ", " + ctx.literalFor(i) + ")" : "(" + c + " + 3)";
            default ->
                "CASE WHEN " + c + " < " + ctx.literalFor(i) + " THEN 1 WHEN " + c + " IS NULL THEN 2 ELSE 3 END";
        };
    }

    /** A date-valued function of one dimension. */
    String date() {
        ctx.tags.add("fn:date");
        String d = ctx.ref(column(ColumnType.DATE));
        return ctx.chance(70)
                ? "CAST(date_trunc('" + (ctx.chance(50) ? "month" : "year") + "', " + d + ") AS DATE)"
                : "coalesce(" + d + ", DATE '2000-01-01')";
    }

    /** A condition over one dimension column. */
    String condition() {
        ctx.tags.add("fn:condition");
        return switch (ctx.rnd.nextInt(6)) {
            case 0, 1 -> like();
            case 2 -> {
                String c = ctx.pick(ctx.columns(EnumSet.of(ColumnType.STRING, ColumnType.INT, ColumnType.DATE)));
                yield ctx.ref(c)
                        + (ctx.chance(50) ? " IS DISTINCT FROM " : " IS NOT DISTINCT FROM ")
                        + ctx.literalFor(c);
            }
            case 3 -> text() + " " + op() + " " + ctx.literalFor(column(ColumnType.STRING));
            default -> integer() + " " + op() + " " + (ctx.rnd.nextInt(30) - 3);
        };
    }

    private String like() {
        String s = column(ColumnType.STRING);
        String c = ctx.ref(s);
        return switch (ctx.rnd.nextInt(4)) {
            case 0 -> c + " NOT LIKE " + pattern(s);
            case 1 -> c + " ILIKE " + pattern(s).toUpperCase(Locale.ROOT);
            default -> c + " LIKE " + pattern(s);
        };
    }

    /** A LIKE pattern as a literal, built from a value the column holds: a prefix, suffix, infix or one char blank. */
    private String pattern(String column) {
        String v = (String) ctx.pick(ctx.data.pool(column));
        int n = v.codePointCount(0, v.length());
        int cut = n == 0 ? 0 : v.offsetByCodePoints(0, ctx.rnd.nextInt(n + 1));
        String p = switch (ctx.rnd.nextInt(5)) {
            case 0 -> v.substring(0, cut) + "%";
            case 1 -> "%" + v.substring(cut);
            case 2 -> n == 0 ? "_%" : "_" + v.substring(v.offsetByCodePoints(0, 1));
            case 3 -> "%" + v.substring(0, cut) + "%";
            default -> v;
        };
        return SqlLiterals.of(ColumnType.STRING, p);
    }

    private String op() {
        return COMPARISONS[ctx.rnd.nextInt(COMPARISONS.length)];
    }
}
