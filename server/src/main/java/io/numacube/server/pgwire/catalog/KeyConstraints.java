package io.numacube.server.pgwire.catalog;

import io.numacube.server.pgwire.types.FixedRows;
import io.numacube.server.pgwire.types.PgColumn;
import io.numacube.server.pgwire.types.PgType;
import io.numacube.server.pgwire.types.RowSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * SQLAlchemy 2.1's query for a table's primary key or unique constraints ({@code get_pk_constraint},
 * {@code get_unique_constraints}: {@code PGDialect._constraint_query}, as its psycopg and psycopg2 dialects render
 * it), recognised by its whole text with only the constraint kind and the table OIDs free, and answered from the
 * tables' keys: a keyed table's primary key is a row {@code (conrelid, cols, TABLE_pkey, NULL, key size, false)};
 * numacube has no constraint of another kind, so those have no row. Stateless.
 */
final class KeyConstraints {

    /**
     * The query as SQLAlchemy 2.1.9 sends it over psycopg, whitespace collapsed; {@code {contype}} a literal,
     * {@code {oids}} a list of OIDs, and the casts psycopg2's rendering leaves out optional.
     */
    private static final String TEMPLATE = "SELECT attr.conrelid, array_agg(CAST(attr.attname AS TEXT) ORDER BY"
            + " attr.ord) AS cols, attr.conname, min(attr.description) AS description, min(attr.indnkeyatts) AS"
            + " indnkeyatts, bool_and(attr.indnullsnotdistinct) AS indnullsnotdistinct FROM (SELECT con.conrelid AS"
            + " conrelid, con.conname AS conname, con.description AS description, con.ord AS ord, con.indnkeyatts AS"
            + " indnkeyatts, con.indnullsnotdistinct AS indnullsnotdistinct, pg_catalog.pg_attribute.attname AS"
            + " attname FROM pg_catalog.pg_attribute JOIN (SELECT pg_catalog.pg_constraint.conrelid AS conrelid,"
            + " pg_catalog.pg_constraint.conname AS conname, unnest(pg_catalog.pg_index.indkey) AS attnum,"
            + " generate_subscripts(pg_catalog.pg_index.indkey, 1{::INTEGER}) AS ord, pg_catalog.pg_index.indnkeyatts"
            + " AS indnkeyatts, pg_catalog.pg_index.indnullsnotdistinct AS indnullsnotdistinct,"
            + " pg_catalog.pg_description.description AS description FROM pg_catalog.pg_constraint JOIN"
            + " pg_catalog.pg_index ON pg_catalog.pg_constraint.conindid = pg_catalog.pg_index.indexrelid LEFT OUTER"
            + " JOIN pg_catalog.pg_description ON pg_catalog.pg_description.objoid = pg_catalog.pg_constraint.oid AND"
            + " pg_catalog.pg_description.classoid = CAST('pg_catalog.pg_constraint' AS REGCLASS) WHERE"
            + " pg_catalog.pg_constraint.contype = {contype}{::VARCHAR} AND pg_catalog.pg_constraint.conrelid IN"
            + " ({oids})) AS con ON pg_catalog.pg_attribute.attnum = con.attnum AND pg_catalog.pg_attribute.attrelid ="
            + " con.conrelid WHERE con.conrelid IN ({oids})) AS attr GROUP BY attr.conrelid, attr.conname ORDER BY"
            + " attr.conrelid, attr.conname";

    private static final Pattern QUERY = compile(TEMPLATE);

    private static final List<PgColumn> COLUMNS = List.of(
            PgColumn.of("conrelid", PgType.OID),
            PgColumn.of("cols", PgType.TEXT_ARRAY),
            PgColumn.of("conname", PgType.NAME),
            PgColumn.of("description", PgType.TEXT),
            PgColumn.of("indnkeyatts", PgType.INT2),
            PgColumn.of("indnullsnotdistinct", PgType.BOOL));

    private KeyConstraints() {}

    private static Pattern compile(String template) {
        StringBuilder re = new StringBuilder("(?i)");
        Matcher m = Pattern.compile("\\{([^}]*)}").matcher(template);
        int at = 0;
        boolean oids = false;
        while (m.find()) {
            re.append(Pattern.quote(template.substring(at, m.start())));
            String slot = m.group(1);
            if (slot.equals("contype")) {
                re.append("'(\\w)'");
            } else if (slot.equals("oids")) {
                re.append(oids ? "\\s*[\\d\\s,]+" : "\\s*(\\d+(?:\\s*,\\s*\\d+)*)\\s*");
                oids = true;
            } else {
                re.append("(?:").append(Pattern.quote(slot)).append(")?");
            }
            at = m.end();
        }
        return Pattern.compile(re.append(Pattern.quote(template.substring(at))).toString());
    }

    /** The answer to {@code sql} (whitespace collapsed), or empty when it is not this query. */
    static Optional<RowSet> answer(String sql, CatalogModel model) {
        Matcher m = QUERY.matcher(sql.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        boolean primary = m.group(1).equals("p");
        Set<Long> oids = Arrays.stream(m.group(2).split(","))
                .map(s -> Long.parseLong(s.strip()))
                .collect(Collectors.toSet());
        List<Object[]> rows = new ArrayList<>();
        for (CatalogModel.Relation r : model.relations()) {
            if (primary && oids.contains(r.oid()) && !r.key().isEmpty()) {
                rows.add(new Object[] {
                    r.oid(), r.key(), r.name() + "_pkey", null, (long) r.key().size(), false
                });
            }
        }
        return Optional.of(new FixedRows(COLUMNS, rows));
    }
}
