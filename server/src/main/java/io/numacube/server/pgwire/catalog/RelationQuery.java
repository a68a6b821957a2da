package io.numacube.server.pgwire.catalog;

import io.numacube.server.pgwire.types.FixedRows;
import io.numacube.server.pgwire.types.RowSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A query over {@code pg_class}, {@code pg_namespace}, {@code pg_attribute} and {@code pg_type} joined on their keys,
 * answered exactly or not at all: its FROM clause must name only catalogs ({@link JoinList}), each of those four at
 * most once and joined to the others by its key; its WHERE condition, the ON conditions of its inner joins and those
 * of a LEFT JOIN of one of the four must be read whole ({@link CatalogCondition}); its ORDER BY must be one
 * {@link RowOrder} applies; a wrapping {@code SELECT * FROM (...) alias WHERE ... ORDER BY ...} is read the same way
 * over the wrapped query's output columns. The rows are the cube's tables (or their columns) the condition holds for;
 * if it might hold for one of PostgreSQL's own relations or system columns ({@link SystemRelations}), which numacube
 * does not answer, the query is refused. LEFT JOINs of catalogs numacube's tables have no rows in extend rows with
 * NULLs ({@link EmptyCatalogs}). Stateless.
 */
final class RelationQuery {

    static final Set<String> MODELLED = Set.of("pg_class", "pg_namespace", "pg_attribute", "pg_type");

    /** psql's {@code LEFT JOIN pg_class tc ON (c.reltoastrelid = tc.oid)}: a table's TOAST table, none here. */
    private static final Pattern TOAST =
            Pattern.compile("(?is)\\(?\\s*(?:\\w+\\.)?reltoastrelid\\s*=\\s*(\\w+)\\.oid\\s*\\)?");

    private static final Pattern REF = Pattern.compile("(?is)(?:((?:pg_catalog\\.)?[A-Za-z_]\\w*)\\.)?([A-Za-z_]\\w*)");
    private static final Pattern SEPARATOR =
            Pattern.compile("(?is)(?:,|\\b(?:(?:LEFT|RIGHT|FULL|INNER|CROSS|NATURAL)\\s+(?:OUTER\\s+)?)?JOIN\\b)");
    private static final Pattern OTHER_JOIN = Pattern.compile("(?is)\\b(?:RIGHT|FULL|NATURAL|USING|LATERAL)\\b");
    /**
     * What may follow a relation in FROM that {@link JoinList} does not read: a sample ({@code TABLESAMPLE}, which keeps
     * some rows only) or a list of column aliases ({@code pg_class c(a, b)}).
     */
    private static final Pattern UNREAD_RELATION_CLAUSE = Pattern.compile(
            "(?is)\\bTABLESAMPLE\\b|\\bpg_\\w+\\s+(?:AS\\s+)?(?!(?:ON|JOIN|LEFT|RIGHT|FULL|INNER|CROSS|OUTER|WHERE|USING)\\b)\\w+\\s*\\(");

    private static final List<CatalogModel.Attribute> NO_ATTRIBUTE = java.util.Collections.singletonList(null);

    private RelationQuery() {}

    /**
     * The catalogs of a FROM clause that give its rows, by name, with the conditions of their joins.
     *
     * @param resolved  the modelled catalogs, each joined at most once, inner or LEFT on a key
     * @param conjuncts the WHERE condition's conjuncts and those of the inner joins' ON conditions
     * @param leftOn    the conjuncts of the ON conditions of the LEFT joined ones, which must hold for every row
     */
    private record Joined(Map<String, JoinList.Join> resolved, List<String> conjuncts, List<String> leftOn) {}

