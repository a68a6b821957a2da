package io.numacube.server.pgwire.catalog;

import io.numacube.engine.Cube;
import io.numacube.server.pgwire.types.FixedRows;
import io.numacube.server.pgwire.types.PgColumn;
import io.numacube.server.pgwire.types.PgType;
import io.numacube.server.pgwire.types.RowSet;
import io.numacube.server.query.SqlLexer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Answers the system-catalog queries that psql, pgjdbc and SQLAlchemy send, which the engine cannot run (it knows only
 * the cube's tables): a query of {@code pg_type} is {@link TypeCatalog}'s, SQLAlchemy's of primary keys
 * {@link KeyConstraints}'; a query over {@code pg_class} (with {@code pg_namespace}) gets a row per cube table, one over
 * {@code pg_attribute} a row per column of the tables it names, each select item answered by {@link CatalogItems},
 * after the filters these clients write (a name by {@code LIKE} or {@code IN}, by psql's {@code OPERATOR(pg_catalog.~)} regular
 * expression or by {@code =}; an OID; the relation kinds; the schema, which must admit {@code public}). A query that
 * joins a catalog of things numacube's tables never have (policies, inheritance, publications, statistics objects,
 * triggers, rules, partitions, ...; constraints and indexes but a key's, {@link EmptyCatalogs}) has no rows, and a
 * LEFT JOIN of one extends rows with NULLs. Anything else is not answered (the caller refuses it with 0A000). The
 * shapes checked against the real clients are listed in the README (psql 15's {@code \dt}, {@code \dt+},
 * {@code \d}, {@code \d+ NAME}; pgjdbc 42.7's {@code getTables} and {@code getColumns}; SQLAlchemy 2.1's reflection
 * over psycopg and psycopg2).
 * Thread-safe: it reads the cube per query.
 */
public final class PgCatalog {

    private static final Pattern CATALOG =
            Pattern.compile("(?i)\\b(pg_catalog\\s*\\.|pg_class\\b|pg_namespace\\b" + "|pg_attribute\\b|pg_type\\b)");
    /** A catalog relation named in FROM, not a column it qualifies ({@code pg_catalog.pg_class.relname}). */
    private static final Pattern RELATION = Pattern.compile("(?i)pg_catalog\\.(pg_\\w+)\\b(?!\\s*\\.)");

    /**
     * A relation or schema named other than by an OID or a name literal ({@code attrelid = 'books'::regclass}, a
     * subquery, a function, a parameter): a filter {@link Filters} does not read, so the query is not answered.
     */
    private static final Pattern UNREAD_FILTER = Pattern.compile(
            "(?i)(?<![\\w.])(?:\\w+\\.)?(?:attrelid|oid|relnamespace)"
                    + "\\s*=\\s*(?:'(?:[^']|'')*'\\s*::\\s*(?:pg_catalog\\.)?reg\\w+|\\(|(?:pg_catalog\\.)?to_reg\\w+\\s*\\(|\\$\\d)");

    private static final Set<String> MODELLED = Set.of("pg_class", "pg_namespace", "pg_attribute", "pg_type");

    private final Cube cube;

    public PgCatalog(Cube cube) {
        this.cube = cube;
    }

    /**
     * Whether the statement reads the system catalog. A query of information_schema alone is not one: the engine
     * answers it from its own views of the tables.
     */
    public static boolean readsCatalog(String sql) {
        return CATALOG.matcher(SqlLexer.codeOnly(sql)).find();
    }

    /** The answer to a catalog query, or empty when its shape is not one numacube knows. */
    public Optional<RowSet> answer(String sql, String database) {
        String s = SqlLexer.normalize(sql);
        String query = s;
        SelectList select = SelectList.of(query);
        String from = fromClause(query);
        while (select.items().size() == 1
                && select.items().getFirst().expression().equals("*")
                && from.startsWith("(")) {
            int close = JoinList.closing(from, 0);
            query = from.substring(1, close < 0 ? from.length() : close);
            select = SelectList.of(query);
            from = fromClause(query);
        }
        if (select.items().isEmpty()) {
            return Optional.empty();
        }
        if (TypeCatalog.FROM.matcher(from).matches()) {
            return TypeCatalog.answer(select, from, clause(query, "WHERE"), clause(query, "ORDER"));
        }
        CatalogModel model = CatalogModel.of(cube);
        Optional<RowSet> keys = KeyConstraints.answer(s, model);
        if (keys.isPresent()) {
            return keys;
        }
        List<String> inner = innerJoined(from);
        String condition = from + " " + clause(query, "WHERE");
        if (inner.stream().anyMatch(r -> EmptyCatalogs.hasNoRows(r, condition, model.keyed()))) {
            return Optional.of(empty(select));
        }
        JoinList joins = JoinList.of(from);
        for (JoinList.Join j : joins.joins()) {
            if (j.subquery() != null && !j.left()) {
                // an inner join of a subquery keeps only the rows it matches: none when it has none, else not modelled
                return hasNoRows(j.subquery(), model) ? Optional.of(empty(select)) : Optional.empty();
            }
        }
        Optional<EmptyCatalogs> nulls = EmptyCatalogs.of(joins, model.keyed(), sub -> hasNoRows(sub, model));
        if (nulls.isEmpty()
                || UNREAD_FILTER.matcher(condition).find()
                || !MODELLED.containsAll(inner)
                || !inner.contains("pg_class") && !inner.contains("pg_attribute")) {
            return Optional.empty();
        }
        List<CatalogItems.Answer> answers = new ArrayList<>();
        for (SelectList.Item item : select.items()) {
            Optional<CatalogItems.Answer> a = nulls.get().answer(item).or(() -> CatalogItems.answer(item));
            if (a.isEmpty()) {
                return Optional.empty();
            }
            answers.add(a.get());
        }
        boolean attributes = joins.joins().stream().anyMatch(j -> j.relation().equals("pg_attribute"));
        return Optional.of(rows(s, joins, attributes, answers, database, model));
    }

    /** Whether the query {@code sub} inner-joins a catalog that has no rows for it. */
    private static boolean hasNoRows(String sub, CatalogModel model) {
        String condition = fromClause(sub) + " " + clause(sub, "WHERE");
        return innerJoined(fromClause(sub)).stream()
                .anyMatch(r -> EmptyCatalogs.hasNoRows(r, condition, model.keyed()));
    }

    /**
     * The outermost clause of {@code query} that starts with {@code word} (WHERE's condition without the word; ORDER
     * BY with it), up to the next clause; blank when it has none.
     */
    private static String clause(String query, String word) {
        int from = SelectList.indexOfWord(query, "FROM", Math.max(0, SelectList.indexOfWord(query, "SELECT", 0)));
        int start = from < 0 ? -1 : SelectList.indexOfWord(query, word, from);
        if (start < 0) {
            return "";
        }
        int end = query.length();
        for (String next : List.of("WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "UNION")) {
            int at = SelectList.indexOfWord(query, next, start + word.length());
            if (at >= 0) {
                end = Math.min(end, at);
            }
        }
        return query.substring(word.equals("WHERE") ? start + word.length() : start, end)
                .strip();
    }

    /** The outermost FROM clause of {@code query}, up to its WHERE, GROUP BY, ORDER BY, LIMIT or UNION. */
    private static String fromClause(String query) {
        int select = SelectList.indexOfWord(query, "SELECT", 0);
        int from = SelectList.indexOfWord(query, "FROM", Math.max(0, select));
        if (from < 0) {
            return "";
        }
        int end = query.length();
        for (String word : List.of("WHERE", "GROUP", "ORDER", "LIMIT", "UNION", "HAVING")) {
            int at = SelectList.indexOfWord(query, word, from);
            if (at >= 0) {
                end = Math.min(end, at);
            }
        }
        return query.substring(from + "FROM".length(), end).strip();
    }

    private static RowSet rows(
            String s,
            JoinList joins,
            boolean attributes,
            List<CatalogItems.Answer> answers,
            String database,
            CatalogModel model) {
        int from = SelectList.indexOfWord(s, "FROM", Math.max(0, SelectList.indexOfWord(s, "SELECT", 0)));
        Filters f = Filters.of(from < 0 ? "" : s.substring(from), joins);
        List<Object[]> rows = new ArrayList<>();
        for (CatalogModel.Relation rel : model.relations()) {
            if (!f.admits(rel)) {
                continue;
            }
            if (!attributes) {
                rows.add(row(new CatalogItems.Row(rel, null, database), answers));
                continue;
            }
            for (CatalogModel.Attribute att : rel.attributes()) {
                if (f.admits(att)) {
                    rows.add(row(new CatalogItems.Row(rel, att, database), answers));
                }
            }
        }
        return new FixedRows(answers.stream().map(CatalogItems.Answer::column).toList(), rows);
    }

    private static Object[] row(CatalogItems.Row r, List<CatalogItems.Answer> answers) {
        Object[] out = new Object[answers.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = answers.get(i).value().apply(r);
        }
        return out;
    }

    private static RowSet empty(SelectList select) {
        List<PgColumn> columns = select.items().stream()
                .map(i -> PgColumn.of(i.name(), PgType.TEXT))
                .toList();
        return new FixedRows(columns, List.of());
    }

    /**
     * The catalogs a FROM clause reads with an inner join (a comma, JOIN or INNER JOIN), outside parentheses: a LEFT
     * JOIN of a catalog numacube lacks changes no row, an inner join with one removes every row.
     */
    private static List<String> innerJoined(String from) {
        List<String> out = new ArrayList<>();
        Matcher m = RELATION.matcher(from);
        while (m.find()) {
            String before = from.substring(0, m.start()).toUpperCase(Locale.ROOT);
            String name = m.group(1).toLowerCase(Locale.ROOT);
            boolean relation = EmptyCatalogs.FEATURELESS.contains(name) || MODELLED.contains(name);
            boolean left = before.endsWith("LEFT JOIN ") || before.endsWith("LEFT OUTER JOIN ");
            if (relation && !left && JoinList.depth(from, m.start()) == 0) {
                out.add(name);
            }
        }
        return out;
    }

    /** The row filters of a catalog query, read from its text after the outermost FROM. Immutable. */
    private record Filters(
            long oid, Predicate<String> table, Predicate<String> column, boolean schemaPublic, boolean tables) {

        private static final String LITERAL = "'((?:[^']|'')*)'";
        /** A list of string literals, each maybe cast ({@code 'x'::VARCHAR}), as SQLAlchemy writes an IN list. */
        private static final String LITERALS =
                "\\s*'(?:[^']|'')*'(?:\\s*::\\s*\\w+)?(?:\\s*,\\s*'(?:[^']|'')*'(?:\\s*::\\s*\\w+)?)*\\s*";

        /**
         * The filters of {@code s}, a column qualified by its catalog's name, by the usual alias ({@code c.},
         * {@code a.}, {@code n.}) or by any alias {@code joins} give that catalog where it is not LEFT joined
         * ({@code ct.relname}; a LEFT joined {@code pg_class dc} filters its own rows, not the answer's).
         */
        static Filters of(String s, JoinList joins) {
            long oid = -1;
            Matcher m = Pattern.compile("(?i)(?<![\\w.])(?:(?:" + qualifiers("pg_class", "c", joins) + ")oid|(?:"
                            + qualifiers("pg_attribute", "a", joins) + ")attrelid)\\s*=\\s*'?(\\d+)'?")
                    .matcher(s);
            if (m.find()) {
                oid = Long.parseLong(m.group(1));
            }
            return new Filters(
                    oid,
                    name(s, "(?:" + qualifiers("pg_class", "c", joins) + ")?relname"),
                    name(s, "(?:" + qualifiers("pg_attribute", "a", joins) + ")?attname"),
                    name(s, "(?:" + qualifiers("pg_namespace", "n", joins) + ")?nspname")
                            .test("public"),
                    tablesIncluded(s));
        }

        /** The qualifiers of {@code relation}'s columns, each with its dot, as alternatives of a regular expression. */
        private static String qualifiers(String relation, String usual, JoinList joins) {
            StringBuilder b = new StringBuilder("(?:pg_catalog\\.)?" + relation + "\\.|" + usual + "\\.");
            for (JoinList.Join j : joins.joins()) {
                if (j.relation().equals(relation) && j.alias() != null && !j.left()) {
                    b.append('|').append(Pattern.quote(j.alias())).append("\\.");
                }
            }
            return b.toString();
        }

        /** The filter on {@code column}: its LIKE, regular expression or equality with a literal; else none. */
        private static Predicate<String> name(String s, String column) {
            Predicate<String> p = NamePattern.any();
            Matcher like = Pattern.compile("(?i)(?<![\\w.])" + column + "\\s+LIKE\\s+E?" + LITERAL)
                    .matcher(s);
            while (like.find()) {
                p = p.and(NamePattern.like(like.group(1).replace("''", "'")));
            }
            Matcher regex = Pattern.compile(
                            "(?i)(?<![\\w.])" + column + "\\s+(?:OPERATOR\\(pg_catalog\\.~\\)|~)\\s*" + LITERAL)
                    .matcher(s);
            while (regex.find()) {
                p = p.and(NamePattern.regex(regex.group(1).replace("''", "'")));
            }
            Matcher eq = Pattern.compile("(?i)(?<![\\w.])" + column + "\\s*=\\s*" + LITERAL)
                    .matcher(s);
            while (eq.find()) {
                String v = eq.group(1).replace("''", "'");
                p = p.and(x -> x.equalsIgnoreCase(v));
            }
            Matcher in = Pattern.compile("(?i)(?<![\\w.])" + column + "\\s+IN\\s*\\((" + LITERALS + ")\\)")
                    .matcher(s);
            while (in.find()) {
                java.util.Set<String> values = new java.util.HashSet<>();
                Matcher v = Pattern.compile(LITERAL).matcher(in.group(1));
                while (v.find()) {
                    values.add(v.group(1).replace("''", "'").toLowerCase(Locale.ROOT));
                }
                p = p.and(x -> values.contains(x.toLowerCase(Locale.ROOT)));
            }
            return p;
        }

        /** Whether ordinary tables are among the relation kinds asked for (psql's IN list, pgjdbc's type clauses). */
        private static boolean tablesIncluded(String s) {
            Matcher in = Pattern.compile("(?i)relkind\\s+(?:IN\\s*\\(|=\\s*ANY\\s*\\(\\s*ARRAY\\s*\\[)([^)\\]]*)[)\\]]")
                    .matcher(s);
            boolean any = false;
            while (in.find()) {
                any = true;
                if (in.group(1).contains("'r'")) {
                    return true;
                }
            }
            Matcher eq = Pattern.compile("(?i)relkind\\s*=\\s*'(\\w)'").matcher(s);
            while (eq.find()) {
                any = true;
                if (eq.group(1).equals("r")) {
                    return true;
                }
            }
            return !any;
        }

        boolean admits(CatalogModel.Relation r) {
            return tables && schemaPublic && (oid < 0 || r.oid() == oid) && table.test(r.name());
        }

        boolean admits(CatalogModel.Attribute a) {
            return column.test(a.name());
        }
    }
}
