package io.numacube.engine.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.numa.base.NumacubeException;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableNamesTest {

    @Test
    void publicAndNumacubePublicNameTheTableItself() {
        assertEquals("trades", TableNames.resolve("trades"));
        assertEquals("trades", TableNames.resolve("public.trades"));
        assertEquals("Trades", TableNames.resolve(List.of("NUMACUBE", "Public", "Trades")));
    }

    @Test
    void aViewOfInformationSchemaKeepsItsSchema() {
        assertEquals("information_schema.columns", TableNames.resolve(List.of("INFORMATION_SCHEMA", "Columns")));
        assertEquals("information_schema.columns", TableNames.resolve("information_schema.columns"));
    }

    @Test
    void anotherSchemaIsNoSuchTableAnotherCatalogIsUnsupported() {
        NumacubeException e = assertThrows(NumacubeException.class, () -> TableNames.resolve("sales.trades"));
        assertEquals("42P01", e.code());
        assertEquals(
                "no such table: table=sales.trades — schema sales does not exist; the tables are in schema public,"
                        + " their descriptions in information_schema",
                e.detail());
        assertEquals(
                "0A000",
                assertThrows(NumacubeException.class, () -> TableNames.resolve("db.public.t"))
                        .code());
        assertEquals(
                "42601",
                assertThrows(NumacubeException.class, () -> TableNames.resolve("a.b.c.d"))
                        .code());
    }
}
