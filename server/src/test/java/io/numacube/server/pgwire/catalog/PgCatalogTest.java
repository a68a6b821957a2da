package io.numacube.server.pgwire.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.server.TestCube;
import io.numacube.server.pgwire.types.RowSet;
import io.numacube.server.pgwire.types.TextFormat;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The catalog queries psql 15 and pgjdbc 42.7.14 really send, as captured from them with {@code serve
 * --log-statements} ({@code client-queries.txt}: each query, then the rows it must get, as {@code psql -A} prints
 * them, NULL as {@code NULL}), answered over {@link TestCube}.
 */
class PgCatalogTest {

    private final PgCatalog catalog = new PgCatalog(TestCube.shared());

    @TestFactory
    Stream<DynamicTest> everyCapturedClientQueryGetsItsRows() throws IOException {
        String text;
        try (InputStream in = PgCatalogTest.class.getResourceAsStream("client-queries.txt")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (String block : text.split("(?m)^=== ")) {
            if (block.isBlank()) {
                continue;
            }
            String label = block.substring(0, block.indexOf('\n'));
            String[] parts = block.substring(block.indexOf('\n') + 1).split("(?m)^--- expect\n", 2);
            tests.add(DynamicTest.dynamicTest(label, () -> {
                Optional<RowSet> rows = catalog.answer(parts[0], "numacube");
                assertTrue(rows.isPresent(), "not answered: " + parts[0]);
                assertEquals(parts[1].strip(), render(rows.get()).strip(), parts[0]);
            }));
        }
        assertEquals(22, tests.size());
        return tests.stream();
    }

    @Test
    void aCatalogQueryOfAnotherShapeIsNotAnswered() {
        assertFalse(catalog.answer("SELECT c.relname, c.relpages FROM pg_catalog.pg_class c", "db")
                .isPresent());
        assertFalse(catalog.answer("SELECT typname, typinput FROM pg_catalog.pg_type", "db")
                .isPresent());
        assertFalse(catalog.answer("SELECT typname FROM pg_catalog.pg_type WHERE typcategory = 'N'", "db")
                .isPresent());
        assertTrue(PgCatalog.readsCatalog("select * from PG_CATALOG.pg_roles"));
        assertFalse(PgCatalog.readsCatalog("SELECT desk FROM trades WHERE note = 'pg_catalog.x'"));
    }

    @Test
    void aQueryJoiningACatalogOfThingsNumacubeLacksHasNoRows() {
        Optional<RowSet> rows =
                catalog.answer("SELECT t.tgname FROM pg_catalog.pg_trigger t WHERE t.tgrelid = '16385'", "db");
        assertTrue(rows.isPresent());
        assertEquals(0, rows.get().rowCount());
        assertEquals("tgname", rows.get().columns().getFirst().name());
    }

    private static final String TYPE_INFO = "SELECT typname AS name, oid, typarray AS array_oid,"
            + " oid::regtype::text AS regtype, typdelim AS delimiter FROM pg_type t WHERE t.oid = to_regtype('%s')"
            + " ORDER BY t.oid";

    /**
     * psycopg's TypeInfo.fetch (SQLAlchemy runs it for hstore as it connects) gets PostgreSQL's row for a type numacube
     * has, by any of its names (pg_type's values as PostgreSQL 15 has them), and none for a type it lacks.
     */
    @Test
    void psycopgsTypeLookupGetsPostgresqlsRowForATypeNumacubeHas() {
        assertEquals(
                "name|oid|array_oid|regtype|delimiter\nint8|20|1016|bigint|,",
                render(catalog.answer(TYPE_INFO.formatted("int8"), "db").orElseThrow()));
        assertEquals("int8|20|1016|bigint|,", row(TYPE_INFO.formatted("bigint")));
        assertEquals("numeric|1700|1231|numeric|,", row(TYPE_INFO.formatted("decimal(15,2)")));
        assertEquals("float8|701|1022|double precision|,", row(TYPE_INFO.formatted("double precision")));
        assertEquals("timestamp|1114|1115|timestamp without time zone|,", row(TYPE_INFO.formatted("timestamp")));
        assertEquals("varchar|1043|1015|character varying|,", row(TYPE_INFO.formatted("character varying")));
        assertEquals("bpchar|1042|1014|character|,", row(TYPE_INFO.formatted("char")));
        assertEquals("char|18|1002|\"char\"|,", row(TYPE_INFO.formatted("\"char\"")));
        assertEquals("bool|16|1000|boolean|,", row(TYPE_INFO.formatted("pg_catalog.boolean")));
        RowSet hstore = catalog.answer(TYPE_INFO.formatted("hstore"), "db").orElseThrow();
        assertEquals(0, hstore.rowCount());
        assertEquals("array_oid", hstore.columns().get(2).name());
    }

    /** Array types other than text[] are not modelled: a lookup of one is refused, never answered with no row. */
    @Test
    void aLookupOfAnArrayTypeNotModelledIsNotAnswered() {
        assertFalse(catalog.answer(TYPE_INFO.formatted("int8[]"), "db").isPresent());
        assertFalse(catalog.answer(TYPE_INFO.formatted("_int8"), "db").isPresent());
        assertFalse(catalog.answer("SELECT typname FROM pg_type WHERE oid = 1016", "db")
                .isPresent());
        assertEquals("_text|1009|0|text[]|,", row(TYPE_INFO.formatted("text[]")));
    }

    /** psycopg2's hstore lookup (SQLAlchemy's psycopg2 dialect runs it as it connects) and lookups by OID. */
    @Test
    void typeLookupsByNameJoinedToTheirNamespaceAndByOid() {
        String psycopg2 = "SELECT t.oid, typarray FROM pg_type t JOIN pg_namespace ns ON typnamespace = ns.oid"
                + " WHERE typname = '%s'";
        assertEquals(
                0,
                catalog.answer(psycopg2.formatted("hstore"), "db").orElseThrow().rowCount());
        assertEquals("25|1009", row(psycopg2.formatted("text")));
        assertEquals(
                0,
                catalog.answer(psycopg2.formatted("TEXT"), "db").orElseThrow().rowCount(),
                "typname is exact");
        assertEquals("25|1009", row(psycopg2.formatted("text") + " AND ns.nspname = 'pg_catalog'"));
        assertEquals(
                0,
                catalog.answer(psycopg2.formatted("text") + " AND ns.nspname = 'public'", "db")
                        .orElseThrow()
                        .rowCount());
        assertFalse(catalog.answer(psycopg2.formatted("text") + " AND ns.oid = 11", "db")
                .isPresent());
        assertEquals(
                "numeric|-1|pg_catalog",
                row("SELECT typname, typlen, nspname FROM pg_catalog.pg_type t"
                        + " JOIN pg_catalog.pg_namespace n ON t.typnamespace = n.oid WHERE t.oid = 1700"));
        assertEquals("int2|2\nint4|4", rows("SELECT typname, typlen FROM pg_type WHERE typname IN ('int2', 'int4')"));
        assertFalse(catalog.answer("SELECT typname FROM pg_type WHERE typlen = 8", "db")
                .isPresent());
        assertFalse(catalog.answer("SELECT typname FROM pg_type ORDER BY typname", "db")
                .isPresent());
    }

    /** The one row of {@code sql}'s answer, without its header. */
    private String row(String sql) {
        String r = rows(sql);
        assertFalse(r.contains("\n"), r);
        return r;
    }

    /** The rows of {@code sql}'s answer as {@code psql -A} prints them, without the header. */
    private String rows(String sql) {
        String r = render(catalog.answer(sql, "db").orElseThrow(() -> new AssertionError("not answered: " + sql)));
        return r.substring(r.indexOf('\n') + 1);
    }

    /**
     * SQLAlchemy's reflection of a table's columns qualifies every column with its catalog table ({@code
     * pg_catalog.pg_description.objoid}): those are not relations joined, and a LEFT JOIN of descriptions extends
     * each column's row with NULLs rather than emptying the answer.
     */
    @Test
    void qualifiedColumnsOfFeaturelessCatalogsDoNotEmptyAnAnswer() {
        String columns = "SELECT pg_catalog.pg_attribute.attname AS name, pg_catalog.pg_class.relname AS table_name,"
                + " pg_catalog.pg_description.description AS comment FROM pg_catalog.pg_class LEFT OUTER JOIN"
                + " pg_catalog.pg_attribute ON pg_catalog.pg_class.oid = pg_catalog.pg_attribute.attrelid"
                + " AND pg_catalog.pg_attribute.attnum > 0 LEFT OUTER"
                + " JOIN pg_catalog.pg_description ON pg_catalog.pg_description.objoid ="
                + " pg_catalog.pg_attribute.attrelid JOIN pg_catalog.pg_namespace ON pg_catalog.pg_namespace.oid ="
                + " pg_catalog.pg_class.relnamespace WHERE pg_catalog.pg_class.relname IN ('books'::VARCHAR)";
        List<String> want = new ArrayList<>();
        for (var c : TestCube.shared().schema("books").columns()) {
            want.add(c.name() + "|books|NULL");
        }
        assertEquals(String.join("\n", want), rows(columns));
    }

    /**
     * A filter on a catalog under an alias other than the usual one ({@code ct.relname}, as pgjdbc's
     * getBestRowIdentifier writes it) filters: it was not read, and every table's columns were answered. Without
     * {@code attnum > 0} PostgreSQL would list the system columns too (ctid, xmin, ...): that query is refused.
     */
    @Test
    void aNameFilterUnderAnyAliasOfItsCatalogFilters() {
        String sql = "SELECT a.attname FROM pg_catalog.pg_class ct JOIN pg_catalog.pg_attribute a"
                + " ON (ct.oid = a.attrelid) WHERE ct.relname = 'books' AND a.attnum > 0 ORDER BY a.attnum";
        assertFalse(catalog.answer(sql.replace(" AND a.attnum > 0", ""), "db").isPresent());
        List<String> want = new ArrayList<>();
        for (var c : TestCube.shared().schema("books").columns()) {
            want.add(c.name());
        }
        assertEquals(String.join("\n", want), rows(sql));
        assertEquals(
                String.join("\n", want),
                rows("SELECT a.attname FROM pg_catalog.pg_class cls JOIN pg_catalog.pg_attribute a"
                        + " ON cls.oid = a.attrelid WHERE cls.relname LIKE 'book%' AND a.attnum > 0"));
    }

    /**
     * pgjdbc's getBestRowIdentifier inner-joins a subquery of pg_index: while no table has a key it has no rows, as
     * in PostgreSQL for a table without a primary key; the inner join was ignored, and every column of every table
     * answered as the table's best row identifier.
     */
    @Test
    void anInnerJoinOfASubqueryOfAnEmptyCatalogHasNoRows() {
        String sql = "SELECT a.attname, a.atttypid, atttypmod FROM pg_catalog.pg_class ct"
                + "  JOIN pg_catalog.pg_attribute a ON (ct.oid = a.attrelid)"
                + "  JOIN pg_catalog.pg_namespace n ON (ct.relnamespace = n.oid)"
                + "  JOIN (SELECT i.indexrelid, i.indrelid, i.indisprimary,"
                + "              information_schema._pg_expandarray(i.indkey) AS keys"
                + "         FROM pg_catalog.pg_index i) i"
                + "  ON (a.attnum = (i.keys).x AND a.attrelid = i.indrelid)"
                + "  WHERE true  AND ct.relname = E'books' AND i.indisprimary  ORDER BY a.attnum";
        Optional<RowSet> rows = catalog.answer(sql, "db");
        assertTrue(rows.isEmpty() || rows.get().rowCount() == 0, () -> render(rows.get()));
    }

    /**
     * A relation named by a regclass cast or a function ({@code attrelid = 'books'::regclass}, as DBeaver and hand-written
     * queries write it) is a filter not read: such a query is refused, not answered with every table's columns.
     */
    @Test
    void aRelationFilterNotReadIsNotAnsweredWithEveryTable() {
        List<String> want = new ArrayList<>();
        for (var c : TestCube.shared().schema("books").columns()) {
            want.add(c.name());
        }
        for (String sql : List.of(
                "SELECT a.attname FROM pg_catalog.pg_attribute a WHERE a.attrelid = 'books'::regclass AND a.attnum > 0",
                "SELECT a.attname FROM pg_catalog.pg_attribute a WHERE a.attrelid = to_regclass('books')",
                "SELECT a.attname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid"
                        + " WHERE c.oid = 'public.books'::regclass")) {
            Optional<RowSet> rows = catalog.answer(sql, "db");
            assertTrue(rows.isEmpty() || render(rows.get()).endsWith("\n" + String.join("\n", want)), sql);
        }
    }

    private static String render(RowSet rows) {
        StringBuilder sb = new StringBuilder(
                String.join("|", rows.columns().stream().map(c -> c.name()).toList()));
        for (int r = 0; r < rows.rowCount(); r++) {
            List<String> cells = new ArrayList<>();
            for (int c = 0; c < rows.columns().size(); c++) {
                Object v = rows.value(r, c);
                cells.add(v == null ? "NULL" : TextFormat.text(v));
            }
            sb.append('\n').append(String.join("|", cells));
        }
        return sb.toString();
    }
}