    /** The answer to {@code levels} (outermost first), or empty when some part of it is not read. */
    static Optional<RowSet> answer(List<QueryLevel> levels, CatalogModel model, String database) {
        QueryLevel inner = levels.getLast();
        if (levels.size() > 2 || levels.stream().anyMatch(l -> !l.plain()) || !onlyCatalogs(inner.from())) {
            return Optional.empty();
        }
        JoinList joins = JoinList.of(inner.from());
        Optional<EmptyCatalogs> nulls = EmptyCatalogs.of(joins, model.keyed(), sub -> PgCatalog.hasNoRows(sub, model));
        Optional<Joined> joined = nulls.flatMap(n -> joined(joins, n, inner.where()));
        if (joined.isEmpty()) {
            return Optional.empty();
        }
        Map<String, JoinList.Join> resolved = joined.get().resolved();
        CatalogCondition.Resolver names = resolver(resolved);
        Optional<CatalogCondition> where = CatalogCondition.of(joined.get().conjuncts(), names);
        Optional<CatalogCondition> on = CatalogCondition.of(joined.get().leftOn(), names);
        if (where.isEmpty() || on.isEmpty() || !connected(resolved.keySet(), where.get(), on.get())) {
            return Optional.empty();
        }
        List<CatalogCondition> own = List.of(where.get(), on.get());
        List<CatalogCondition> all = new ArrayList<>(own);
        if (levels.size() == 2) {
            Optional<CatalogCondition> c = CatalogCondition.of(
                    CatalogCondition.conjuncts(levels.getFirst().where()),
                    outputs(levels.getFirst().alias(), inner.select(), names));
            if (c.isEmpty()) {
                return Optional.empty();
            }
            all.add(c.get());
        }
        List<CatalogItems.Answer> answers = new ArrayList<>();
        for (SelectList.Item item : inner.select().items()) {
            Optional<CatalogItems.Answer> a = nulls.get().answer(item).or(() -> CatalogItems.answer(item));
            if (a.isEmpty()) {
                return Optional.empty();
            }
            answers.add(a.get());
        }
        boolean attributes = resolved.containsKey("pg_attribute");
        return rows(model, attributes, own, all, on.get(), answers, database)
                .flatMap(rows -> ordered(levels, rows, answers, names, nulls.get()));
    }

    /** The catalogs {@code joins} read and the conditions they join by; empty when one is not read. */
    private static Optional<Joined> joined(JoinList joins, EmptyCatalogs nulls, String where) {
        Map<String, JoinList.Join> resolved = new HashMap<>();
        List<String> conjuncts = new ArrayList<>(CatalogCondition.conjuncts(where));
        List<String> leftOn = new ArrayList<>();
        for (JoinList.Join j : joins.joins()) {
            if (j.left() && (nulls.extendsWithNulls(j) || j.relation().equals("pg_am"))) {
                continue;
            }
            if (!MODELLED.contains(j.relation())) {
                return Optional.empty();
            }
            if (!j.left() || joinsAResolved(j, resolved)) {
                if (resolved.putIfAbsent(j.relation(), j) != null) {
                    return Optional.empty();
                }
                (j.left() ? leftOn : conjuncts).addAll(CatalogCondition.conjuncts(j.on()));
            } else if (!TOAST.matcher(j.on()).matches()) {
                return Optional.empty();
            }
        }
        if (!resolved.containsKey("pg_class") && !resolved.containsKey("pg_attribute")) {
            return Optional.empty();
        }
        return Optional.of(new Joined(resolved, conjuncts, leftOn));
    }

