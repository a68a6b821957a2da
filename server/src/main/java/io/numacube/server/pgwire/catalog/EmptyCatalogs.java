package io.numacube.server.pgwire.catalog;

import io.numacube.server.pgwire.types.PgColumn;
import io.numacube.server.pgwire.types.PgType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which catalogs a query reads have no rows for numacube's tables. Descriptions, defaults, triggers, policies,
 * inheritance, ... never have any; {@code pg_constraint} and {@code pg_index} have none while no table has a key
 * ({@code --key}), or when the query asks only for other kinds ({@code contype = 'f'}, {@code NOT indisprimary}): a
 * table's key is its primary key, its one constraint and index. A LEFT JOIN of such a catalog, or of a catalog joined
 * on one of its columns ({@code cls_ref ON cls_ref.oid = pg_constraint.confrelid}), extends every row with NULLs, so
 * the select items that read it are NULL; so does a LEFT JOIN of a subquery that joins such a catalog, and of
 * {@code pg_tablespace} on a table's {@code reltablespace} (0). A table's access method ({@code pg_am}, LEFT joined on
 * its {@code relam}) is numacube's; {@code pg_am}'s own rows, PostgreSQL's, are not modelled ({@link BuiltinCatalogs}).
 * Immutable.
 *
 * @param nullExtended the LEFT JOINed relations that extend rows with NULLs
 */
record EmptyCatalogs(List<JoinList.Join> nullExtended) {

    static final Set<String> FEATURELESS = Set.of(
            "pg_policy",
            "pg_inherits",
            "pg_publication",
            "pg_publication_rel",
            "pg_publication_namespace",
            "pg_statistic_ext",
            "pg_trigger",
            "pg_constraint",
            "pg_index",
            "pg_rewrite",
            "pg_foreign_table",
            "pg_partitioned_table",
            "pg_sequence",
            "pg_attrdef",
            "pg_description",
            "pg_depend",
            "pg_event_trigger",
            "pg_subscription",
            "pg_largeobject_metadata",
            "pg_extension",
            "pg_am");

    private static final String CAST = "(?:\\s*::\\s*(?:varchar|text|name|char|\"char\"))?";
    private static final Pattern CONTYPE = Pattern.compile("(?i)(?:[\\w.]+\\.)?contype\\s*=\\s*'(\\w)'" + CAST);
    /** A table's {@code reltablespace} is 0 (the database's default), which no {@code pg_tablespace} row has. */
    private static final Pattern TABLESPACE = Pattern.compile("(?i)\\breltablespace\\b");

    private static final Pattern NOT_PRIMARY = Pattern.compile("(?i)NOT\\s+(?:[\\w.]+\\.)?indisprimary");
    private static final Pattern QUALIFIED = Pattern.compile("(?is)([A-Za-z_][\\w]*(?:\\.[A-Za-z_][\\w]*)?)\\.(\\w+)");
    /** {@code CASE WHEN (x.col IS NOT NULL [AND ...]) THEN ... [ELSE NULL] END}: NULL when x is. */
    private static final Pattern NOT_NULL_CASE = Pattern.compile(
            "(?is)CASE\\s+WHEN\\s+\\(?\\s*([A-Za-z_][\\w]*(?:\\.[A-Za-z_][\\w]*)?)\\.\\w+\\s+IS\\s+NOT\\s+NULL\\b"
                    + "(?:\\s+AND\\s+.*?)?\\)?\\s+THEN\\s+(?:(?!\\bELSE\\b).)*?(?:\\s+ELSE\\s+NULL)?\\s+END");

    /**
     * Whether {@code relation} has no rows that meet all of {@code conjuncts} (its ON condition's, or those of the
     * query's WHERE and inner joins for a catalog joined by a comma or an inner join): a conjunct that narrows it to
     * rows numacube has none of must be one of them whole, not part of an OR.
     *
     * @param keyed whether any of numacube's tables has a key
     */
    static boolean hasNoRows(String relation, List<String> conjuncts, boolean keyed) {
        if (!FEATURELESS.contains(relation)) {
            return false;
        }
        return switch (relation) {
            case "pg_am" -> false;
            case "pg_constraint" -> !keyed || conjuncts.stream().anyMatch(EmptyCatalogs::otherThanPrimary);
            case "pg_index" ->
                !keyed
                        || conjuncts.stream()
                                .anyMatch(c -> NOT_PRIMARY.matcher(c).matches());
            default -> true;
        };
    }

    private static boolean otherThanPrimary(String condition) {
        Matcher m = CONTYPE.matcher(condition);
        return m.matches() && !m.group(1).equals("p");
    }

    /**
     * The LEFT JOINs of {@code joins} that extend rows with NULLs, or empty when one LEFT JOINs a catalog with rows
     * numacube does not model ({@code pg_constraint} for a primary key).
     */
    static Optional<EmptyCatalogs> of(JoinList joins, boolean keyed, Predicate<String> emptySubquery) {
        List<JoinList.Join> nulls = new ArrayList<>();
        for (JoinList.Join j : joins.joins()) {
            if (!j.left() || j.relation().equals("pg_am")) {
                continue;
            }
            boolean none = j.subquery() != null
                    ? emptySubquery.test(j.subquery())
                    : hasNoRows(j.relation(), CatalogCondition.conjuncts(j.on()), keyed)
                            || j.relation().equals("pg_tablespace")
                                    && TABLESPACE.matcher(j.on()).find();
            if (none || readsAny(j.on(), nulls)) {
                nulls.add(j);
            } else if (FEATURELESS.contains(j.relation())) {
                return Optional.empty();
            }
        }
        return Optional.of(new EmptyCatalogs(nulls));
    }

    private static boolean readsAny(String condition, List<JoinList.Join> nulls) {
        Matcher m = QUALIFIED.matcher(condition);
        while (m.find()) {
            String q = m.group(1);
            if (nulls.stream().anyMatch(j -> j.namedBy(q))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A NULL answer for an item that is a column of a NULL-extended relation, or a {@code CASE WHEN x.col IS NOT NULL
     * THEN ... END} over one; else empty. Its type is {@code name} for a column named {@code *name}, else
     * {@code text}.
     */
    Optional<CatalogItems.Answer> answer(SelectList.Item item) {
        String e = item.expression().strip();
        Matcher column = QUALIFIED.matcher(e);
        if (column.matches() && reads(column.group(1))) {
            PgType type =
                    column.group(2).toLowerCase(java.util.Locale.ROOT).endsWith("name") ? PgType.NAME : PgType.TEXT;
            return Optional.of(new CatalogItems.Answer(PgColumn.of(item.name(), type), r -> null));
        }
        Matcher guarded = NOT_NULL_CASE.matcher(e);
        if (guarded.matches() && reads(guarded.group(1))) {
            return Optional.of(new CatalogItems.Answer(PgColumn.of(item.name(), PgType.TEXT), r -> null));
        }
        return Optional.empty();
    }

    /** Whether {@code j} is one of the LEFT JOINs that extend rows with NULLs. */
    boolean extendsWithNulls(JoinList.Join j) {
        return nullExtended.contains(j);
    }

    /** Whether {@code qualifier} names a relation that extends rows with NULLs. */
    boolean reads(String qualifier) {
        return nullExtended.stream().anyMatch(j -> j.namedBy(qualifier));
    }
}
