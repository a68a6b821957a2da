package io.numacube.server.pgwire.catalog;

import io.numacube.server.pgwire.types.PgColumn;
import io.numacube.server.pgwire.types.PgType;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How to answer one select item of a catalog query for one table or column: the expressions psql and pgjdbc select
 * from {@code pg_class}, {@code pg_namespace}, {@code pg_attribute} and {@code pg_type}, each recognised by a pattern
 * and answered from the {@link CatalogModel} with PostgreSQL's type; a pattern matches the whole item (a bare column,
 * or a client's expression as it writes it), so {@code c.reltuples * 2} is no item it knows. Facts numacube's tables do not have (defaults,
 * comments, identity and generated columns, indexes, rules, triggers, row security, inheritance, reloptions) are
 * answered as PostgreSQL answers them for a plain table without them. An item no rule knows makes the query
 * unanswerable. Stateless.
 */
final class CatalogItems {

    /**
     * A row to answer: a relation, one of its attributes (or null), the database, and the row's ordinal among its
     * relation's rows that its query level keeps, in attribute-number order ({@code row_number() OVER (PARTITION BY
     * attrelid ORDER BY attnum)}).
     */
    record Row(CatalogModel.Relation relation, CatalogModel.Attribute attribute, String database, long ordinal) {}

    /** A known item: its pattern, type and value. */
    private record Rule(Pattern pattern, PgType type, Function<Row, Object> value) {}

    /** The qualifier of a column of {@code pg_attribute}, if any: {@code a.} or {@code pg_catalog.pg_attribute.}. */
    private static final String ATTRIBUTE = "((pg_catalog\\.)?pg_attribute\\.|a\\.)?";

    private static final Pattern STRING = Pattern.compile("'((?:[^']++|'')*)'");
    /** A simple CASE over a table's kind: {@code CASE c.relkind WHEN 'r' THEN 'table' ... [ELSE NULL] END}. */
    private static final String KIND_CASE = "case (?:c\\.)?relkind(?: when '[^']*' then '[^']*')+(?: else null)? end";

    private static final Pattern RELKIND_CASE = Pattern.compile("(?i)" + KIND_CASE);
    /** pgjdbc's getTables: a CASE over whether the schema is a system one, for public its {@code WHEN false} branch. */
    private static final Pattern SCHEMA_KIND_CASE = Pattern.compile("(?i)case n\\.nspname ~ '\\^pg_' or n\\.nspname ="
            + " 'information_schema' when true then .* when false then (" + KIND_CASE + ") else null end");

    private static final Pattern KIND_BRANCH = Pattern.compile("(?i)when '([^']*)' then '([^']*)'");

    /** Any qualifier of a column ({@code c.}, {@code pg_catalog.pg_class.}), or none. */
    private static final String Q = "(?:\\w+\\.)*";

