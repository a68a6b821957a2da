package io.numacube.server.pgwire.catalog;

import io.numacube.server.pgwire.types.FixedRows;
import io.numacube.server.pgwire.types.PgColumn;
import io.numacube.server.pgwire.types.PgType;
import io.numacube.server.pgwire.types.RowSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * pgjdbc 42.7's {@code DatabaseMetaData.getPrimaryKeys} and {@code getIndexInfo}, each recognised by its whole text
 * (whitespace collapsed) with only its filters free (the schema and the table, by {@code =} on their parameters, which
 * the server has bound as literals; getIndexInfo's {@code unique}), and answered from the tables' keys: a keyed
 * table's primary key {@code TABLE_pkey} has a row per key column, in key order; as an index it is unique, of type 3
 * ({@code tableIndexOther}), its access method numacube's (so {@code ASC_OR_DESC} is NULL, as PostgreSQL gives it for
 * an index that is not a btree), its cardinality the table's rows and its pages 0. A table without a key has no row.
 * PostgreSQL's own catalogs have primary keys and indexes numacube does not model: a query that could ask for one (no
 * table named, or one named as one of PostgreSQL's relations, or schema {@code pg_catalog}, ...) is refused.
 * Stateless.
 */
final class JdbcKeys {

    private static final String NAME = "'((?:[^']++|'')*)'";
    private static final String FILTERS = "(?: AND n\\.nspname = " + NAME + ")?(?: AND ct\\.relname = " + NAME + ")?";

    private static final Pattern PRIMARY_KEYS = Pattern.compile(Pattern.quote("SELECT result.TABLE_CAT AS"
                    + " \"TABLE_CAT\", result.TABLE_SCHEM AS \"TABLE_SCHEM\", result.TABLE_NAME AS \"TABLE_NAME\","
                    + " result.COLUMN_NAME AS \"COLUMN_NAME\", result.KEY_SEQ AS \"KEY_SEQ\", result.PK_NAME AS"
                    + " \"PK_NAME\"FROM (SELECT current_database() AS TABLE_CAT, n.nspname AS TABLE_SCHEM, ct.relname"
                    + " AS TABLE_NAME, a.attname AS COLUMN_NAME, (information_schema._pg_expandarray(con.conkey)).n"
                    + " AS KEY_SEQ, con.conname AS PK_NAME, information_schema._pg_expandarray(con.conkey) AS KEYS,"
                    + " a.attnum AS A_ATTNUM FROM pg_catalog.pg_constraint con JOIN pg_catalog.pg_class ct ON"
                    + " (con.conrelid = ct.oid) JOIN pg_catalog.pg_namespace n ON (ct.relnamespace = n.oid) JOIN"
                    + " pg_catalog.pg_attribute a ON (a.attrelid = ct.oid) WHERE con.contype = 'p'")
            + FILTERS
            + " ?\\)"
            + Pattern.quote(" result where result.A_ATTNUM = (result.KEYS).x ORDER BY result.table_name,"
                    + " result.pk_name, result.key_seq")
            + "\\s*;?");

    private static final Pattern INDEX_INFO = Pattern.compile(Pattern.quote("SELECT tmp.TABLE_CAT AS \"TABLE_CAT\","
                    + " tmp.TABLE_SCHEM AS \"TABLE_SCHEM\", tmp.TABLE_NAME AS \"TABLE_NAME\", tmp.NON_UNIQUE AS"
                    + " \"NON_UNIQUE\", tmp.INDEX_QUALIFIER AS \"INDEX_QUALIFIER\", tmp.INDEX_NAME AS \"INDEX_NAME\","
                    + " tmp.TYPE AS \"TYPE\", tmp.ORDINAL_POSITION AS \"ORDINAL_POSITION\", trim(both '\"' from"
                    + " pg_catalog.pg_get_indexdef(tmp.CI_OID, tmp.ORDINAL_POSITION, false)) AS \"COLUMN_NAME\", CASE"
                    + " tmp.AM_NAME WHEN 'btree' THEN CASE tmp.I_INDOPTION[tmp.ORDINAL_POSITION - 1] & 1::smallint"
                    + " WHEN 1 THEN 'D' ELSE 'A' END ELSE NULL END AS \"ASC_OR_DESC\", tmp.CARDINALITY AS"
                    + " \"CARDINALITY\", tmp.PAGES AS \"PAGES\", tmp.FILTER_CONDITION AS \"FILTER_CONDITION\","
                    + " tmp.REMARKS AS \"REMARKS\"FROM (SELECT current_database() AS TABLE_CAT, n.nspname AS"
                    + " TABLE_SCHEM, ct.relname AS TABLE_NAME, NOT i.indisunique AS NON_UNIQUE, NULL AS"
                    + " INDEX_QUALIFIER, ci.relname AS INDEX_NAME, CASE i.indisclustered WHEN true THEN 1 ELSE CASE"
                    + " am.amname WHEN 'hash' THEN 2 ELSE 3 END END AS TYPE,"
                    + " (information_schema._pg_expandarray(i.indkey)).n AS ORDINAL_POSITION, ci.reltuples AS"
                    + " CARDINALITY, ci.relpages AS PAGES, pg_catalog.pg_get_expr(i.indpred, i.indrelid) AS"
                    + " FILTER_CONDITION, ci.oid AS CI_OID, i.indoption AS I_INDOPTION, am.amname AS AM_NAME,"
                    + " d.description AS REMARKS FROM pg_catalog.pg_class ct JOIN pg_catalog.pg_namespace n ON"
                    + " (ct.relnamespace = n.oid) JOIN pg_catalog.pg_index i ON (ct.oid = i.indrelid) JOIN"
                    + " pg_catalog.pg_class ci ON (ci.oid = i.indexrelid) JOIN pg_catalog.pg_am am ON (ci.relam ="
                    + " am.oid) LEFT JOIN pg_catalog.pg_description d ON (ci.oid = d.objoid) WHERE true")
            + FILTERS
            + "(?: AND i\\.indisunique)?"
            + " ?\\)"
            + Pattern.quote(" AS tmp ORDER BY \"NON_UNIQUE\", \"TYPE\", \"INDEX_NAME\", \"ORDINAL_POSITION\"")
            + "\\s*;?");