    /**
     * The cube's rows {@code all} holds for, each with its answers; empty when it might hold for a row of PostgreSQL's
     * own ({@link SystemRelations}), or a LEFT JOIN's condition {@code on} does not hold for every row (it would then
     * extend some with NULLs). A row's ordinal ({@code row_number()} over its relation's attributes by number) counts
     * the rows its own level's conditions {@code own} pass, not those an outer level's filter drops later.
     */
    private static Optional<List<RowOrder.Answered>> rows(
            CatalogModel model,
            boolean attributes,
            List<CatalogCondition> own,
            List<CatalogCondition> all,
            CatalogCondition on,
            List<CatalogItems.Answer> answers,
            String database) {
        for (CatalogRow probe : SystemRelations.rows(model, attributes)) {
            if (holds(all, probe) != Truth.FALSE) {
                return Optional.empty();
            }
        }
        List<RowOrder.Answered> rows = new ArrayList<>();
        for (CatalogModel.Relation rel : model.relations()) {
            long ordinal = 0;
            for (CatalogModel.Attribute att : attributes ? rel.attributes() : NO_ATTRIBUTE) {
                CatalogRow row = CatalogRow.of(rel, att);
                if (on.test(row) != Truth.TRUE) {
                    return Optional.empty();
                }
                ordinal += holds(own, row) == Truth.TRUE ? 1 : 0;
                if (holds(all, row) == Truth.TRUE) {
                    CatalogItems.Row answered = new CatalogItems.Row(rel, att, database, ordinal);
                    rows.add(new RowOrder.Answered(row, values(answered, answers)));
                }
            }
        }
        return Optional.of(rows);
    }

    private static Truth holds(List<CatalogCondition> conditions, CatalogRow row) {
        Truth t = Truth.TRUE;
        for (CatalogCondition c : conditions) {
            t = t.and(c.test(row));
        }
        return t;
    }

    private static Object[] values(CatalogItems.Row r, List<CatalogItems.Answer> answers) {
        Object[] out = new Object[answers.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = answers.get(i).value().apply(r);
        }
        return out;
    }

    /** The rows in the order of each level's ORDER BY, innermost first; empty when an order is not read. */
    private static Optional<RowSet> ordered(
            List<QueryLevel> levels,
            List<RowOrder.Answered> rows,
            List<CatalogItems.Answer> answers,
            CatalogCondition.Resolver names,
            EmptyCatalogs nulls) {
        List<String> columns = answers.stream().map(a -> a.column().name()).toList();
        List<RowOrder.Answered> sorted = rows;
        for (int i = levels.size() - 1; i >= 0; i--) {
            QueryLevel level = levels.get(i);
            boolean innermost = i == levels.size() - 1;
            RowOrder.Keys keys = innermost ? (q, n) -> inputColumn(q, n, names, nulls) : (q, n) -> Optional.empty();
            List<RowOrder.Answered> current = sorted;
            Optional<List<RowOrder.Answered>> next =
                    RowOrder.of(level.order(), columns, level.alias(), keys).flatMap(o -> o.sort(current));
            if (next.isEmpty()) {
                return Optional.empty();
            }
            sorted = next.get();
        }
        List<Object[]> out = sorted.stream().map(RowOrder.Answered::values).toList();
        return Optional.of(
                new FixedRows(answers.stream().map(CatalogItems.Answer::column).toList(), out));
    }

    private static Optional<Function<CatalogRow, Object>> inputColumn(
            String qualifier, String name, CatalogCondition.Resolver names, EmptyCatalogs nulls) {
        Optional<CatalogColumn> c = names.resolve(qualifier, name);
        if (c.isPresent()) {
            return Optional.of(c.get()::value);
        }
        return qualifier != null && nulls.reads(qualifier) ? Optional.of(r -> null) : Optional.empty();
    }

    /** Whether the FROM clause has only catalogs and subqueries, joined by commas, [INNER|CROSS|LEFT] JOIN ... ON. */
    private static boolean onlyCatalogs(String from) {
        if (from.isBlank()) {
            return false;
        }
        String code = io.numacube.server.query.SqlLexer.codeOnly(from);
        if (UNREAD_RELATION_CLAUSE.matcher(code).find()) {
            return false;
        }
        Matcher other = OTHER_JOIN.matcher(code);
        while (other.find()) {
            if (JoinList.depth(code, other.start()) == 0) {
                return false;
            }
        }
        int items = 1;
        Matcher sep = SEPARATOR.matcher(code);
        while (sep.find()) {
            items += JoinList.depth(code, sep.start()) == 0 ? 1 : 0;
        }
        return items == JoinList.of(from).joins().size();
    }

