package io.numacube.server.pgwire.catalog;

import io.numacube.server.pgwire.types.PgColumn;
import io.numacube.server.pgwire.types.PgType;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How to answer one select item of a catalog query for one table or column: the expressions psql and pgjdbc select
 * from {@code pg_class}, {@code pg_namespace}, {@code pg_attribute} and {@code pg_type}, each recognised by a pattern
 * and answered from the {@link CatalogModel} with PostgreSQL's type. Facts numacube's tables do not have (defaults,
 * comments, identity and generated columns, indexes, rules, triggers, row security, inheritance, reloptions) are
 * answered as PostgreSQL answers them for a plain table without them. An item no rule knows makes the query
 * unanswerable. Stateless.
 */
final class CatalogItems {

    /** The row an item is evaluated for: a table, and one of its columns for attribute queries. */
    record Row(CatalogModel.Relation relation, CatalogModel.Attribute attribute, String database) {}

    /** A known item: its pattern, type and value. */
    private record Rule(Pattern pattern, PgType type, Function<Row, Object> value) {}

    /** The qualifier of a column of {@code pg_attribute}, if any: {@code a.} or {@code pg_catalog.pg_attribute.}. */
    private static final String ATTRIBUTE = "((pg_catalog\\.)?pg_attribute\\.|a\\.)?";

    private static final Pattern STRING = Pattern.compile("'((?:[^']|'')*)'");
    private static final Pattern RELKIND_CASE = Pattern.compile("(?is).*when 'r' then '([^']*)'");

    private static final List<Rule> RULES = List.of(
            rule("current_database\\(\\)|current_catalog", PgType.NAME, Row::database),
            rule("^case when \\(?" + ATTRIBUTE + "atthasdef then", PgType.TEXT, r -> null),
            rule("^case when \\(?" + ATTRIBUTE + "attidentity != ''", PgType.TEXT, r -> null),
            rule("^case when \\(?" + ATTRIBUTE + "attcollation != 0", PgType.TEXT, r -> null),
            rule("^\\(?select .*pg_get_expr", PgType.TEXT, r -> null),
            rule("^\\(?select .*collname", PgType.NAME, r -> null),
            rule("nullif\\(a\\.att(identity|generated)", PgType.CHAR, r -> null),
            rule("case .*relpersistence", PgType.TEXT, r -> "permanent"),
            rule("relpersistence", PgType.CHAR, r -> "p"),
            rule("case .*attstattarget", PgType.INT2, r -> null),
            rule("^(n\\.)?nspname$", PgType.NAME, r -> "public"),
            rule(
                    "^((pg_catalog\\.)?pg_class\\.|c\\.)?relname$",
                    PgType.NAME,
                    r -> r.relation().name()),
            rule(
                    "^((pg_catalog\\.)?pg_class\\.|c\\.)oid$",
                    PgType.OID,
                    r -> r.relation().oid()),
            rule("pg_get_userbyid", PgType.NAME, r -> CatalogModel.OWNER),
            rule("^(c\\.)?relkind$", PgType.CHAR, r -> "r"),
            rule("amname", PgType.NAME, r -> "numacube"),
            rule("pg_size_pretty", PgType.TEXT, r -> prettySize(r.relation().bytes())),
            rule("reltuples", PgType.FLOAT4, r -> (double) r.relation().rows()),
            rule("obj_description|col_description|description$", PgType.TEXT, r -> null),
            rule("relchecks", PgType.INT2, r -> 0L),
            rule("relhasindex", PgType.BOOL, r -> !r.relation().key().isEmpty()),
            rule("relhas|relrowsecurity|relforcerowsecurity|relispartition|relhasoids", PgType.BOOL, r -> false),
            rule("array_to_string\\(c\\.reloptions", PgType.TEXT, r -> ""),
            rule("^((pg_catalog\\.)?pg_class\\.|c\\.)?reloptions$", PgType.TEXT_ARRAY, r -> null),
            rule("reltablespace", PgType.OID, r -> 0L),
            rule("reloftype", PgType.TEXT, r -> ""),
            rule("relreplident", PgType.CHAR, r -> "d"),
            rule("^" + ATTRIBUTE + "attname$", PgType.NAME, r -> r.attribute().name()),
            rule(
                    "format_type\\(" + ATTRIBUTE + "atttypid",
                    PgType.TEXT,
                    r -> r.attribute().formatType()),
            rule("^(a\\.)?atttypid$", PgType.OID, r ->
                    (long) r.attribute().type().oid()),
            rule("attnotnull", PgType.BOOL, r -> false),
            rule("^(a\\.)?atttypmod$", PgType.INT4, r -> (long) r.attribute().typmod()),
            rule("^(a\\.)?attlen$", PgType.INT2, r ->
                    (long) r.attribute().type().length()),
            rule("typtypmod", PgType.INT4, r -> -1L),
            rule("row_number\\(\\) over", PgType.INT8, r -> (long) r.attribute().number()),
            rule("^(a\\.)?attnum$", PgType.INT2, r -> (long) r.attribute().number()),
            rule("att(identity|generated|compression)", PgType.CHAR, r -> ""),
            rule("attstorage", PgType.CHAR, r -> r.attribute().type().length() > 0 ? "p" : "x"),
            rule("attstattarget", PgType.INT2, r -> -1L),
            rule("adsrc|pg_get_expr", PgType.TEXT, r -> null),
            rule("typbasetype", PgType.OID, r -> 0L),
            rule("^(t\\.)?typtype$", PgType.CHAR, r -> "b"),
            rule("^null$", PgType.TEXT, r -> null),
            rule("^false$", PgType.BOOL, r -> false),
            rule("^true$", PgType.BOOL, r -> true));

    private CatalogItems() {}

    private static Rule rule(String regex, PgType type, Function<Row, Object> value) {
        return new Rule(Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.DOTALL), type, value);
    }

    /** An answered item: its column and how to get its value for a row. */
    record Answer(PgColumn column, Function<Row, Object> value) {}

    /** The answer to {@code item}, or empty when no rule knows it. */
    static Optional<Answer> answer(SelectList.Item item) {
        String e = item.expression().strip().replaceAll("\\s+", " ");
        Matcher relkind = RELKIND_CASE.matcher(e);
        if (e.toLowerCase(Locale.ROOT).startsWith("case")
                && e.toLowerCase(Locale.ROOT).contains("relkind")
                && relkind.lookingAt()) {
            String kind = relkind.group(1);
            return Optional.of(new Answer(PgColumn.of(item.name(), PgType.TEXT), r -> kind));
        }
        Matcher s = STRING.matcher(e);
        if (s.matches()) {
            String text = s.group(1).replace("''", "'");
            return Optional.of(new Answer(PgColumn.of(item.name(), PgType.TEXT), r -> text));
        }
        for (Rule rule : RULES) {
            if (rule.pattern().matcher(e).find()) {
                return Optional.of(new Answer(PgColumn.of(item.name(), rule.type()), rule.value()));
            }
        }
        return Optional.empty();
    }

    /** PostgreSQL's {@code pg_size_pretty}: bytes below 10 kB, then kB, MB, GB, TB, each rounded half up. */
    static String prettySize(long bytes) {
        String[] units = {"bytes", "kB", "MB", "GB", "TB", "PB"};
        double size = bytes;
        int unit = 0;
        while (unit < units.length - 1 && Math.abs(size) >= 10 * 1024 - 0.5) {
            size /= 1024;
            unit++;
        }
        return Math.round(size) + " " + units[unit];
    }
}
