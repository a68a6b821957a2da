package io.numacube.server.pgwire.catalog;

import io.numacube.server.pgwire.types.FixedRows;
import io.numacube.server.pgwire.types.PgColumn;
import io.numacube.server.pgwire.types.PgType;
import io.numacube.server.pgwire.types.RowSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code pg_type} as numacube has it: a row per {@link PgType}, in schema {@code pg_catalog} (OID 11), in OID order,
 * and no other type (an extension's such as hstore has no row, as in a PostgreSQL without it). Answers a query of
 * {@code pg_type}, maybe joined to {@code pg_namespace} on {@code typnamespace}, whose select items are columns it
 * models and whose WHERE is a conjunction of lookups: {@code oid = N}, {@code oid = to_regtype('NAME')},
 * {@code typname = 'NAME'} or {@code IN (...)}, {@code nspname = 'NAME'}. PostgreSQL's array types other than
 * {@code text[]} are not modelled, so a lookup of one is not answered (rather than answered with no row), nor is any
 * other condition, item or order. Stateless.
 */
final class TypeCatalog {

    private static final long PG_CATALOG_OID = 11;
    private static final String QUALIFIER = "(?:(?:pg_catalog\\.)?(?:pg_type|pg_namespace)\\.|\\w+\\.)?";

    /** {@code pg_type [t]}, maybe joined to {@code pg_namespace} (psycopg2's hstore lookup), nothing else. */
    static final Pattern FROM =
            Pattern.compile("(?is)(?:pg_catalog\\s*\\.\\s*)?pg_type(?:\\s+(?:AS\\s+)?(?!JOIN\\b)\\w+)?"
                    + "(?:\\s+(?:INNER\\s+)?JOIN\\s+(?:pg_catalog\\s*\\.\\s*)?pg_namespace(?:\\s+(?:AS\\s+)?\\w+)?"
                    + "\\s+ON\\s+\\(?\\s*" + QUALIFIER + "typnamespace\\s*=\\s*" + QUALIFIER + "oid\\s*\\)?)?");

    /** The namespace's alias, where the FROM clause joins {@code pg_namespace}: its {@code oid} is not a type's. */
    private static final Pattern NAMESPACE = Pattern.compile("(?i)pg_namespace(?:\\s+(?:AS\\s+)?(?!ON\\b)(\\w+))?");

    private record Item(Pattern pattern, PgType type, Function<PgType, Object> value) {}

    private static final List<Item> ITEMS = List.of(
            item("typname", PgType.NAME, PgType::typeName),
            item("oid", PgType.OID, t -> (long) t.oid()),
            item("typarray", PgType.OID, t -> (long) t.arrayOid()),
            item("oid::regtype::text", PgType.TEXT, PgType::sqlName),
            item("typdelim", PgType.CHAR, t -> ","),
            item("typlen", PgType.INT2, t -> (long) t.length()),
            item("typtype", PgType.CHAR, TypeCatalog::typtype),
            item("typnamespace", PgType.OID, t -> PG_CATALOG_OID),
            item("nspname", PgType.NAME, t -> "pg_catalog"),
            item("typelem", PgType.OID, t -> t == PgType.TEXT_ARRAY ? (long) PgType.TEXT.oid() : 0L),
            item("typbasetype", PgType.OID, t -> 0L),
            item("typtypmod", PgType.INT4, t -> -1L),
            item("typnotnull", PgType.BOOL, t -> false));

    private static final String LITERAL = "'((?:[^']++|'')*)'(?:\\s*::\\s*\\w+)?";
    private static final Pattern BY_OID = conditionPattern("oid\\s*=\\s*'?(\\d+)'?(?:\\s*::\\s*\\w+)?");
    private static final Pattern BY_REGTYPE =
            conditionPattern("oid\\s*=\\s*to_regtype\\s*\\(\\s*" + LITERAL + "\\s*\\)");
    private static final Pattern BY_NAME = conditionPattern("typname\\s*=\\s*" + LITERAL);
    private static final Pattern BY_NAMES = conditionPattern("typname\\s+IN\\s*\\(([^)]*)\\)");
    private static final Pattern BY_SCHEMA = conditionPattern("nspname\\s*(=|<>|!=)\\s*" + LITERAL);
    /**
     * pgjdbc's getTypeInfo: {@code typrelid = 0} (not a table's row type) or a composite type's; numacube's types are
     * none of either kind's exceptions, so it holds for each.
     */
    private static final Pattern NOT_A_ROW_TYPE = Pattern.compile("(?is)\\(\\s*" + QUALIFIER
            + "typrelid\\s*=\\s*0\\s+OR\\s+\\(\\s*SELECT\\s+c\\.relkind\\s*=\\s*'c'\\s+FROM"
            + "\\s+pg_catalog\\.pg_class\\s+c\\s+WHERE\\s+c\\.oid\\s*=\\s*" + QUALIFIER + "typrelid\\s*\\)\\s*\\)");
    /** pgjdbc's TypeInfoCache query of every type, whitespace collapsed: each type, arrays marked, newest first. */
    private static final String ALL_TYPES = "SELECT typinput='pg_catalog.array_in'::regproc as is_array, typtype,"
            + " typname, pg_type.oid FROM pg_catalog.pg_type LEFT JOIN (select ns.oid as nspoid, ns.nspname, r.r from"
            + " pg_namespace as ns join ( select s.r, (current_schemas(false))[s.r] as nspname from generate_series(1,"
            + " array_upper(current_schemas(false), 1)) as s(r) ) as r using ( nspname ) ) as sp ON sp.nspoid ="
            + " typnamespace ORDER BY sp.r, pg_type.oid DESC";

    private static final Pattern ORDER = Pattern.compile("(?is)ORDER\\s+BY\\s+" + QUALIFIER + "oid(?:\\s+ASC)?");

    private TypeCatalog() {}

    private static Item item(String column, PgType type, Function<PgType, Object> value) {
        return new Item(
                Pattern.compile("(?is)" + QUALIFIER + Pattern.quote(column).replace("::", "\\E\\s*::\\s*\\Q")),
                type,
                value);
    }

    private static Pattern conditionPattern(String regex) {
        return Pattern.compile("(?is)\\(?\\s*" + QUALIFIER + regex + "\\s*\\)?");
    }

    /**
     * The rows of a {@code pg_type} query, or empty when an item, condition or order is not one modelled.
     *
     * @param select the query's select list
     * @param from   its FROM clause, which {@link #FROM} matches
     * @param where  its WHERE condition, blank for none
     * @param order  its ORDER BY clause, blank for none
     */
    static Optional<RowSet> answer(SelectList select, String from, String where, String order) {
        if (!order.isBlank() && !ORDER.matcher(order.strip()).matches()) {
            return Optional.empty();
        }
        Matcher namespace = NAMESPACE.matcher(from);
        String ns = !namespace.find() ? null : namespace.group(1) == null ? "pg_namespace" : namespace.group(1);
        Pattern namespaceOid = Pattern.compile("(?i)(?<![\\w.])(?:pg_catalog\\.)?" + ns + "\\.oid\\b");
        if (ns != null
                && (namespaceOid.matcher(where).find()
                        || select.items().stream()
                                .anyMatch(i ->
                                        namespaceOid.matcher(i.expression()).find()))) {
            return Optional.empty();
        }
        List<Item> items = new ArrayList<>();
        for (SelectList.Item i : select.items()) {
            String e = i.expression().strip();
            Optional<Item> known = ITEMS.stream()
                    .filter(it -> it.pattern().matcher(e).matches())
                    .findFirst();
            if (known.isEmpty()) {
                return Optional.empty();
            }
            items.add(known.get());
        }
        Predicate<PgType> admits = t -> true;
        for (String conjunct : conjuncts(where)) {
            Optional<Predicate<PgType>> c = condition(conjunct.strip());
            if (c.isEmpty()) {
                return Optional.empty();
            }
            admits = admits.and(c.get());
        }
        List<Object[]> rows = new ArrayList<>();
        for (PgType t : PgType.values()) {
            if (admits.test(t)) {
                rows.add(items.stream().map(it -> it.value().apply(t)).toArray());
            }
        }
        List<PgColumn> columns = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            columns.add(PgColumn.of(select.items().get(i).name(), items.get(i).type()));
        }
        return Optional.of(new FixedRows(columns, rows));
    }

    private static Optional<Predicate<PgType>> condition(String c) {
        Matcher m;
        if ((m = BY_REGTYPE.matcher(c)).matches()) {
            return regtype(unquote(m.group(1))).map(found -> t -> found.isPresent() && found.get() == t);
        }
        if ((m = BY_OID.matcher(c)).matches()) {
            long oid = Long.parseLong(m.group(1));
            return notAnUnmodelledArray(oid) ? Optional.of(t -> t.oid() == oid) : Optional.empty();
        }
        if ((m = BY_NAME.matcher(c)).matches()) {
            String name = unquote(m.group(1));
            return notAnUnmodelledArray(name) ? Optional.of(t -> t.typeName().equals(name)) : Optional.empty();
        }
        if ((m = BY_NAMES.matcher(c)).matches()) {
            List<String> names = new ArrayList<>();
            Matcher v = Pattern.compile(LITERAL).matcher(m.group(1));
            while (v.find()) {
                names.add(unquote(v.group(1)));
            }
            return names.stream().allMatch(TypeCatalog::notAnUnmodelledArray)
                    ? Optional.of(t -> names.contains(t.typeName()))
                    : Optional.empty();
        }
        if ((m = BY_SCHEMA.matcher(c)).matches()) {
            boolean catalog =
                    unquote(m.group(2)).equals("pg_catalog") == m.group(1).equals("=");
            return Optional.of(t -> catalog);
        }
        if (NOT_A_ROW_TYPE.matcher(c).matches()) {
            return Optional.of(t -> true);
        }
        return Optional.empty();
    }

    /**
     * PostgreSQL's {@code to_regtype(name)} over numacube's types: the type, no type (a name numacube has no type
     * for), or empty when the name is an array type not modelled here.
     */
    static Optional<Optional<PgType>> regtype(String name) {
        String n = name.strip();
        boolean quoted = n.startsWith("\"") && n.endsWith("\"") && n.length() > 1;
        n = quoted ? n.substring(1, n.length() - 1) : n.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        n = n.replaceFirst("^pg_catalog\\.", "").replaceFirst("\\s*\\(\\s*\\d+\\s*(,\\s*\\d+\\s*)?\\)$", "");
        if (n.endsWith("[]")) {
            return n.equals("text[]") ? Optional.of(Optional.of(PgType.TEXT_ARRAY)) : Optional.empty();
        }
        String lookup = quoted
                ? n
                : switch (n) {
                    case "boolean" -> "bool";
                    case "char", "character" -> "bpchar";
                    case "bigint" -> "int8";
                    case "smallint" -> "int2";
                    case "int", "integer" -> "int4";
                    case "real" -> "float4";
                    case "float", "double precision" -> "float8";
                    case "character varying" -> "varchar";
                    case "timestamp without time zone" -> "timestamp";
                    case "timestamp with time zone" -> "timestamptz";
                    case "decimal" -> "numeric";
                    default -> n;
                };
        if (!notAnUnmodelledArray(lookup)) {
            return Optional.empty();
        }
        String typname = lookup;
        return Optional.of(Arrays.stream(PgType.values())
                .filter(t -> t.typeName().equals(typname))
                .findFirst());
    }

    /** {@code b} for a base type, {@code p} for the pseudo-type {@code unknown}. */
    static String typtype(PgType t) {
        return t == PgType.UNKNOWN ? "p" : "b";
    }

    /**
     * The answer to pgjdbc's TypeInfoCache query of every type ({@code sql} normalized), or empty when it is not that
     * query: a row per type (no schema of the search path holds one: pg_catalog is not listed by
     * {@code current_schemas(false)}), by OID descending.
     */
    static Optional<RowSet> allTypes(String sql) {
        String q = sql.strip();
        if (!(q.endsWith(";") ? q.substring(0, q.length() - 1).strip() : q).equals(ALL_TYPES)) {
            return Optional.empty();
        }
        List<Object[]> rows = new ArrayList<>();
        for (PgType t : PgType.values()) {
            rows.add(new Object[] {t == PgType.TEXT_ARRAY, typtype(t), t.typeName(), (long) t.oid()});
        }
        rows.sort((a, b) -> Long.compare((Long) b[3], (Long) a[3]));
        return Optional.of(new FixedRows(
                List.of(
                        PgColumn.of("is_array", PgType.BOOL),
                        PgColumn.of("typtype", PgType.CHAR),
                        PgColumn.of("typname", PgType.NAME),
                        PgColumn.of("oid", PgType.OID)),
                rows));
    }

    private static boolean notAnUnmodelledArray(String typname) {
        return !typname.startsWith("_") || typname.equals(PgType.TEXT_ARRAY.typeName());
    }

    private static boolean notAnUnmodelledArray(long oid) {
        return Arrays.stream(PgType.values()).noneMatch(t -> t.arrayOid() == oid && t.arrayOid() != 0)
                || oid == PgType.TEXT_ARRAY.oid();
    }

    private static String unquote(String literal) {
        return literal.replace("''", "'");
    }

    /** The top-level AND-ed parts of {@code where}. */
    private static List<String> conjuncts(String where) {
        List<String> out = new ArrayList<>();
        String rest = where.strip();
        while (!rest.isEmpty()) {
            int and = SelectList.indexOfWord(rest, "AND", 0);
            out.add(and < 0 ? rest : rest.substring(0, and));
            rest = and < 0 ? "" : rest.substring(and + "AND".length()).strip();
        }
        return out;
    }
}
