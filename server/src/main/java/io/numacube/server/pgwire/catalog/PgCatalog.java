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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Answers the system-catalog queries that psql, pgjdbc and SQLAlchemy send, which the engine cannot run (it knows only
 * the cube's tables): a query of {@code pg_type} is {@link TypeCatalog}'s, SQLAlchemy's and psql's of a table's key
 * {@link KeyConstraints}', pgjdbc's of primary keys and indexes {@link JdbcKeys}'; a query (each branch of a UNION) that inner-joins a catalog of things numacube's tables
 * never have (policies, inheritance, publications, statistics objects, triggers, rules, partitions, ...; constraints
 * and indexes but a key's, {@link EmptyCatalogs}) has no rows; a query over {@code pg_class}, {@code pg_namespace},
 * {@code pg_attribute} and {@code pg_type} is {@link RelationQuery}'s, answered only when every condition and order
 * of it is read. Anything else is not answered (the caller refuses it with 0A000). The shapes checked against the
 * real clients are listed in the README (psql 15's {@code \dt}, {@code \dt+}, {@code \d}, {@code \d+ NAME};
 * pgjdbc 42.7's {@code getTables} and {@code getColumns}; SQLAlchemy 2.1's reflection over psycopg and psycopg2).
 * Thread-safe: it reads the cube per query.
 */
public final class PgCatalog {

    private static final Pattern CATALOG =
            Pattern.compile("(?i)\\b(pg_catalog\\s*\\.|pg_class\\b|pg_namespace\\b" + "|pg_attribute\\b|pg_type\\b)");
    /** A catalog relation named in FROM, not a column it qualifies ({@code pg_catalog.pg_class.relname}). */
    private static final Pattern RELATION = Pattern.compile("(?i)pg_catalog\\.(pg_\\w+)\\b(?!\\s*\\.)");

    private static final Set<String> MODELLED = RelationQuery.MODELLED;
    /** A RIGHT or FULL join keeps the rows of its other side even where an empty catalog has none. */
    private static final Pattern OUTER_JOIN = Pattern.compile("(?i)\\b(?:RIGHT|FULL)\\b");

    private static final Pattern AGGREGATE = Pattern.compile(
            "(?i)(?<![\\w.])(?:pg_catalog\\.)?(?:count|sum|min|max|avg|array_agg|string_agg|bool_and|bool_or|every"
                    + "|json_agg|jsonb_agg|json_object_agg|xmlagg|bit_and|bit_or)\\s*\\(");

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
        Optional<RowSet> types = TypeCatalog.allTypes(s);
        if (types.isPresent()) {
            return types;
        }
        List<QueryLevel> levels = QueryLevel.of(s);
        QueryLevel inner = levels.getLast();
        if (inner.select().items().isEmpty()) {
            return Optional.empty();
        }
        if (TypeCatalog.FROM.matcher(inner.from()).matches()) {
            return levels.size() == 1 && inner.plain()
                    ? TypeCatalog.answer(inner.select(), inner.from(), inner.where(), orderClause(inner))
                    : Optional.empty();
        }
        CatalogModel model = CatalogModel.of(cube);
        Optional<RowSet> keys = KeyConstraints.answer(s, model);
        if (keys.isPresent()) {
            return keys;
        }
        Optional<RowSet> builtin = BuiltinCatalogs.answer(s);
        if (builtin.isPresent()) {
            return builtin;
        }
        Optional<Optional<RowSet>> jdbc = JdbcKeys.answer(s, model, database);
        if (jdbc.isPresent()) {
            return jdbc.get();
        }
        Optional<Boolean> none = emptyBranches(levels.size() == 1 ? s : innermostText(s, levels.size()), model);
        if (none.isPresent()) {
            return none.get() ? Optional.of(empty(levels.getFirst().select())) : Optional.empty();
        }
        return RelationQuery.answer(levels, model, database);
    }

    private static String orderClause(QueryLevel level) {
        return level.order().isBlank() ? "" : "ORDER BY " + level.order();
    }

    /** The text of the query {@code depth} levels in: each outer level a {@code SELECT * FROM (...) alias ...}. */
    private static String innermostText(String s, int depth) {
        String q = s;
        for (int i = 1; i < depth; i++) {
            int open = q.indexOf('(', SelectList.indexOfWord(q, "FROM", 0));
            q = q.substring(open + 1, JoinList.closing(q, open));
        }
        return q;
    }

    /**
     * Whether every branch of {@code query} (one, or those of its UNION) inner-joins a catalog that has no rows for
     * numacube's tables, so that it has no rows whatever else it asks: true, then. False when some branch does and
     * another not, or a branch aggregates (a count of no rows is a row); empty when no branch does.
     */
    private static Optional<Boolean> emptyBranches(String query, CatalogModel model) {
        List<String> branches = new ArrayList<>();
        String rest = query;
        int at;
        while ((at = SelectList.indexOfWord(rest, "UNION", 0)) >= 0) {
            branches.add(rest.substring(0, at));
            rest = rest.substring(at + "UNION".length()).strip();
            rest = rest.regionMatches(true, 0, "ALL ", 0, 4) ? rest.substring(4) : rest;
        }
        branches.add(rest);
        long empty = branches.stream().filter(b -> hasNoRows(b, model)).count();
        if (empty == 0) {
            return Optional.empty();
        }
        boolean aggregates = branches.stream().anyMatch(PgCatalog::aggregates);
        boolean others = Set.of("INTERSECT", "EXCEPT").stream().anyMatch(w -> SelectList.indexOfWord(query, w, 0) >= 0);
        return Optional.of(empty == branches.size() && !aggregates && !others);
    }

    /**
     * Whether {@code query} is one group even over no rows (a count of none is a row): a select item calls an aggregate
     * function at its top level, or it has no GROUP BY and a HAVING ({@code SELECT 1 FROM pg_trigger HAVING count(*) =
     * 0} is a row) or an aggregate in its ORDER BY.
     */
    private static boolean aggregates(String query) {
        for (SelectList.Item item : SelectList.of(query).items()) {
            if (callsAggregate(item.expression(), 0)) {
                return true;
            }
        }
        if (SelectList.indexOfWord(query, "GROUP", 0) >= 0) {
            return false;
        }
        int order = SelectList.indexOfWord(query, "ORDER", 0);
        return SelectList.indexOfWord(query, "HAVING", 0) >= 0 || order >= 0 && callsAggregate(query, order);
    }

    /** Whether {@code text} calls an aggregate function at parenthesis depth 0 at or after {@code from}. */
    private static boolean callsAggregate(String text, int from) {
        Matcher m = AGGREGATE.matcher(text);
        int at = from;
        while (m.find(at)) {
            if (JoinList.depth(text, m.start()) == 0) {
                return true;
            }
            at = m.end();
        }
        return false;
    }

    /**
     * Whether the query {@code sub} inner-joins a catalog that has no rows for it (a catalog of things numacube lacks,
     * by the conjuncts of its WHERE and inner joins), or a subquery that has none.
     */
    static boolean hasNoRows(String sub, CatalogModel model) {
        QueryLevel level = QueryLevel.of(sub).getLast();
        if (OUTER_JOIN.matcher(SqlLexer.codeOnly(level.from())).find()) {
            return false;
        }
        JoinList joins = JoinList.of(level.from());
        List<String> conjuncts = new ArrayList<>(CatalogCondition.conjuncts(level.where()));
        for (JoinList.Join j : joins.joins()) {
            if (!j.left()) {
                conjuncts.addAll(CatalogCondition.conjuncts(j.on()));
            }
        }
        for (JoinList.Join j : joins.joins()) {
            if (!j.left() && j.subquery() != null && hasNoRows(j.subquery(), model)) {
                return true;
            }
        }
        return innerJoined(level.from()).stream().anyMatch(r -> EmptyCatalogs.hasNoRows(r, conjuncts, model.keyed()));
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
}