    private static final List<Rule> RULES = List.of(
            rule("(?:pg_catalog\\.)?current_database\\(\\)|current_catalog", PgType.NAME, Row::database),
            // CASE WHEN <false for every column of numacube's> THEN ... ELSE NULL END is NULL, whatever THEN says
            rule("case when \\(?" + ATTRIBUTE + "atthasdef\\)? then .* else null end", PgType.TEXT, r -> null),
            rule(
                    "case when \\(" + ATTRIBUTE + "attidentity != ''(?:::varchar)?\\) then .* else null end",
                    PgType.TEXT,
                    r -> null),
            rule(
                    "case when \\(pg_catalog\\.pg_attribute\\.attcollation != 0(?:::integer)? and \\(select"
                            + " pg_catalog\\.pg_type\\.typcollation from pg_catalog\\.pg_type where pg_catalog\\.pg_type\\.oid ="
                            + " pg_catalog\\.pg_attribute\\.atttypid\\) != pg_catalog\\.pg_attribute\\.attcollation\\) then .*"
                            + " else null end",
                    PgType.TEXT,
                    r -> null),
            rule(
                    "\\(select pg_catalog\\.pg_get_expr\\(d\\.adbin, d\\.adrelid, true\\) from pg_catalog\\.pg_attrdef d"
                            + " where d\\.adrelid = a\\.attrelid and d\\.adnum = a\\.attnum and a\\.atthasdef\\)",
                    PgType.TEXT,
                    r -> null),
            rule(
                    "\\(select c\\.collname from pg_catalog\\.pg_collation c, pg_catalog\\.pg_type t where c\\.oid ="
                            + " a\\.attcollation and t\\.oid = a\\.atttypid and a\\.attcollation <> t\\.typcollation\\)",
                    PgType.NAME,
                    r -> null),
            rule("nullif\\(a\\.att(identity|generated), ''\\)", PgType.CHAR, r -> null),
            rule(
                    "case c\\.relpersistence when 'p' then 'permanent' when 't' then 'temporary' when 'u' then"
                            + " 'unlogged' end",
                    PgType.TEXT,
                    r -> "permanent"),
            rule(Q + "relpersistence", PgType.CHAR, r -> "p"),
            rule("case when a\\.attstattarget ?= ?-1 then null else a\\.attstattarget end", PgType.INT2, r -> null),
            rule("(n\\.)?nspname", PgType.NAME, r -> "public"),
            rule(
                    "((pg_catalog\\.)?pg_class\\.|c\\.)?relname",
                    PgType.NAME,
                    r -> r.relation().name()),
            rule(
                    "((pg_catalog\\.)?pg_class\\.|c\\.)oid",
                    PgType.OID,
                    r -> r.relation().oid()),
            rule("pg_catalog\\.pg_get_userbyid\\(c\\.relowner\\)", PgType.NAME, r -> CatalogModel.OWNER),
            rule("(c\\.)?relkind", PgType.CHAR, r -> "r"),
            rule(Q + "amname", PgType.NAME, r -> "numacube"),
            rule(
                    "case when \\(pg_catalog\\.pg_am\\.amname is not null and pg_catalog\\.pg_am\\.amname !="
                            + " current_setting\\('default_table_access_method'(?:::varchar)?\\)\\) then"
                            + " pg_catalog\\.pg_am\\.amname else null end",
                    PgType.NAME,
                    r -> "numacube"),
            rule(
                    "pg_catalog\\.pg_size_pretty\\(pg_catalog\\.pg_table_size\\(c\\.oid\\)\\)",
                    PgType.TEXT,
                    r -> prettySize(r.relation().bytes())),
            rule(Q + "reltuples", PgType.FLOAT4, r -> (double) r.relation().rows()),
            rule(
                    "pg_catalog\\.obj_description\\(c\\.oid, 'pg_class'\\)"
                            + "|pg_catalog\\.col_description\\(a\\.attrelid, a\\.attnum\\)|" + Q + "description",
                    PgType.TEXT,
                    r -> null),
            rule(Q + "relchecks", PgType.INT2, r -> 0L),
            rule(Q + "relhasindex", PgType.BOOL, r -> !r.relation().key().isEmpty()),
            rule(Q + "(relhas\\w+|relrowsecurity|relforcerowsecurity|relispartition)", PgType.BOOL, r -> false),
            rule(
                    "pg_catalog\\.array_to_string\\(c\\.reloptions \\|\\| array\\(select 'toast\\.' \\|\\| x from"
                            + " pg_catalog\\.unnest\\(tc\\.reloptions\\) x\\), ', '\\)",
                    PgType.TEXT,
                    r -> ""),
            rule("((pg_catalog\\.)?pg_class\\.|c\\.)?reloptions", PgType.TEXT_ARRAY, r -> null),
            rule(Q + "reltablespace", PgType.OID, r -> 0L),
            rule(
                    "case when c\\.reloftype = 0 then '' else c\\.reloftype::pg_catalog\\.regtype::pg_catalog\\.text"
                            + " end",
                    PgType.TEXT,
                    r -> ""),
            rule(Q + "relreplident", PgType.CHAR, r -> "d"),
            rule(ATTRIBUTE + "attname", PgType.NAME, r -> r.attribute().name()),
            rule(
                    "(pg_catalog\\.)?format_type\\(" + ATTRIBUTE + "atttypid, " + ATTRIBUTE + "atttypmod\\)",
                    PgType.TEXT,
                    r -> r.attribute().formatType()),
            rule("(a\\.)?atttypid", PgType.OID, r -> (long) r.attribute().type().oid()),
            rule(Q + "attnotnull(?: OR \\(t\\.typtype = 'd' AND t\\.typnotnull\\))?", PgType.BOOL, r -> false),
            rule("(a\\.)?atttypmod", PgType.INT4, r -> (long) r.attribute().typmod()),
            rule("(a\\.)?attlen", PgType.INT2, r -> (long) r.attribute().type().length()),
            rule(Q + "typtypmod", PgType.INT4, r -> -1L),
            rule(
                    "row_number\\(\\) over \\(partition by a\\.attrelid order by a\\.attnum\\)",
                    PgType.INT8,
                    Row::ordinal),
            rule("(a\\.)?attnum", PgType.INT2, r -> (long) r.attribute().number()),
            rule(Q + "att(identity|generated|compression)", PgType.CHAR, r -> ""),
            rule(Q + "attstorage", PgType.CHAR, r -> r.attribute().type().length() > 0 ? "p" : "x"),
            rule(Q + "attstattarget", PgType.INT2, r -> -1L),
            rule(Q + "adsrc|pg_catalog\\.pg_get_expr\\(def\\.adbin, def\\.adrelid\\)", PgType.TEXT, r -> null),
            rule(Q + "typbasetype", PgType.OID, r -> 0L),
            rule("(t\\.)?typtype", PgType.CHAR, r -> "b"),
            rule("null", PgType.TEXT, r -> null),
            rule("false", PgType.BOOL, r -> false),
            rule("true", PgType.BOOL, r -> true));

