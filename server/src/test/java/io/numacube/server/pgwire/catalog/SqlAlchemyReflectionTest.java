package io.numacube.server.pgwire.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.Cube;
import io.numacube.server.TestCube;
import io.numacube.server.pgwire.types.PgType;
import io.numacube.server.pgwire.types.RowSet;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The catalog queries SQLAlchemy 2.1.9 sends to reflect a table over psycopg 3.2 and psycopg2 2.9, as captured from
 * {@code serve --log-statements} ({@code sqlalchemy-queries.txt}, for table {@code trades}, OID 16387 there), asked of
 * {@link TestCube}'s {@code kinds}, whose declared schema the expected answers are written from here, and of a keyed
 * table; and psql 15's {@code \\d} of a keyed table, whose key is its primary key's index.
 */
class SqlAlchemyReflectionTest {

    private static final Map<String, String> QUERIES = queries();

    /** kinds as TestCube declares it, each column with the type PostgreSQL's format_type prints for it. */
    private static final List<List<String>> KINDS = List.of(
            List.of("id", "bigint"),
            List.of("name", "text"),
            List.of("price", "numeric(15,2)"),
            List.of("ts", "timestamp without time zone"),
            List.of("d", "date"),
            List.of("flag", "boolean"),
            List.of("x", "double precision"));

    private final PgCatalog catalog = new PgCatalog(TestCube.shared());