    private static final List<PgColumn> KEY_COLUMNS = List.of(
            PgColumn.of("TABLE_CAT", PgType.NAME),
            PgColumn.of("TABLE_SCHEM", PgType.NAME),
            PgColumn.of("TABLE_NAME", PgType.NAME),
            PgColumn.of("COLUMN_NAME", PgType.NAME),
            PgColumn.of("KEY_SEQ", PgType.INT4),
            PgColumn.of("PK_NAME", PgType.NAME));

    private static final List<PgColumn> INDEX_COLUMNS = List.of(
            PgColumn.of("TABLE_CAT", PgType.NAME),
            PgColumn.of("TABLE_SCHEM", PgType.NAME),
            PgColumn.of("TABLE_NAME", PgType.NAME),
            PgColumn.of("NON_UNIQUE", PgType.BOOL),
            PgColumn.of("INDEX_QUALIFIER", PgType.TEXT),
            PgColumn.of("INDEX_NAME", PgType.NAME),
            PgColumn.of("TYPE", PgType.INT4),
            PgColumn.of("ORDINAL_POSITION", PgType.INT4),
            PgColumn.of("COLUMN_NAME", PgType.TEXT),
            PgColumn.of("ASC_OR_DESC", PgType.TEXT),
            PgColumn.of("CARDINALITY", PgType.FLOAT4),
            PgColumn.of("PAGES", PgType.INT4),
            PgColumn.of("FILTER_CONDITION", PgType.TEXT),
            PgColumn.of("REMARKS", PgType.TEXT));

    private JdbcKeys() {}

    /**
     * The answer to {@code sql} (normalized) if it is one of these queries: its rows, or empty inside when it may ask
     * for a key of PostgreSQL's own catalogs. Empty outside when it is not one of them.
     */
    static Optional<Optional<RowSet>> answer(String sql, CatalogModel model, String database) {
        Matcher pk = PRIMARY_KEYS.matcher(sql.strip());
        if (pk.matches()) {
            return Optional.of(
                    tables(unquote(pk.group(1)), unquote(pk.group(2)), model).map(ts -> primaryKeys(ts, database)));
        }
        Matcher index = INDEX_INFO.matcher(sql.strip());
        if (index.matches()) {
            return Optional.of(tables(unquote(index.group(1)), unquote(index.group(2)), model)
                    .map(ts -> indexes(ts, database)));
        }
        return Optional.empty();
    }

    /**
     * The keyed tables of schema {@code schema} named {@code table} (either null: any), in name order; empty when
     * one of PostgreSQL's own relations could be among them.
     */
    private static Optional<List<CatalogModel.Relation>> tables(String schema, String table, CatalogModel model) {
        boolean system =
                schema == null ? table == null || SystemRelations.isName(table) : SystemRelations.isNamespace(schema);
        if (system) {
            return Optional.empty();
        }
        return Optional.of(model.relations().stream()
                .filter(r -> !r.key().isEmpty())
                .filter(r -> schema == null || schema.equals("public"))
                .filter(r -> table == null || r.name().equals(table))
                .sorted(Comparator.comparing(CatalogModel.Relation::name))
                .toList());
    }

    private static RowSet primaryKeys(List<CatalogModel.Relation> tables, String database) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogModel.Relation r : tables) {
            for (int i = 0; i < r.key().size(); i++) {
                rows.add(new Object[] {database, "public", r.name(), r.key().get(i), (long) i + 1, r.name() + "_pkey"});
            }
        }
        return new FixedRows(KEY_COLUMNS, rows);
    }

    private static RowSet indexes(List<CatalogModel.Relation> tables, String database) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogModel.Relation r : tables) {
            for (int i = 0; i < r.key().size(); i++) {
                rows.add(new Object[] {
                    database,
                    "public",
                    r.name(),
                    false,
                    null,
                    r.name() + "_pkey",
                    3L,
                    (long) i + 1,
                    r.key().get(i),
                    null,
                    (double) r.rows(),
                    0L,
                    null,
                    null
                });
            }
        }
        return new FixedRows(INDEX_COLUMNS, rows);
    }

    private static String unquote(String literal) {
        return literal == null ? null : literal.replace("''", "'");
    }
}
