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
 * The queries of a table's primary key that clients send, each recognised by its whole text with only the constraint
 * kind and the table OIDs free, and answered from the tables' keys; numacube has no constraint or index of another
 * kind, so those have no row. SQLAlchemy 2.1's for its primary key or unique constraints ({@code get_pk_constraint},
 * {@code get_unique_constraints}: {@code PGDialect._constraint_query}, as its psycopg and psycopg2 dialects render it):
 * a keyed table's primary key is a row {@code (conrelid, cols, TABLE_pkey, NULL, key size, false)}. psql 15's for the
 * indexes {@code \d} lists (it asks when {@code relhasindex}, true for a keyed table): the key's, primary and unique,
 * defined {@code USING numacube} (numacube's own way to find a key's row, not one of PostgreSQL's index methods).
 * Stateless.
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

    /** psql 15's query of the indexes of table {@code {oid}}, whitespace collapsed. */
    private static final String PSQL_INDEXES = "SELECT c2.relname, i.indisprimary, i.indisunique,"
            + " i.indisclustered, i.indisvalid, pg_catalog.pg_get_indexdef(i.indexrelid, 0, true),"
            + " pg_catalog.pg_get_constraintdef(con.oid, true), contype, condeferrable, condeferred,"
            + " i.indisreplident, c2.reltablespace FROM pg_catalog.pg_class c, pg_catalog.pg_class c2,"
            + " pg_catalog.pg_index i LEFT JOIN pg_catalog.pg_constraint con ON (conrelid = i.indrelid AND conindid ="
            + " i.indexrelid AND contype IN ('p','u','x')) WHERE c.oid = {oid} AND c.oid = i.indrelid AND"
            + " i.indexrelid = c2.oid ORDER BY i.indisprimary DESC, c2.relname";

    private static final Pattern PSQL_QUERY = compile(PSQL_INDEXES);

    private static final List<PgColumn> PSQL_COLUMNS = List.of(
            PgColumn.of("relname", PgType.NAME),
            PgColumn.of("indisprimary", PgType.BOOL),
            PgColumn.of("indisunique", PgType.BOOL),
            PgColumn.of("indisclustered", PgType.BOOL),
            PgColumn.of("indisvalid", PgType.BOOL),
            PgColumn.of("pg_get_indexdef", PgType.TEXT),
            PgColumn.of("pg_get_constraintdef", PgType.TEXT),
            PgColumn.of("contype", PgType.CHAR),
            PgColumn.of("condeferrable", PgType.BOOL),
            PgColumn.of("condeferred", PgType.BOOL),
            PgColumn.of("indisreplident", PgType.BOOL),
            PgColumn.of("reltablespace", PgType.OID));

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
            } else if (slot.equals("oid")) {
                re.append("'?(\\d+)'?");
            } else if (slot.equals("oids")) {
                re.append(oids ? "\\s*[\\d\\s,]+" : "\\s*(\\d+(?:\\s*,\\s*\\d+)*)\\s*");
                oids = true;
            } else {
                re.append("(?:").append(Pattern.quote(slot)).append(")?");
            }
            at = m.end();
        }
        return Pattern.compile(re.append(Pattern.quote(template.substring(at)))
                .append("\\s*;?")
                .toString());
    }

    /** The answer to {@code sql} (whitespace collapsed), or empty when it is not one of these queries. */
    static Optional<RowSet> answer(String sql, CatalogModel model) {
        Matcher m = QUERY.matcher(sql.strip());
        if (!m.matches()) {
            Matcher psql = PSQL_QUERY.matcher(sql.strip());
            return psql.matches() ? Optional.of(psqlIndexes(Long.parseLong(psql.group(1)), model)) : Optional.empty();
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

    private static RowSet psqlIndexes(long oid, CatalogModel model) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogModel.Relation r : model.relations()) {
            if (r.oid() == oid && !r.key().isEmpty()) {
                String name = r.name() + "_pkey";
                String columns = String.join(
                        ", ", r.key().stream().map(KeyConstraints::quoteIdent).toList());
                String index = "CREATE UNIQUE INDEX " + quoteIdent(name) + " ON public." + quoteIdent(r.name())
                        + " USING numacube (" + columns + ")";
                rows.add(new Object[] {
                    name, true, true, false, true, index, "PRIMARY KEY (" + columns + ")", "p", false, false, false, 0L
                });
            }
        }
        return new FixedRows(PSQL_COLUMNS, rows);
    }

    /** PostgreSQL's {@code quote_ident}: a name of lower-case letters, digits and underscores as it is, else quoted. */
    static String quoteIdent(String name) {
        return name.matches("[a-z_][a-z0-9_]*") ? name : '"' + name.replace("\"", "\"\"") + '"';
    }
}