    private CatalogItems() {}

    private static Rule rule(String regex, PgType type, Function<Row, Object> value) {
        return new Rule(Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.DOTALL), type, value);
    }

    /** An answered item: its column and how to get its value for a row. */
    record Answer(PgColumn column, Function<Row, Object> value) {}

    /** The answer to {@code item}, or empty when no rule knows it. */
    static Optional<Answer> answer(SelectList.Item item) {
        String e = item.expression().strip().replaceAll("\\s+", " ");
        Matcher schemaCase = SCHEMA_KIND_CASE.matcher(e);
        String kindCase = schemaCase.matches()
                ? schemaCase.group(1)
                : RELKIND_CASE.matcher(e).matches() ? e : null;
        if (kindCase != null) {
            String kind = tableKind(kindCase);
            return Optional.of(new Answer(PgColumn.of(item.name(), PgType.TEXT), r -> kind));
        }
        Matcher s = STRING.matcher(e);
        if (s.matches()) {
            String text = s.group(1).replace("''", "'");
            return Optional.of(new Answer(PgColumn.of(item.name(), PgType.TEXT), r -> text));
        }
        for (Rule rule : RULES) {
            if (rule.pattern().matcher(e).matches()) {
                return Optional.of(new Answer(PgColumn.of(item.name(), rule.type()), rule.value()));
            }
        }
        return Optional.empty();
    }

    /** What a simple CASE over {@code relkind} gives an ordinary table ({@code 'r'}): its first such branch, else NULL. */
    private static String tableKind(String kindCase) {
        Matcher m = KIND_BRANCH.matcher(kindCase);
        while (m.find()) {
            if (m.group(1).equals("r")) {
                return m.group(2);
            }
        }
        return null;
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