    private static Map<String, String> queries() {
        try (InputStream in = SqlAlchemyReflectionTest.class.getResourceAsStream("sqlalchemy-queries.txt")) {
            Map<String, String> out = new LinkedHashMap<>();
            for (String block : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("(?m)^=== ")) {
                if (!block.isBlank()) {
                    out.put(block.substring(0, block.indexOf('\n')), block.substring(block.indexOf('\n') + 1));
                }
            }
            return out;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The captured query of {@code driver} for {@code what}, asked of {@code table} (OID {@code oid}). */
    private static String query(String driver, String what, String table, long oid) {
        String q = QUERIES.get("SQLAlchemy 2.1.9 " + driver + ": " + what);
        assertTrue(q != null, "no captured query " + driver + ": " + what);
        return q.replace("'trades'", "'" + table + "'").replace("(16387)", "(" + oid + ")");
    }

    private static long oid(Cube cube, String table) {
        return CatalogModel.FIRST_TABLE_OID + cube.tables().indexOf(table);
    }

    private static RowSet answered(PgCatalog c, String sql) {
        return c.answer(sql, "numacube").orElseThrow(() -> new AssertionError("not answered: " + sql));
    }

    private static List<List<Object>> rows(RowSet r) {
        List<List<Object>> out = new ArrayList<>();
        for (int i = 0; i < r.rowCount(); i++) {
            List<Object> row = new ArrayList<>();
            for (int c = 0; c < r.columns().size(); c++) {
                row.add(r.value(i, c));
            }
            out.add(row);
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"psycopg", "psycopg2"})
    void getColumnsGetsEachColumnsNameTypeAndNullabilityInOrder(String driver) {
        RowSet r = answered(catalog, query(driver, "get_columns", "kinds", oid(TestCube.shared(), "kinds")));
        List<String> names = r.columns().stream().map(c -> c.name()).toList();
        assertEquals(
                List.of(
                        "name",
                        "format_type",
                        "default",
                        "not_null",
                        "table_name",
                        "comment",
                        "generated",
                        "identity_options",
                        "collation"),
                names);
        List<List<Object>> want = new ArrayList<>();
        for (List<String> c : KINDS) {
            want.add(java.util.Arrays.asList(c.get(0), c.get(1), null, false, "kinds", null, "", null, null));
        }
        assertEquals(want, rows(r));
    }

    @ParameterizedTest
    @ValueSource(strings = {"psycopg", "psycopg2"})
    void aTableWithoutAKeyHasNoPrimaryKeyNorOtherConstraintsIndexesOrComments(String driver) {
        long oid = oid(TestCube.shared(), "kinds");
        assertEquals(
                List.of(List.of(oid, "kinds")), rows(answered(catalog, query(driver, "table oids", "kinds", oid))));
        assertEquals(
                0,
                answered(catalog, query(driver, "get_pk_constraint", "kinds", oid))
                        .rowCount());
        assertEquals(
                0,
                answered(catalog, query(driver, "get_unique_constraints", "kinds", oid))
                        .rowCount());
        assertEquals(
                0, answered(catalog, query(driver, "get_indexes", "kinds", oid)).rowCount());
        assertEquals(
                List.of(List.of(403L, "btree")),
                rows(answered(catalog, query(driver, "btree access method", "kinds", oid))),
                "PostgreSQL 15's btree");
        for (String what : List.of("get_foreign_keys", "get_check_constraints", "get_table_comment")) {
            List<List<Object>> rows = rows(answered(catalog, query(driver, what, "kinds", oid)));
            assertEquals(1, rows.size(), what);
            assertEquals("kinds", rows.getFirst().getFirst(), what);
            assertTrue(rows.getFirst().stream().skip(1).allMatch(v -> v == null), what + ": " + rows);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"psycopg", "psycopg2"})
    void tableNamesAreTablesAndNoneIsAView(String driver) {
        long oid = oid(TestCube.shared(), "kinds");
        List<List<Object>> tables = rows(answered(catalog, query(driver, "get_table_names", "kinds", oid)));
        assertEquals(
                TestCube.shared().tables().stream().map(t -> List.<Object>of(t)).toList(), tables);
        assertEquals(
                0,
                answered(catalog, query(driver, "get_view_names", "kinds", oid)).rowCount());
        assertEquals(
                0,
                answered(catalog, query(driver, "get_materialized_view_names", "kinds", oid))
                        .rowCount());
        assertEquals(
                0,
                answered(catalog, query(driver, "has_table of a query", "kinds", oid))
                        .rowCount());
    }

    @ParameterizedTest
    @ValueSource(strings = {"psycopg", "psycopg2"})
    void tableOptionsNameNumacubesAccessMethodAndNothingElse(String driver) {
        long oid = oid(TestCube.shared(), "kinds");
        List<List<Object>> rows = rows(answered(catalog, query(driver, "table options", "kinds", oid)));
        assertEquals(List.of(java.util.Arrays.asList(oid, "kinds", null, null, "numacube", null, null)), rows);
    }

    @ParameterizedTest
    @ValueSource(strings = {"psycopg", "psycopg2"})
    void aKeyIsThePrimaryKeyAndNoIndexSQLAlchemyListsBesideIt(String driver) {
        try (Cube cube = TestCube.tenDesks()) {
            PgCatalog keyed = new PgCatalog(cube);
            long oid = oid(cube, "t");
            assertEquals(
                    0,
                    answered(keyed, query(driver, "get_pk_constraint", "t", oid))
                            .rowCount());
            cube.setKey("t", List.of("ID"));
            RowSet pk = answered(keyed, query(driver, "get_pk_constraint", "t", oid));
            assertEquals(PgType.TEXT_ARRAY, pk.columns().get(1).type());
            assertEquals(List.of(java.util.Arrays.asList(oid, List.of("id"), "t_pkey", null, 1L, false)), rows(pk));
            assertEquals(
                    0,
                    answered(keyed, query(driver, "get_pk_constraint", "t", oid + 1))
                            .rowCount());
            assertEquals(
                    0,
                    answered(keyed, query(driver, "get_unique_constraints", "t", oid))
                            .rowCount());
            assertEquals(
                    0, answered(keyed, query(driver, "get_indexes", "t", oid)).rowCount());
            List<List<Object>> fks = rows(answered(keyed, query(driver, "get_foreign_keys", "t", oid)));
            assertNull(fks.getFirst().get(1), "a primary key is not a foreign key");
        }
    }

    /** Asked of a keyed table, a catalog query of constraints or indexes it does not recognise is refused, not empty. */
    @Test
    void constraintsAndIndexesOfAKeyedTableAreNotAnsweredEmptyByAQueryNotModelled() {
        try (Cube cube = TestCube.tenDesks()) {
            PgCatalog keyed = new PgCatalog(cube);
            String constraints = "SELECT r.conname FROM pg_catalog.pg_constraint r WHERE r.conrelid = '16385'";
            String indexes = "SELECT c2.relname FROM pg_catalog.pg_class c, pg_catalog.pg_class c2,"
                    + " pg_catalog.pg_index i WHERE c.oid = '16385' AND c.oid = i.indrelid AND i.indexrelid = c2.oid";
            assertEquals(0, answered(keyed, constraints).rowCount());
            assertEquals(0, answered(keyed, indexes).rowCount());
            cube.setKey("t", List.of("id"));
            assertFalse(keyed.answer(constraints, "db").isPresent());
            assertFalse(keyed.answer(indexes, "db").isPresent());
            assertEquals(
                    0, answered(keyed, constraints + " AND r.contype = 'f'").rowCount(), "foreign keys: none");
        }
    }

    /** psql 15's {@code \\d t}: its table query, then (as relhasindex is true) its query of indexes, as captured. */
    @Test
    void psqlDescribesAKeyedTablesKeyAsItsPrimaryKeyIndex() {
        String table = "SELECT c.relchecks, c.relkind, c.relhasindex, c.relhasrules, c.relhastriggers,"
                + " c.relrowsecurity, c.relforcerowsecurity, false AS relhasoids, c.relispartition, '',"
                + " c.reltablespace, CASE WHEN c.reloftype = 0 THEN '' ELSE"
                + " c.reloftype::pg_catalog.regtype::pg_catalog.text END, c.relpersistence, c.relreplident,"
                + " am.amname\nFROM pg_catalog.pg_class c\n LEFT JOIN pg_catalog.pg_class tc ON (c.reltoastrelid ="
                + " tc.oid)\nLEFT JOIN pg_catalog.pg_am am ON (c.relam = am.oid)\nWHERE c.oid = '%d'";
        String indexes = "SELECT c2.relname, i.indisprimary, i.indisunique, i.indisclustered, i.indisvalid,"
                + " pg_catalog.pg_get_indexdef(i.indexrelid, 0, true),\n  pg_catalog.pg_get_constraintdef(con.oid,"
                + " true), contype, condeferrable, condeferred, i.indisreplident, c2.reltablespace\nFROM"
                + " pg_catalog.pg_class c, pg_catalog.pg_class c2, pg_catalog.pg_index i\n  LEFT JOIN"
                + " pg_catalog.pg_constraint con ON (conrelid = i.indrelid AND conindid = i.indexrelid AND contype IN"
                + " ('p','u','x'))\nWHERE c.oid = '%d' AND c.oid = i.indrelid AND i.indexrelid = c2.oid\nORDER BY"
                + " i.indisprimary DESC, c2.relname;";
        try (Cube cube = TestCube.tenDesks()) {
            PgCatalog keyed = new PgCatalog(cube);
            long oid = oid(cube, "t");
            assertEquals(
                    false,
                    rows(answered(keyed, table.formatted(oid))).getFirst().get(2),
                    "relhasindex");
            cube.setKey("t", List.of("id"));
            assertEquals(
                    true, rows(answered(keyed, table.formatted(oid))).getFirst().get(2), "relhasindex");
            assertEquals(
                    List.of(List.of(
                            "t_pkey",
                            true,
                            true,
                            false,
                            true,
                            "CREATE UNIQUE INDEX t_pkey ON public.t USING numacube (id)",
                            "PRIMARY KEY (id)",
                            "p",
                            false,
                            false,
                            false,
                            0L)),
                    rows(answered(keyed, indexes.formatted(oid))));
            assertEquals(0, answered(keyed, indexes.formatted(oid + 1)).rowCount());
        }
    }

    /**
     * SQLAlchemy's lookup of operator classes that are not their type's default gets PostgreSQL 15's 58 (psql -At over
     * a new database: 10009|cidr_ops first, 4219|bpchar_pattern_ops among them), not none.
     */
    @Test
    void nonDefaultOperatorClassesArePostgresqlsOwn() {
        List<List<Object>> rows = rows(answered(catalog, QUERIES.get("SQLAlchemy 2.1.9 psycopg: operator classes")));
        assertEquals(58, rows.size());
        assertEquals(List.of(10009L, "cidr_ops"), rows.getFirst());
        assertTrue(rows.contains(List.of(4219L, "bpchar_pattern_ops")), rows::toString);
        assertFalse(catalog.answer("SELECT opcname FROM pg_catalog.pg_opclass WHERE opcdefault", "db")
                .isPresent());
        assertFalse(catalog.answer("SELECT collname FROM pg_catalog.pg_collation", "db")
                .isPresent());
    }

    @Test
    void quotesAKeyColumnAsQuoteIdentDoes() {
        assertEquals("trade_id", KeyConstraints.quoteIdent("trade_id"));
        assertEquals("\"Trade\"\"Id\"", KeyConstraints.quoteIdent("Trade\"Id"));
        assertEquals("\"2x\"", KeyConstraints.quoteIdent("2x"));
    }
}