    /** Whether a LEFT JOIN's ON condition names a key of a relation already resolved (then it matches every row). */
    private static boolean joinsAResolved(JoinList.Join j, Map<String, JoinList.Join> resolved) {
        for (String c : CatalogCondition.conjuncts(j.on())) {
            Matcher m = Pattern.compile("(?is)" + REF.pattern() + "\\s*=\\s*" + REF.pattern())
                    .matcher(c);
            if (!m.matches()) {
                continue;
            }
            Map<String, JoinList.Join> both = new HashMap<>(resolved);
            both.put(j.relation(), j);
            CatalogCondition.Resolver r = resolver(both);
            Optional<CatalogColumn> a = r.resolve(m.group(1), m.group(2));
            Optional<CatalogColumn> b = r.resolve(m.group(3), m.group(4));
            if (a.isPresent()
                    && b.isPresent()
                    && CatalogColumn.joinKey(a.get(), b.get())
                    && (a.get().relation.equals(j.relation())
                            != b.get().relation.equals(j.relation()))) {
                return true;
            }
        }
        return false;
    }

    /** Whether every resolved catalog is joined to the others by its key (else the rows would be a cross product). */
    private static boolean connected(Set<String> relations, CatalogCondition where, CatalogCondition on) {
        List<CatalogColumn[]> keys = new ArrayList<>(where.joinKeys());
        keys.addAll(on.joinKeys());
        boolean ok = true;
        if (relations.contains("pg_class") && relations.contains("pg_attribute")) {
            ok &= has(keys, CatalogColumn.ATTRELID, CatalogColumn.CLASS_OID);
        }
        if (relations.contains("pg_namespace")) {
            ok &= relations.contains("pg_class") && has(keys, CatalogColumn.RELNAMESPACE, CatalogColumn.NAMESPACE_OID);
        }
        if (relations.contains("pg_type")) {
            ok &= relations.contains("pg_attribute") && has(keys, CatalogColumn.ATTTYPID, CatalogColumn.TYPE_OID);
        }
        return ok;
    }

    private static boolean has(List<CatalogColumn[]> keys, CatalogColumn a, CatalogColumn b) {
        return keys.stream().anyMatch(k -> k[0] == a && k[1] == b || k[0] == b && k[1] == a);
    }

    /** Names of catalog columns: qualified by a resolved catalog's alias or name, or unqualified if one has it. */
    private static CatalogCondition.Resolver resolver(Map<String, JoinList.Join> resolved) {
        return (qualifier, name) -> {
            List<CatalogColumn> found = new ArrayList<>();
            for (JoinList.Join j : resolved.values()) {
                if (qualifier == null || j.namedBy(qualifier)) {
                    CatalogColumn.of(j.relation(), name).ifPresent(found::add);
                }
            }
            return found.size() == 1 ? Optional.of(found.getFirst()) : Optional.empty();
        };
    }

    /**
     * Names of a wrapped query's output columns, as a wrapping level reads them ({@code attname},
     * {@code alias.relname}): each must be a catalog column of the wrapped query.
     */
    private static CatalogCondition.Resolver outputs(
            String alias, SelectList wrapped, CatalogCondition.Resolver inner) {
        return (qualifier, name) -> {
            if (qualifier != null && !qualifier.equalsIgnoreCase(alias)) {
                return Optional.empty();
            }
            String n = name.toLowerCase(Locale.ROOT);
            List<SelectList.Item> items =
                    wrapped.items().stream().filter(i -> i.name().equals(n)).toList();
            if (items.size() != 1) {
                return Optional.empty();
            }
            Matcher m = REF.matcher(items.getFirst().expression().strip());
            return m.matches() ? inner.resolve(m.group(1), m.group(2)) : Optional.empty();
        };
    }
}
