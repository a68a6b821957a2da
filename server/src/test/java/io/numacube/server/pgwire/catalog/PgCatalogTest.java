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
        assertFalse(
                catalog.answer("SELECT typname FROM pg_catalog.pg_type", "db").isPresent());
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

    /** psycopg's TypeInfo.fetch, which SQLAlchemy runs for hstore as it connects: a type numacube lacks has no row. */
    @Test
    void aTypeLookupOfATypeNumacubeLacksHasNoRow() {
        String lookup = "SELECT typname AS name, oid, typarray AS array_oid, oid::regtype::text AS regtype,"
                + " typdelim AS delimiter FROM pg_type t WHERE t.oid = to_regtype('%s') ORDER BY t.oid";
        Optional<RowSet> rows = catalog.answer(lookup.formatted("hstore"), "db");
        assertTrue(rows.isPresent());
        assertEquals(0, rows.get().rowCount());
        assertEquals("array_oid", rows.get().columns().get(2).name());
        assertFalse(catalog.answer(lookup.formatted("int8"), "db").isPresent(), "a type it has is not answered empty");
        assertFalse(catalog.answer(lookup.formatted("bigint"), "db").isPresent());
        String psycopg2 = "SELECT t.oid, typarray FROM pg_type t JOIN pg_namespace ns ON typnamespace = ns.oid"
                + " WHERE typname = '%s'";
        assertEquals(
                0,
                catalog.answer(psycopg2.formatted("hstore"), "db").orElseThrow().rowCount());
        assertFalse(catalog.answer(psycopg2.formatted("text"), "db").isPresent());
    }

    /**
     * SQLAlchemy's reflection of a table's columns qualifies every column with its catalog table ({@code
     * pg_catalog.pg_description.objoid}): those are not relations joined, so the query (whose items numacube does not
     * model) is refused, never answered with no columns as if it read a featureless catalog.
     */
    @Test
    void qualifiedColumnsOfFeaturelessCatalogsDoNotEmptyAnAnswer() {
        String columns = "SELECT pg_catalog.pg_attribute.attname AS name, pg_catalog.pg_class.relname AS table_name,"
                + " pg_catalog.pg_description.description AS comment FROM pg_catalog.pg_class LEFT OUTER JOIN"
                + " pg_catalog.pg_attribute ON pg_catalog.pg_class.oid = pg_catalog.pg_attribute.attrelid LEFT OUTER"
                + " JOIN pg_catalog.pg_description ON pg_catalog.pg_description.objoid ="
                + " pg_catalog.pg_attribute.attrelid JOIN pg_catalog.pg_namespace ON pg_catalog.pg_namespace.oid ="
                + " pg_catalog.pg_class.relnamespace WHERE pg_catalog.pg_class.relname IN ('trades'::VARCHAR)";
        assertFalse(catalog.answer(columns, "db").isPresent());
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
